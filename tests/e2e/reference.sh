#!/usr/bin/env bash
# reference.sh: checks the harness itself, without g16: every fixture's
# reference proof verifies with snarkjs and fails once one digit of it (or of
# its public signals) is changed, and the JSON helpers agree with themselves.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_snarkjs
n=0
for zkey in "$G16_FIXTURES"/*/*/circuit.zkey; do
  [ -f "$zkey" ] || continue
  d=$(dirname "$zkey")
  curve=$(basename "$(dirname "$d")") circuit=$(basename "$d")
  fixture "$curve" "$circuit" >/dev/null
  check_proof_shape "$d/proof.json" "$curve" || fail "reference proof of $curve/$circuit has an unexpected shape"
  json_same "$d/public.json" "$d/public.json" || fail "json_same: $d/public.json differs from itself"
  expect_verify_ok "$d/verification_key.json" "$d/public.json" "$d/proof.json"
  tamper_digit "$d/proof.json" "$T/proof.json" pi_c
  expect_verify_rejects "$d/verification_key.json" "$d/public.json" "$T/proof.json"
  n=$((n + 1))
  note "$curve/$circuit: reference verifies, tampered reference is rejected"
done
[ "$n" -gt 0 ] || fail "no fixtures under $G16_FIXTURES"
# A public input changed by one digit must be rejected as well.
d=$(fixture bn128 multiplier)
tamper_digit "$d/public.json" "$T/public.json"
json_same "$d/public.json" "$T/public.json" && fail "json_same: tampered public.json compares equal"
expect_verify_rejects "$d/verification_key.json" "$T/public.json" "$d/proof.json"
# pi_a changed by one digit (off the curve) is rejected.
tamper_digit "$d/proof.json" "$T/proof.json" pi_a
expect_verify_rejects "$d/verification_key.json" "$d/public.json" "$T/proof.json"
# A proof for another circuit is rejected.
o=$(fixture bn128 pubmany)
expect_verify_rejects "$d/verification_key.json" "$d/public.json" "$o/proof.json"
note "harness checked on $n fixtures"
