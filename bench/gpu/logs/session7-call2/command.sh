# Session 7, call 2: the bucket sums in two levels (no 19-bit scalar
# multiple per level-1 thread), with level 2's segment length L2 = 4
# (default), 2, 8 and 16 (G16_GPU_BUCKET_LEN2); pf = the accumulation with
# the next point loaded a step ahead (-DG16_ACC_PREFETCH=1, bench_gpu
# only).  Then test_gpu, test_prover and the fixtures with the new build.
# Carry .gpubin/gb.tar.xz, .gpubin/pf.tar.xz, .gpubin/fix, .devfix.
mkdir -p /tmp/gb /tmp/pf && tar xJf .gpubin/gb.tar.xz -C /tmp && tar xJf .gpubin/pf.tar.xz -C /tmp/pf
summary() { grep -E "MSM" $1 | cut -c1-62; grep -v ntt_ $2 | awk 'NR%6==0' | sed 's/.*profile //' | cut -c1-200; }
for l2 in 4 2 8 16; do
  echo "== L2=$l2"; G16_GPU_BUCKET_LEN2=$l2 G16_GPU_PROFILE=1 timeout 100 /tmp/gb/bench_gpu 24 5 0 > $OUT/bench_l2_$l2.log 2> $OUT/profile_l2_$l2.log
  echo "rc=$?"; summary $OUT/bench_l2_$l2.log $OUT/profile_l2_$l2.log
done
echo "== prefetch"; G16_GPU_PROFILE=1 timeout 100 /tmp/pf/gb/bench_gpu 24 5 0 > $OUT/bench_pf.log 2> $OUT/profile_pf.log
echo "rc=$?"; summary $OUT/bench_pf.log $OUT/profile_pf.log
bash bench/gpu/device_session.sh "tests fixtures" > $OUT/session.txt 2>&1
echo "session rc=$?"; grep -vE "^fixture .*verify=OK" $OUT/session.txt | tail -20
