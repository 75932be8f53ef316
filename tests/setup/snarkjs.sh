#!/usr/bin/env bash
# snarkjs.sh CURVE CIRCUIT: g16 setup --insecure-dev on the fixture's r1cs
# gives a key snarkjs accepts (export verificationkey, groth16 prove,
# groth16 verify); g16 proves with it too and both verifiers accept; g16
# export-vk equals snarkjs's export.  Its layout (section order and sizes,
# coefficients, header numbers) equals the
# snarkjs-made fixture key's.  The fixture's reference proof (made
# with another key) must not verify under ours.
source "$G16_E2E_LIB"
source "$(dirname "${BASH_SOURCE[0]}")/lib_setup.sh"
need_snarkjs
curve=$1 circuit=$2
d=$G16_FIXTURES/$curve/$circuit
run_g16 setup --insecure-dev "$d/circuit.r1cs" "$T/key.zkey"
[ "$RC" -eq 0 ] || { show_run; fail "g16 setup failed on $d/circuit.r1cs"; }
[ "$(stat -c %s "$T/key.zkey")" -eq "$(stat -c %s "$d/circuit.zkey")" ] ||
  fail "our key for $curve/$circuit is not the size of snarkjs's ($(stat -c %s "$T/key.zkey") vs $(stat -c %s "$d/circuit.zkey"))"
same_layout "$T/key.zkey" "$d/circuit.zkey" || fail "our key for $curve/$circuit is not laid out as snarkjs's"
snarkjs_accepts "$T/key.zkey" "$d/witness.wtns" "$T/vk.json"
expect_verify_rejects "$T/vk.json" "$d/public.json" "$d/proof.json"
note "$curve/$circuit: snarkjs and g16 prove and verify with a g16 setup key"
