#!/usr/bin/env bash
# Gas of verifyProof: g16's verifier contract against snarkjs's, on every
# BN254 fixture, both run by tests/e2e/solidity_evm.mjs (solc and
# @ethereumjs/evm from tools/, each call priced as a transaction of its
# own) with the same g16 proof.  Gas is set by the EVM's rules, not by
# the machine.
#   bench/solidity/gas.sh [BUILD_DIR]     (default build)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
g16=$root/${1:-build}/bin/g16
snarkjs=$root/tools/node_modules/.bin/snarkjs
fixtures=${G16_FIXTURES:-$root/../shared/fixtures}
work=$(mktemp -d "${TMPDIR:-/tmp}/g16-gas.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$g16" ] || { echo "gas.sh: no g16 at $g16 (build it first)" >&2; exit 1; }

g16_args=() snarkjs_args=()
for d in "$fixtures"/bn128/*/; do
  d=${d%/}
  name=$(basename "$d")
  mkdir -p "$work/g16/$name" "$work/snarkjs/$name"
  "$g16" prove "$d/circuit.zkey" "$d/witness.wtns" "$work/proof.json" "$work/public.json" >/dev/null
  for who in g16 snarkjs; do
    "$g16" export soliditycalldata "$work/public.json" "$work/proof.json" >"$work/$who/$name/g16.calldata"
    "$g16" export soliditycalldata "$d/public.json" "$d/proof.json" >"$work/$who/$name/ref.calldata"
  done
  "$g16" export solidityverifier "$d/verification_key.json" "$work/g16/$name/Verifier.sol"
  "$snarkjs" zkey export solidityverifier "$d/circuit.zkey" "$work/snarkjs/$name/Verifier.sol" >/dev/null
  g16_args+=("$name=$work/g16/$name")
  snarkjs_args+=("$name=$work/snarkjs/$name")
done
echo "== g16 export solidityverifier"
node "$root/tests/e2e/solidity_evm.mjs" "$root/tools" "${g16_args[@]}"
echo "== snarkjs zkey export solidityverifier ($("$snarkjs" --version 2>/dev/null | head -1 || true))"
node "$root/tests/e2e/solidity_evm.mjs" "$root/tools" "${snarkjs_args[@]}"
