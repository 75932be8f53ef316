# Session 8, call 1: session 7's Shoup check and the new Karatsuba check on
# the device (test_gpu, main build: products unchanged, the carry-in now a
# scoped PTX register), bench_field (mul / shoup / kara rates), then the
# MSMs and NTT with every field's product Karatsuba (gk: -DG16_GPU_KARA=1)
# against the main build in the same call, test_gpu on the Karatsuba build.
# Carry .gpubin/gb.tar.xz, .gpubin/gk.tar.xz, .gpubin/fix, .devfix.
mkdir -p /tmp/gk && tar xJf .gpubin/gk.tar.xz -C /tmp
bash bench/gpu/device_session.sh "tests fixtures" > $OUT/session.txt 2>&1
echo "session rc=$?"; grep -vE "^fixture .*verify=OK" $OUT/session.txt | tail -8
/tmp/gb/bench_field > $OUT/field.log 2>&1; echo "field rc=$?"; grep -E "differ|chains 2" $OUT/field.log
/tmp/gk/test_gpu > $OUT/test_gpu_kara.log 2>&1; echo "test_gpu kara rc=$?"; tail -2 $OUT/test_gpu_kara.log
for b in gb gk gb gk; do
  G16_GPU_PROFILE=1 timeout 120 /tmp/$b/bench_gpu 24 5 0 > $OUT/bench_$b.log 2> $OUT/profile_$b.log
  echo "== $b rc=$?"; grep -E "MSM|NTT BN254  " $OUT/bench_$b.log | cut -c1-62
done
grep -v ntt_ $OUT/profile_gk.log | awk 'NR%6==0' | sed 's/.*profile //' | cut -c1-200
