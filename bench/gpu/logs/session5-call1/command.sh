mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
nvidia-smi --query-gpu=name,clocks.sm,memory.used --format=csv,noheader
BENCH_BATCH="off 2048:64 1024:64 4096:64 2048:32 2048:128" timeout 200 /tmp/gb/bench_gpu 24 3 0 2>&1 | tee $OUT/bench-variants.log | grep -E "MSM|NTT BN254 "
G16_GPU_BATCH_WIDE=1 BENCH_BATCH="2048:64" timeout 100 /tmp/gb/bench_gpu 24 3 0 2>&1 | grep -E "MSM" | sed 's/^/wide: /'
G16_GPU_PROFILE=1 timeout 60 /tmp/gb/bench_gpu 24 1 0 > $OUT/profile.log 2>&1; grep -E "gpu profile|MSM" $OUT/profile.log | head -40
timeout 280 /tmp/gb/test_gpu > $OUT/test_gpu.log 2>&1; echo "test_gpu rc=$?"; tail -12 $OUT/test_gpu.log
