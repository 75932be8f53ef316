# Session 11, call 6: the warp pass's plain loads (no column twiddle) four
# at a time (default) against one at a time (G16_GPU_NTT_BATCH=0), each
# twice, Shoup and bare, at 2^24; test_gpu; the BN254 2^20 synthetic
# proof with both, verified.  Carry .gpubin (gb.tar.xz: g16 bench_gpu test_gpu).
#   bash bench/gpu/logs/session11-call6/command.sh
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
bash bench/gpu/ntt_variants.sh /tmp/gb 24 'copyin:' 'old:G16_GPU_NTT_BATCH=0' 'copyin-again:' 'old-again:G16_GPU_NTT_BATCH=0' 'copyin-bare:G16_GPU_NTT_MODE=bare' 'old-bare:G16_GPU_NTT_BATCH=0,G16_GPU_NTT_MODE=bare' > $OUT/ntt.log 2>&1; cat $OUT/ntt.log
timeout 300 /tmp/gb/test_gpu > $OUT/test_gpu.log 2>&1; echo "test_gpu rc=$?"; tail -2 $OUT/test_gpu.log
d=/tmp/s20; /tmp/gb/g16 synth --constraints $(((1 << 20) - 2)) --curve bn128 --setup --out $d > $OUT/synth20.log 2>&1 || echo "synth failed"
for b in 4 0; do
  G16_GPU_NTT_BATCH=$b /tmp/gb/g16 prove --device gpu --repeat 3 --verbose $d/circuit.zkey $d/witness.wtns /tmp/p.json /tmp/pub.json 2> /tmp/v.err
  echo "batch $b: verify=$(/tmp/gb/g16 verify $d/verification_key.json /tmp/pub.json /tmp/p.json 2>&1) $(grep proofs: /tmp/v.err)"
done
