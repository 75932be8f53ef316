#!/usr/bin/env bash
# prove_verify.sh CURVE CIRCUIT: prove a fixture with g16, check the shape of
# proof.json, check public.json equals the fixture's, verify with snarkjs.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
curve=$1 circuit=$2
need_snarkjs
d=$(fixture "$curve" "$circuit")
mkdir -p "$T/out"
prove "$d/circuit.zkey" "$d/witness.wtns" "$T/out/proof.json" "$T/out/public.json"
check_proof_shape "$T/out/proof.json" "$curve" || fail "proof.json for $curve/$circuit has the wrong shape"
json_same "$T/out/public.json" "$d/public.json" || {
  echo "--- g16:" >&2; cat "$T/out/public.json" >&2
  echo "--- expected ($d/public.json):" >&2; cat "$d/public.json" >&2
  fail "public.json for $curve/$circuit differs from the fixture's"
}
expect_verify_ok "$d/verification_key.json" "$T/out/public.json" "$T/out/proof.json"
[ "$(cd "$T/out" && find . -mindepth 1 | LC_ALL=C sort)" = "$(printf './proof.json\n./public.json')" ] ||
  fail "g16 left other files in the output folder: $(dir_listing "$T/out" | tr '\n' ' ')"
note "$curve/$circuit: proof verified by snarkjs, public signals match"
