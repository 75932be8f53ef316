#!/bin/bash
# Packs what bench/witness/gpu_fullprove.sh needs on the GPU machine (no
# circom, wasm2c or snarkjs there) into .gpubin/w20.tar.xz: the 2^20 bench
# circuit's circuit.wasm, circuit.r1cs (its key is made there) and
# input.json, and the cache entries of its compiled calculator, tracer
# and witness graph, made here by two `g16 wtns calculate` runs.
#   usage: bash bench/witness/gpu_bundle.sh BUILD_DIR [K]   (K: 20)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
G16=${1:?usage: gpu_bundle.sh BUILD_DIR [K]}/bin/g16
K=${2:-20}
# shellcheck source=bench/common.sh
. "$REPO/bench/common.sh"
dir=$(circuit_dir "$K")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/cache" && chmod 700 "$tmp/cache"
for _ in 1 2; do
  "$G16" wtns calculate --verbose --cache-dir "$tmp/cache" "$dir/circuit.wasm" "$dir/input.json" "$tmp/w.wtns"
done
cmp "$tmp/w.wtns" "$dir/witness.wtns" || { echo "gpu_bundle: the witness differs from $dir/witness.wtns" >&2; exit 1; }
cp "$dir/circuit.wasm" "$dir/circuit.r1cs" "$dir/input.json" "$tmp/"
rm -f "$tmp/w.wtns"
mkdir -p "$REPO/.gpubin"
tar -cf - -C "$tmp" circuit.wasm circuit.r1cs input.json cache | xz -T2 -6 >"$REPO/.gpubin/w$K.tar.xz"
ls -la "$REPO/.gpubin/w$K.tar.xz" "$tmp/cache"
