#!/usr/bin/env bash
# The main job end to end on the bundled examples: prove each examples/*/
# with build/bin/g16, then verify the proof with snarkjs.
# Usage: scripts/demo.sh [BUILD_DIR]   (default: build; run `make` first)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
g16=$build/bin/g16
snarkjs=$root/tools/node_modules/.bin/snarkjs
[ -x "$g16" ] || { echo "demo: $g16 not found: run make" >&2; exit 1; }
[ -x "$snarkjs" ] || { echo "demo: $snarkjs not found: run make deps" >&2; exit 1; }

n=0
for ex in "$root"/examples/*/; do
  ex=${ex%/}
  [ -f "$ex/circuit.zkey" ] || continue
  name=$(basename "$ex")
  out=$build/demo/$name
  rm -rf "$out" && mkdir -p "$out"
  echo "== $name"
  start=$(date +%s%N)
  "$g16" prove "$ex/circuit.zkey" "$ex/witness.wtns" "$out/proof.json" "$out/public.json"
  end=$(date +%s%N)
  echo "proved in $(( (end - start) / 1000000 )) ms -> $out/proof.json"
  echo "public signals: $(tr -d ' \n' < "$out/public.json")"
  "$snarkjs" groth16 verify "$ex/verification_key.json" "$out/public.json" "$out/proof.json"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "demo: no examples found under $root/examples" >&2; exit 1; }
echo "demo: $n proof(s) made by g16 and verified by snarkjs"
