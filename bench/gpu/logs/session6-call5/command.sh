# Session 6, call 5: test_prover with every fixture (call 4 lacked
# bn128/multiplier), the accumulation kernel uncapped, windows 19 and 21.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
fix=/tmp/fixall
for d in .devfix/*/* .gpubin/fix/*/*; do
  [ -f "$d/circuit.zkey" ] || continue
  mkdir -p "$fix/$(basename "$(dirname "$d")")"
  ln -sfn "$PWD/$d" "$fix/$(basename "$(dirname "$d")")/$(basename "$d")"
done
timeout 150 /tmp/gb/test_prover $fix > $OUT/test_prover.log 2>&1; echo "test_prover rc=$?"; tail -3 $OUT/test_prover.log
G16_GPU_ACC_BOUNDED=0 BENCH_WINDOWS="19 21" timeout 150 /tmp/gb/bench_gpu 24 5 0 > $OUT/bench_unbounded.log 2>&1; echo "rc=$?"; grep -E "MSM|NTT" $OUT/bench_unbounded.log | cut -c1-80
BENCH_WINDOWS="19 21" timeout 150 /tmp/gb/bench_gpu 24 5 0 > $OUT/bench_bounded.log 2>&1; echo "rc=$?"; grep -E "MSM" $OUT/bench_bounded.log | cut -c1-80
