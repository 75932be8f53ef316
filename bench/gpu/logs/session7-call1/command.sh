# Session 7, call 1: the final build of session 6 (Fq2 product as sums;
# reduce/add/sub on the carry-chain macros): phase profile of the four
# 2^24 MSMs, the field rates, then test_gpu, test_prover, fixtures and the
# synthetic proofs.  Carry .gpubin/gb.tar.xz, .gpubin/fix, .devfix.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
G16_GPU_PROFILE=1 timeout 120 /tmp/gb/bench_gpu 24 3 0 > $OUT/bench.log 2> $OUT/profile.log
echo "bench rc=$?"; grep -E "MSM|NTT" $OUT/bench.log | cut -c1-62
timeout 30 /tmp/gb/bench_field > $OUT/field.log 2>&1; tail -12 $OUT/field.log
GPU_REPEAT=7 CPU_REPEAT=1 G2CPU_REPEAT=1 bash bench/gpu/device_session.sh "tests fixtures synth20 synth24bn" > $OUT/session.txt 2>&1
echo "session rc=$?"; grep -vE "^fixture .*verify=OK" $OUT/session.txt | tail -40
