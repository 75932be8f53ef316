mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
S="--section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy --section SchedulerStats --section LaunchStats"
timeout 150 ncu --clock-control none -k regex:acc_batch -c 1 $S /tmp/gb/bench_gpu 24 1 0 > $OUT/ncu-batch.txt 2>&1; echo "ncu rc=$?"
G16_GPU_MSM_BATCH=0 timeout 150 ncu --clock-control none -k regex:acc_first_bounded -c 1 $S /tmp/gb/bench_gpu 24 1 0 > $OUT/ncu-xyzz.txt 2>&1; echo "ncu rc=$?"
grep -E "Duration|Throughput|Stall|Warp Cycles|Eligible|Issued|Registers|Achieved Occ|Theoretical Occ|L1/TEX Hit|L2 Hit|Local" $OUT/ncu-batch.txt | head -40
echo ---; grep -E "Duration|Throughput|Warp Cycles|Eligible|Issued|Achieved Occ|L1/TEX Hit|L2 Hit" $OUT/ncu-xyzz.txt | head -30
BENCH_BATCH="2048:256 1536:64 2048:16" timeout 100 /tmp/gb/bench_gpu 24 3 0 2>&1 | grep -E "MSM BN254 G1|MSM BLS12-381 G1"
