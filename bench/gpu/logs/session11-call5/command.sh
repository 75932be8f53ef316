# Session 11, call 5 (2354e2c plus, uncommitted, the inline-product
# variants 4i and 2i): the warp pass's batched loads and stores, 4 or 2 a
# batch, products inline or by call (G16_GPU_NTT_BATCH = 4 (default: 4 by
# call), 2, 4i, 2i), Shoup and bare, at 2^24; each variant proves the
# BN254 2^20 synthetic circuit (warp passes 7 + 7, then a 6-level block
# pass) and the proof is verified.  Carry .gpubin (gb.tar.xz: g16 bench_gpu).
#   bash bench/gpu/logs/session11-call5/command.sh
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p /tmp/gb && tar xJf .gpubin/gb.tar.xz -C /tmp
bash bench/gpu/ntt_variants.sh /tmp/gb 24 'b4:' 'b2:G16_GPU_NTT_BATCH=2' 'b4i:G16_GPU_NTT_BATCH=4i' 'b2i:G16_GPU_NTT_BATCH=2i' 'b4ibare:G16_GPU_NTT_BATCH=4i,G16_GPU_NTT_MODE=bare' 'b2ibare:G16_GPU_NTT_BATCH=2i,G16_GPU_NTT_MODE=bare' > $OUT/ntt.log 2>&1; cat $OUT/ntt.log
d=/tmp/s20; /tmp/gb/g16 synth --constraints $(((1 << 20) - 2)) --curve bn128 --setup --out $d > $OUT/synth20.log 2>&1 || echo "synth failed"
for b in 4 2 4i 2i; do
  G16_GPU_NTT_BATCH=$b /tmp/gb/g16 prove --device gpu --repeat 3 --verbose $d/circuit.zkey $d/witness.wtns /tmp/p.json /tmp/pub.json 2> /tmp/v.err
  echo "batch $b: verify=$(/tmp/gb/g16 verify $d/verification_key.json /tmp/pub.json /tmp/p.json 2>&1) $(grep proofs: /tmp/v.err)"
done
