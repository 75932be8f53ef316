mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
timeout 200 /tmp/gb/test_gpu > $OUT/test_gpu.log 2>&1; echo "test_gpu rc=$?"; tail -5 $OUT/test_gpu.log
timeout 100 /tmp/gb/bench_gpu 24 5 0 2>&1 | grep -E "MSM|NTT"
S="--section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy --section InstructionStats"
BENCH_ONLY=ntt timeout 60 ncu --clock-control none -k regex:pass -s 2 -c 1 $S /tmp/gb/bench_gpu 24 1 0 > $OUT/ncu-ntt.txt 2>&1; echo "ncu rc=$?"
grep -E "Duration|Throughput|Eligible|Issued Warp|Achieved Occ|Registers|Executed Ipc" $OUT/ncu-ntt.txt | head -20
GPU_REPEAT=7 CPU_REPEAT=1 G2CPU_REPEAT=1 timeout 330 bash bench/gpu/device_session.sh synth24bls 2>&1 | tee $OUT/synth24bls.log | grep -E "verify=|proofs:|synth\+|FAIL|device memory" | cut -c1-400
