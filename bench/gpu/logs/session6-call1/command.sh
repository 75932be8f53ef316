# Session 6, call 1: separate square, one-reduction a b - c d, lazy Fq2
# product.  new = this session's build; old = session 5's (batch off);
# v1 = new with the lazy Fq2 product off (bench_gpu only).
for v in new old v1; do mkdir -p /tmp/$v && tar xJf .gpubin/$v.tar.xz -C /tmp/$v; done
timeout 60 /tmp/new/gb/bench_field > $OUT/field.log 2>&1; echo "bench_field rc=$?"; grep -E "block 128" $OUT/field.log
timeout 240 /tmp/new/gb/test_gpu > $OUT/test_gpu.log 2>&1; echo "test_gpu rc=$?"; grep -iE "field|fail" $OUT/test_gpu.log | head; tail -3 $OUT/test_gpu.log
for v in new old v1; do
  echo "== $v"; timeout 100 /tmp/$v/gb/bench_gpu 24 5 0 > $OUT/bench_$v.log 2>&1; echo "rc=$?"; grep -E "MSM|NTT" $OUT/bench_$v.log
done
