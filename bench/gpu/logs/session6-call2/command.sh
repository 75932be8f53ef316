# Session 6, call 2: mul_eo without the dead carry words (b54fb87), lazy
# Fq2 product removed.  gb = this build; v2 = the same with the separate
# square off (bench_gpu only); old = session 5's (baseline in the same run).
for v in gb v2 old; do mkdir -p /tmp/$v && tar xJf .gpubin/$v.tar.xz -C /tmp/$v; done
timeout 60 /tmp/gb/gb/bench_field > $OUT/field.log 2>&1; echo "bench_field rc=$?"; grep -E "block 128" $OUT/field.log
cuobjdump -sass /tmp/gb/gb/bench_field > $OUT/bench_field.sass 2>&1; echo "cuobjdump rc=$?"
awk '/Function :/{fn=$3} /^ *\/\*[0-9a-f]+\*\/ /{op=$2; if(op ~ /^@/) op=$3; sub(/\..*/,"",op); sub(/;/,"",op); c[fn" "op]++} END{for(k in c) print k, c[k]}' $OUT/bench_field.sass | grep "bn254_fq_loopILi[0-3]ELi1E" | sort -k1,1 -k3,3nr | awk '$3>20' 
timeout 200 /tmp/gb/gb/test_gpu > $OUT/test_gpu.log 2>&1; echo "test_gpu rc=$?"; grep -iE "field|fail" $OUT/test_gpu.log | head; tail -2 $OUT/test_gpu.log
for v in gb v2 old; do
  echo "== $v"; timeout 100 /tmp/$v/gb/bench_gpu 24 5 0 > $OUT/bench_$v.log 2>&1; echo "rc=$?"; grep -E "MSM|NTT" $OUT/bench_$v.log | cut -c1-60
done
