# Session 7, call 3.  gb = call 2's binary (bucket sums in two levels) with
# G16_GPU_BUCKET_LEN2=16 (the committed default), capped (ACC_BOUNDED=1,
# the default) and uncapped (0) accumulation; bp = the bucket running sums
# in two passes (suffix sums written over the buckets: two live points, not
# three; -DMSM_BUCKET_PASSES=2); s4 = bp plus a b - c d in Fq2 as two sums
# of four base products, one reduction each (-DG16_FQ2_SUM4=1), and its
# test_gpu (the field check on the device covers the Fq2 diff2).
# Carry .gpubin/{gb,bp,s4}.tar.xz, .gpubin/fix, .devfix.
for v in gb bp s4; do mkdir -p /tmp/$v && tar xJf .gpubin/$v.tar.xz -C /tmp/$v; done
summary() { grep -E "MSM" $1 | cut -c1-62; grep -v ntt_ $2 | awk 'NR%6==0' | sed 's/.*profile //' | cut -c1-220; }
run() {   # label binary-dir env...
  local l=$1 d=$2; shift 2
  echo "== $l"; env "$@" G16_GPU_PROFILE=1 timeout 100 /tmp/$d/gb/bench_gpu 24 5 0 > $OUT/bench_$l.log 2> $OUT/profile_$l.log
  echo "rc=$?"; summary $OUT/bench_$l.log $OUT/profile_$l.log
}
run gb gb G16_GPU_BUCKET_LEN2=16
run gb_uncapped gb G16_GPU_BUCKET_LEN2=16 G16_GPU_ACC_BOUNDED=0
run bp bp
run s4 s4
run s4_uncapped s4 G16_GPU_ACC_BOUNDED=0
timeout 150 /tmp/s4/gb/test_gpu > $OUT/test_gpu_s4.log 2>&1; echo "test_gpu s4 rc=$?"; tail -3 $OUT/test_gpu_s4.log
