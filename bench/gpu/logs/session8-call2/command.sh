# Session 8, call 2: MSMs on tables of shift copies (copy k = 2^(c k) P):
# test_gpu (copies checked against the CPU MSM, c = 22 / 24 forced too),
# then bench_gpu 24 with BENCH_COPIES (c=22 x12, c=24 x11, c=20 x13 and
# c=22 x6), each table's result compared with the plain MSM's.
# Carry .gpubin/gb.tar.xz.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
/tmp/gb/test_gpu > $OUT/test_gpu.log 2>&1; echo "test_gpu rc=$?"; tail -4 $OUT/test_gpu.log
BENCH_COPIES="12:22 11:24 13:20 6:22" G16_GPU_PROFILE=1 timeout 400 /tmp/gb/bench_gpu 24 5 0 > $OUT/bench.log 2> $OUT/profile.log
echo "bench rc=$?"; grep -E "MSM|NTT BN254  " $OUT/bench.log | cut -c1-160
grep -v ntt_ $OUT/profile.log | awk 'NR%6==0' | sed 's/.*profile //' | cut -c1-200
