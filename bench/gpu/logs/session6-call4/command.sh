# Session 6, call 4: the shift-free product as the default (this build):
# correctness (test_gpu, test_prover, fixtures), the kernels, whole proofs.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
timeout 60 /tmp/gb/bench_field > $OUT/field.log 2>&1; echo "bench_field rc=$?"; grep -E "block 128|differ" $OUT/field.log
timeout 100 /tmp/gb/bench_gpu 24 5 0 > $OUT/bench.log 2>&1; echo "bench rc=$?"; grep -E "MSM|NTT" $OUT/bench.log | cut -c1-70
G16_GPU_PROFILE=1 timeout 60 /tmp/gb/bench_gpu 24 1 0 > $OUT/profile.log 2>&1; grep -E "msm" $OUT/profile.log | head -4 | cut -c1-220
GPU_REPEAT=7 CPU_REPEAT=1 G2CPU_REPEAT=1 timeout 420 bash bench/gpu/device_session.sh "tests fixtures synth20 synth24bn" > $OUT/session.log 2>&1; echo "session rc=$?"
grep -E "verify=|proofs:|synth\+|FAIL|device memory|test_gpu|test_prover|ok$" $OUT/session.log | cut -c1-300 | tail -40
