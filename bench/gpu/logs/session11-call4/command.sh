# Session 11, call 4: the warp pass's loads, gathers and stores in batches
# (NTT_WARP_BATCH 4, G16_GPU_NTT_BATCH=2 for 2) against the block pass,
# bare and Shoup; Nsight Compute on one batched pass at 2^22; tests,
# fixtures and the BN254 2^24 proof.  Carry .gpubin (gb.tar.xz: g16
# test_gpu bench_gpu test_prover) and .devfix.
#   bash bench/gpu/logs/session11-call4/command.sh
export PATH=$PATH:/usr/local/cuda/bin
bash bench/gpu/device_session.sh "tests fixtures" > $OUT/session.txt 2>&1
echo "session rc=$?"; grep -E "rc=|FAIL|done" $OUT/session.txt | head; echo "verified: $(grep -c verify=OK $OUT/session.txt)"
bash bench/gpu/ntt_variants.sh /tmp/gb 24 'b4:' 'b2:G16_GPU_NTT_BATCH=2' 'b4bare:G16_GPU_NTT_MODE=bare' 'b2bare:G16_GPU_NTT_BATCH=2,G16_GPU_NTT_MODE=bare' 'block:G16_GPU_NTT_WARP=0' 'w8:G16_GPU_NTT_WARPS=8' > $OUT/ntt.log 2>&1; cat $OUT/ntt.log
ncu --clock-control none --kernel-name regex:pass_warp_shoup --launch-count 1 --section SpeedOfLight --section Occupancy --section SchedulerStats --section WarpStateStats --section LaunchStats --section InstructionStats env BENCH_ONLY=ntt /tmp/gb/bench_gpu 22 1 0 > $OUT/ncu.txt 2>&1
echo "ncu rc=$?"; grep -E "Throughput|Eligible Warps|Registers Per|Achieved Occ|Warp Cycles Per Issued|threads per warp|cycles being stalled" $OUT/ncu.txt | head -20
GPU_REPEAT=7 CPU_REPEAT=1 G2CPU_REPEAT=1 bash bench/gpu/device_session.sh synth24bn > $OUT/synth.txt 2>&1
echo "synth rc=$?"; grep -E "synth|proofs:|FAIL" $OUT/synth.txt | cut -c1-330
