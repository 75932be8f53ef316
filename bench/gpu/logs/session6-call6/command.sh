# Session 6, call 6: gb = the default (a34611e); v5 = BN254 G1 accumulation
# capped at 4 blocks an SM instead of 5; v6 = the Fq2 product as two
# sums of two products (each one set of reduction rows) instead of Karatsuba.
for v in gb v5 v6; do mkdir -p /tmp/$v && tar xJf .gpubin/$v.tar.xz -C /tmp/$v; done
for v in gb v5 v6; do
  echo "== $v"; timeout 100 /tmp/$v/gb/bench_gpu 24 5 0 > $OUT/bench_$v.log 2>&1; echo "rc=$?"; grep -E "MSM|NTT BN254  " $OUT/bench_$v.log | cut -c1-60
done
