#!/usr/bin/env bash
# tamper.sh CURVE CIRCUIT: a g16 proof verifies; with one digit changed (in
# pi_a, pi_b or pi_c) or one digit of a public signal changed it fails.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_snarkjs
d=$(fixture "$1" "$2")
vk=$d/verification_key.json
mkdir -p "$T/out"
prove "$d/circuit.zkey" "$d/witness.wtns" "$T/out/proof.json" "$T/out/public.json"
expect_verify_ok "$vk" "$T/out/public.json" "$T/out/proof.json"
for field in pi_a pi_b pi_c; do
  tamper_digit "$T/out/proof.json" "$T/bad.json" "$field"
  expect_verify_rejects "$vk" "$T/out/public.json" "$T/bad.json"
  note "one digit changed in $field: rejected"
done
tamper_digit "$T/out/public.json" "$T/badpub.json"
expect_verify_rejects "$vk" "$T/badpub.json" "$T/out/proof.json"
note "one digit changed in a public signal: rejected"
