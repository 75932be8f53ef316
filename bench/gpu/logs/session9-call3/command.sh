# Session 9, call 3: why the NTT pass is latency-bound.  The Shoup pass at
# 2, 3, 4 blocks an SM; bench_field at low occupancy (one vs two
# independent products a thread); the pass's stall reasons (Nsight
# Compute) and its SASS.  Carry .gpubin.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp; B=/tmp/gb
for o in 2 3 4; do echo "== occ $o"; G16_GPU_NTT_OCC=$o BENCH_ONLY=ntt timeout 60 $B/bench_gpu 24 5 0 2>&1 | grep NTT; done | tee $OUT/ntt.log
for m in 1 2 4 8; do echo "== bench_field $m"; $B/bench_field $m | grep "BN254 Fq" | grep "block 128" | grep -E "mul |shoup"; done | tee $OUT/field.log
timeout 150 ncu --clock-control none -k regex:ntt_bn254_pass_shoup -s 3 -c 1 --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed_pipe_.*\.sum,smsp__cycles_active.avg env BENCH_ONLY=ntt $B/bench_gpu 22 1 0 > $OUT/ncu.txt 2>&1; echo "ncu rc=$?"; grep -E "stalled|pipe_|cycles_active" $OUT/ncu.txt | awk '$NF+0 > 0.05' | sort -k3 -rn | head -40
cuobjdump -sass $B/bench_gpu 2>/dev/null | awk '/Function : .*ntt_bn254_pass_shoupP/{on=1} /Function : / && !/ntt_bn254_pass_shoupP/{on=0} on' > $OUT/sass_pass_shoup.txt; wc -l $OUT/sass_pass_shoup.txt
