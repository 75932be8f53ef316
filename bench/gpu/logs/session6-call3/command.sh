# Session 6, call 3: the shift-free product.  gb = this build (mul_eo,
# diff2); v4 = the same with G16_GPU_MUL_ABS=1; v3 = with G16_GPU_DIFF2=0
# (bench_gpu only for v3, v4).
for v in gb v3 v4; do mkdir -p /tmp/$v && tar xJf .gpubin/$v.tar.xz -C /tmp/$v; done
timeout 60 /tmp/gb/gb/bench_field > $OUT/field.log 2>&1; echo "bench_field rc=$?"; grep -E "block 128" $OUT/field.log
cuobjdump -sass /tmp/gb/gb/bench_field > /tmp/bf.sass 2>&1; echo "cuobjdump rc=$?"
awk '/Function :/{fn=$3} /^ *\/\*[0-9a-f]+\*\/ /{op=$2; if(op ~ /^@/) op=$3; sub(/;/,"",op); split(op,q,"."); c[fn" "q[1]]++} END{for(k in c) print k, c[k]}' /tmp/bf.sass | grep -E "fq_loopILi[1-2]ELi1E" | sort -k1,1 -k3,3nr | awk '$3>8' | sed 's/_Z[0-9]*//; s/EvP.*fqm//'
timeout 200 /tmp/gb/gb/test_gpu > $OUT/test_gpu.log 2>&1; echo "test_gpu rc=$?"; grep -iE "field|fail" $OUT/test_gpu.log | head; tail -2 $OUT/test_gpu.log
for v in gb v4 v3; do
  echo "== $v"; timeout 100 /tmp/$v/gb/bench_gpu 24 5 0 > $OUT/bench_$v.log 2>&1; echo "rc=$?"; grep -E "MSM|NTT" $OUT/bench_$v.log | cut -c1-60
done
for v in gb v4; do
  echo "== profile $v"; G16_GPU_PROFILE=1 timeout 60 /tmp/$v/gb/bench_gpu 24 1 0 > $OUT/profile_$v.log 2>&1; grep -iE "acc|bucket|sort|digits|total|MSM BN254 G1" $OUT/profile_$v.log | head -12 | cut -c1-160
done
