# Session 7, call 4: the build with the per-group choices (bucket sums in
# two levels, L2 = 16; uncapped accumulation for BLS12-381 G1 and BN254
# G2; a b - c d in BN254 Fq2 as sums of four products): kernels with the
# default level-1 segment (e >> 20 entries) and with e >> 19 and e >> 21
# (G16_GPU_FIRST_SEG_SHIFT), test_gpu also with e >> 19, then test_gpu,
# test_prover, fixtures and the synthetic proofs.
# Carry .gpubin/gb.tar.xz, .gpubin/fix, .devfix.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
summary() { grep -E "MSM|NTT BN254  " $1 | cut -c1-62; grep -v ntt_ $2 | awk 'NR%6==0' | sed 's/.*profile //' | cut -c1-220; }
for sh in 20 19 21; do
  echo "== first segment e >> $sh"
  G16_GPU_FIRST_SEG_SHIFT=$sh G16_GPU_PROFILE=1 timeout 100 /tmp/gb/bench_gpu 24 5 0 > $OUT/bench_seg$sh.log 2> $OUT/profile_seg$sh.log
  echo "rc=$?"; summary $OUT/bench_seg$sh.log $OUT/profile_seg$sh.log
done
G16_GPU_FIRST_SEG_SHIFT=19 timeout 150 /tmp/gb/test_gpu > $OUT/test_gpu_seg19.log 2>&1; echo "test_gpu (e >> 19) rc=$?"; tail -2 $OUT/test_gpu_seg19.log
GPU_REPEAT=7 CPU_REPEAT=1 G2CPU_REPEAT=1 bash bench/gpu/device_session.sh "tests fixtures synth20 synth24bn" > $OUT/session.txt 2>&1
echo "session rc=$?"; grep -vE "^fixture .*verify=OK" $OUT/session.txt | tail -30
