#!/usr/bin/env bash
# synth_setup.sh CURVE: g16 synth --setup writes a key and verification key
# that snarkjs and g16 prove and verify with; `g16 check` passes.
source "$G16_E2E_LIB"
source "$(dirname "${BASH_SOURCE[0]}")/lib_setup.sh"
need_snarkjs
curve=$1
run_g16 synth --constraints 3000 --public 3 --curve "$curve" --seed 9 --out "$T/s" --setup
[ "$RC" -eq 0 ] || { show_run; fail "g16 synth --setup failed for $curve"; }
for f in circuit.r1cs witness.wtns circuit.zkey verification_key.json; do
  [ -s "$T/s/$f" ] || fail "g16 synth --setup wrote no $f"
done
run_g16 check "$T/s/circuit.r1cs" "$T/s/witness.wtns"
[ "$RC" -eq 0 ] || { show_run; fail "g16 check rejected the synth circuit"; }
snarkjs_accepts "$T/s/circuit.zkey" "$T/s/witness.wtns" "$T/vk.json"
json_same "$T/vk.json" "$T/s/verification_key.json" || fail "synth's verification_key.json differs from snarkjs's export"
note "$curve: synth --setup key works with snarkjs and g16"
