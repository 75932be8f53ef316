# Session 7, call 5: the committed build (05829d4: the measuring switches
# of call 4 removed): kernels, test_gpu, fixtures, then the BLS12-381
# synthetic 2^24 proof (last measured with the field product of session 5).
# Carry .gpubin/gb.tar.xz, .gpubin/fix, .devfix.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
G16_GPU_PROFILE=1 timeout 100 /tmp/gb/bench_gpu 24 5 0 > $OUT/bench.log 2> $OUT/profile.log
echo "bench rc=$?"; grep -E "MSM|NTT" $OUT/bench.log | cut -c1-62
grep -v ntt_ $OUT/profile.log | awk 'NR%6==0' | sed 's/.*profile //' | cut -c1-220
GPU_REPEAT=5 CPU_REPEAT=1 G2CPU_REPEAT=1 bash bench/gpu/device_session.sh "tests fixtures synth24bls" > $OUT/session.txt 2>&1
echo "session rc=$?"; grep -vE "^fixture .*verify=OK" $OUT/session.txt | tail -20
