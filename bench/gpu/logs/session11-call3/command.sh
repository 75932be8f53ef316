# Session 11, call 3: test_gpu, test_prover and every fixture on the final
# build; the NTT's warps a block (4, the default, against 8 and the block
# pass) in bench_gpu and in the BN254 2^24 whole proof, same call; the
# proof on the CPU beside it.  Carry .gpubin (gb.tar.xz: g16 test_gpu
# bench_gpu test_prover) and .devfix (../shared/fixtures).
#   bash bench/gpu/logs/session11-call3/command.sh
export PATH=$PATH:/usr/local/cuda/bin
bash bench/gpu/device_session.sh "tests fixtures" > $OUT/session.txt 2>&1
echo "session rc=$?"; grep -E "rc=|FAIL|done" $OUT/session.txt | head; echo "verified: $(grep -c verify=OK $OUT/session.txt)"
bash bench/gpu/ntt_variants.sh /tmp/gb 24 'w4:' 'w8:G16_GPU_NTT_WARPS=8' 'block:G16_GPU_NTT_WARP=0' > $OUT/ntt.log 2>&1; cat $OUT/ntt.log
GPU_REPEAT=7 CPU_REPEAT=1 G2CPU_REPEAT=1 bash bench/gpu/device_session.sh synth24bn > $OUT/synth.txt 2>&1
echo "synth rc=$?"; grep -E "synth|proofs:|FAIL" $OUT/synth.txt | cut -c1-330
d=/tmp/synth-bn128-24
for v in w8:G16_GPU_NTT_WARPS=8 block:G16_GPU_NTT_WARP=0 w4:; do
  env ${v#*:} /tmp/gb/g16 prove --device gpu --repeat 7 --verbose $d/circuit.zkey $d/witness.wtns /tmp/p.json /tmp/pub.json 2> /tmp/v.err
  echo "${v%%:*}: verify=$(/tmp/gb/g16 verify $d/verification_key.json /tmp/pub.json /tmp/p.json 2>&1) $(grep proofs: /tmp/v.err)"
done
