# Session 10, call 1: the warp pass (a column a warp, __syncwarp only,
# swizzled shared slots) against the block pass, by product and warps a
# block; per-pass profile; Nsight Compute on one warp pass; test_gpu,
# test_prover and every fixture on the GPU.  Carry .gpubin, .devfix.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp; B=/tmp/gb
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
for v in "1 8 shoup" "0 8 shoup" "1 4 shoup" "1 2 shoup" "1 8 mont" "1 8 bare" "0 8 bare"; do set -- $v; echo "== warp=$1 warps=$2 $3"; G16_GPU_NTT_WARP=$1 G16_GPU_NTT_WARPS=$2 G16_GPU_NTT_MODE=$3 BENCH_ONLY=ntt timeout 60 $B/bench_gpu 24 5 0 2>&1 | grep NTT; done | tee $OUT/ntt.log
for w in 1 0; do G16_GPU_NTT_WARP=$w G16_GPU_PROFILE=1 BENCH_ONLY=ntt $B/bench_gpu 24 1 0 2>&1 | grep -m2 "ntt_bn254" | tail -1; done
timeout 120 ncu --clock-control none -k regex:ntt_bn254_pass_warp_shoup -s 3 -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis env BENCH_ONLY=ntt $B/bench_gpu 22 1 0 > $OUT/ncu.txt 2>&1; echo "ncu rc=$?"; grep -E "Duration|Throughput|Issued Ipc|Stall|Achieved Occupancy|Eligible|No Eligible|Bank|Registers" $OUT/ncu.txt | head -30
timeout 300 bash bench/gpu/device_session.sh "tests fixtures" > $OUT/session.txt 2>&1; echo "session rc=$?"
grep -c "verify=OK" $OUT/session.txt; grep -E "FAIL|rc=|test_gpu:|proofs:" $OUT/session.txt | cut -c1-400
