# Session 8, call 3: proofs with the resident key's MSMs on tables of shift
# copies (g16 prove --gpu-copies): test_prover, every fixture with
# --gpu-copies 3, then the BN254 2^24 synthetic proof with and without
# --gpu-copies 12 in the same call.  Carry .gpubin/gb.tar.xz, .gpubin/fix, .devfix.
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
mkdir -p /tmp/fixall && for d in .devfix/*/* .gpubin/fix/*/*; do [ -f $d/circuit.zkey ] && mkdir -p /tmp/fixall/$(basename $(dirname $d)) && ln -sfn $PWD/$d /tmp/fixall/$(basename $(dirname $d))/$(basename $d); done
timeout 120 /tmp/gb/test_prover /tmp/fixall > $OUT/test_prover.log 2>&1; echo "test_prover rc=$?"; tail -2 $OUT/test_prover.log
GPU_COPIES=12 GPU_REPEAT=5 CPU_REPEAT=1 G2CPU_REPEAT=1 bash bench/gpu/device_session.sh "fixtures synth24bn" > $OUT/session.txt 2>&1
echo "session rc=$?"; grep -vE "^fixture .*verify=OK" $OUT/session.txt | tail -14; grep -c "gpu+copies: verify=OK" $OUT/session.txt
