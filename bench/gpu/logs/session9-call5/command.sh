# Session 9, call 5: lazy Shoup butterflies (values in [0, 2p), Harvey's
# butterfly); test_gpu, test_prover, every fixture on the GPU, NTT timings
# by product (the 2^24 proof left out: device time).  Carry .gpubin, .devfix.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp; B=/tmp/gb
for m in shoup mont bare; do echo "== $m"; G16_GPU_NTT_MODE=$m BENCH_ONLY=ntt timeout 60 $B/bench_gpu 24 5 0 2>&1 | grep NTT; done | tee $OUT/ntt.log
G16_GPU_PROFILE=1 BENCH_ONLY=ntt $B/bench_gpu 24 1 0 2>&1 | grep -m2 "ntt_bn254" | tail -1
timeout 300 bash bench/gpu/device_session.sh "tests fixtures" > $OUT/session.txt 2>&1; echo "session rc=$?"
grep -c "verify=OK" $OUT/session.txt; grep -E "FAIL|rc=|test_gpu:|proofs:|synth bn128" $OUT/session.txt | cut -c1-400
