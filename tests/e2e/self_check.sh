#!/usr/bin/env bash
# self_check.sh CURVE CIRCUIT: `g16 prove --verify` checks each proof with
# the key's own verification key before writing it.  A good key: the proof
# is written and snarkjs accepts it.  A key whose points are all on their
# curves but wrong (point 0 of the C section replaced by point 1: the key
# check cannot see it): without --verify a proof snarkjs rejects is
# written; with --verify one error line naming the key, exit 1, nothing
# written; --repeat with --verify says its rate counts the checks.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_snarkjs
curve=$1 circuit=$2
d=$(fixture "$curve" "$circuit")
vk=$d/verification_key.json
n8q=$([ "$curve" = bls12381 ] && echo 48 || echo 32)
g1=$((2 * n8q))
mkdir -p "$T/out"

prove "$d/circuit.zkey" "$d/witness.wtns" "$T/out/proof.json" "$T/out/public.json" --verify
expect_verify_ok "$vk" "$T/out/public.json" "$T/out/proof.json"
note "--verify with a good key: proof written and accepted"

key=$T/wrong.zkey
cp "$d/circuit.zkey" "$key"
read -r _ data len < <(section_at "$key" 8)
[ $((2 * g1)) -le "$len" ] || fail "the C section has fewer than two points"
dd if="$d/circuit.zkey" of="$key" bs=1 skip=$((data + g1)) seek="$data" count="$g1" \
  conv=notrunc status=none
cmp -s "$key" "$d/circuit.zkey" && fail "the copy is unchanged"

rm -f "$T/out/proof.json" "$T/out/public.json"
prove "$key" "$d/witness.wtns" "$T/out/proof.json" "$T/out/public.json"
expect_verify_rejects "$vk" "$T/out/public.json" "$T/out/proof.json"
note "the wrong key passes the point check and its proof is rejected by snarkjs"

rm -f "$T/out/proof.json" "$T/out/public.json"
expect_clean_failure "--verify with the wrong key" "$key" \
  prove --verify "$key" "$d/witness.wtns" "$T/out/proof.json" "$T/out/public.json"
grep -qF "does not verify with this key's own verification key" "$T/stderr" ||
  { show_run; fail "--verify: the error does not say the proof does not verify"; }
note "--verify with the wrong key: $(cat "$T/stderr")"

run_g16 prove --verify --repeat 3 --jobs 2 "$d/circuit.zkey" "$d/witness.wtns" \
  "$T/out/proof.json" "$T/out/public.json"
[ "$RC" = 0 ] || { show_run; fail "--verify --repeat 3 failed"; }
grep -q "proofs/s, each verified$" "$T/stderr" || { show_run; fail "--repeat --verify: no 'each verified' in the rate line"; }
expect_verify_ok "$vk" "$T/out/public.json" "$T/out/proof.json"
note "--verify --repeat 3 --jobs 2: $(tail -1 "$T/stderr")"
