# Session 9, call 4: the NTT pass with its loads, column-twiddle gathers and
# store factors by cp.async (all in flight at once), and Shoup's pair
# product (two butterflies' chains interleaved); test_gpu, test_prover,
# every fixture on the GPU, NTT timings, phase profile, stall reasons.
# Carry .gpubin, .devfix.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp; B=/tmp/gb
timeout 400 bash bench/gpu/device_session.sh "tests fixtures" > $OUT/session.txt 2>&1; echo "session rc=$?"; grep -c "verify=OK" $OUT/session.txt; grep -E "FAIL|rc=|test_gpu:" $OUT/session.txt
for m in shoup shoup1 mont bare; do echo "== $m"; G16_GPU_NTT_MODE=$m BENCH_ONLY=ntt timeout 60 $B/bench_gpu 24 5 0 2>&1 | grep NTT; done | tee $OUT/ntt.log
G16_GPU_PROFILE=1 BENCH_ONLY=ntt $B/bench_gpu 24 1 0 2>&1 | grep -m2 "ntt_bn254" | tail -1
timeout 150 ncu --clock-control none -k regex:ntt_bn254_pass_shoup -s 3 -c 1 --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__cycles_active.avg,sm__throughput.avg.pct_of_peak_sustained_elapsed env BENCH_ONLY=ntt $B/bench_gpu 22 1 0 > $OUT/ncu.txt 2>&1; echo "ncu rc=$?"; grep -E "stalled|cycles_active|throughput" $OUT/ncu.txt | awk '$NF+0 > 0.1' | sort -k3 -rn | head -12
