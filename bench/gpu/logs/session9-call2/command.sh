# Session 9, call 2: the NTT with elements split in 16-byte parts in shared
# memory; test_gpu, NTT timings by butterfly product, an Nsight Compute look
# at one pass, then every fixture and the BN254 2^24 synthetic proof (Shoup
# NTT, then Montgomery NTT, same process setup).  Carry .gpubin, .devfix.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp; B=/tmp/gb
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
timeout 200 $B/test_gpu > $OUT/test_gpu.log 2>&1; echo "test_gpu rc=$?"; tail -1 $OUT/test_gpu.log
for m in shoup mont bare; do echo "== $m"; G16_GPU_NTT_MODE=$m BENCH_ONLY=ntt timeout 60 $B/bench_gpu 24 5 0 2>&1 | grep NTT; done | tee $OUT/ntt.log
G16_GPU_PROFILE=1 BENCH_ONLY=ntt $B/bench_gpu 24 1 0 2>&1 | grep -m2 "ntt_bn254" | tail -1
timeout 120 ncu --clock-control none -k regex:ntt_bn254_pass_shoup -s 3 -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis env BENCH_ONLY=ntt $B/bench_gpu 22 1 0 > $OUT/ncu.txt 2>&1; echo "ncu rc=$?"; grep -E "Duration|Throughput|Issued Ipc|Stall|Achieved Occupancy|Eligible|No Eligible|Bank|Registers" $OUT/ncu.txt | head -30
GPU_REPEAT=5 CPU_REPEAT=1 G2CPU_REPEAT=1 timeout 400 bash bench/gpu/device_session.sh "fixtures synth24bn" > $OUT/session.txt 2>&1; echo "session rc=$?"
grep -vE "^fixture .*verify=OK" $OUT/session.txt | tail -9; grep -c "verify=OK" $OUT/session.txt
d=/tmp/synth-bn128-24; G16_GPU_NTT_MODE=mont $B/g16 prove --verbose --device gpu --repeat 5 $d/circuit.zkey $d/witness.wtns /tmp/p.json /tmp/pub.json 2>&1 | tail -2; $B/g16 verify $d/verification_key.json /tmp/pub.json /tmp/p.json
