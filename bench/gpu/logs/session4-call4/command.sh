(bash bench/daemon/gpu_tests.sh 2>&1 | tail -7)
bash bench/gpu/device_session.sh "tests fixtures synth20" 2>&1 | grep -E "rc=|ok$|FAIL|verify=|proofs:|synth\+" | grep -v "g16: gpu" | cut -c1-200
np() { G16_GPU_NO_PRIORITY=1 /tmp/gb/g16 prove --device gpu --verbose --repeat $2 $1/circuit.zkey $1/witness.wtns /tmp/np.proof /tmp/np.public 2> /tmp/np.err; echo "no-priority $1: $(grep proofs: /tmp/np.err) verify=$(/tmp/gb/g16 verify $1/verification_key.json /tmp/np.public /tmp/np.proof)"; }
np /tmp/synth-bn128-20 7; np /tmp/synth-bls12381-20 7
BENCH_ONLY=ntt /tmp/gb/bench_gpu 24 5 1 2>&1 | grep -E "^NTT"
GPU_REPEAT=7 CPU_REPEAT=1 G2CPU_REPEAT=1 bash bench/gpu/device_session.sh synth24bn 2>&1 | grep -E "verify=|proofs:|synth\+|FAIL" | cut -c1-400
np /tmp/synth-bn128-24 7
cp /tmp/pv.err $OUT/ 2>/dev/null; true
