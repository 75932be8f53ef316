# Session 11, call 2 (767331b: the batched shift copies and g16d
# --gpu-copies): tests, the 4 fixtures of .gpubin/fix (test_prover needs
# all of .devfix, not carried: rc=2 for a missing fixture), g16d's socket
# tests on the GPU, the BN254 2^24 synthetic proof with and without
# --gpu-copies 12.  Carry .gpubin (bench/daemon/gpu_prepare.sh build, then
# gb.tar.xz: test_gpu bench_gpu test_prover).
export PATH=$PATH:/usr/local/cuda/bin; mkdir -p /tmp/gb && tar xJf .gpubin/daemon-bin.tar.xz -C /tmp/gb; bash bench/gpu/device_session.sh "tests fixtures" > $OUT/session.txt 2>&1; echo session rc=$?; grep -E "rc=|FAIL|done" $OUT/session.txt | head; grep -c verify=OK $OUT/session.txt; bash bench/daemon/gpu_tests.sh device misc restart > $OUT/daemon.txt 2>&1; cat $OUT/daemon.txt; GPU_COPIES=12 GPU_REPEAT=5 CPU_REPEAT=1 G2CPU_REPEAT=1 bash bench/gpu/device_session.sh synth24bn > $OUT/synth.txt 2>&1; echo synth rc=$?; grep -E "synth|proofs:|FAIL" $OUT/synth.txt | cut -c1-400
