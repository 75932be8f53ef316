#!/usr/bin/env bash
# The main job end to end on the bundled examples: prove each examples/*/
# with build/bin/g16 from its witness, then through the daemon from its
# input.json (g16d on a temporary socket: the key loaded with its circuit,
# the input submitted, the proof fetched), and verify every proof with
# snarkjs.
# Usage: scripts/demo.sh [BUILD_DIR]   (default: build; run `make` first)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
g16=$build/bin/g16
g16d=$build/bin/g16d
snarkjs=$root/tools/node_modules/.bin/snarkjs
[ -x "$g16" ] || { echo "demo: $g16 not found: run make" >&2; exit 1; }
[ -x "$g16d" ] || { echo "demo: $g16d not found: run make (it needs make deps)" >&2; exit 1; }
[ -x "$snarkjs" ] || { echo "demo: $snarkjs not found: run make deps" >&2; exit 1; }

# g16d on a socket and state directory of its own, stopped on exit.
tmp=$(mktemp -d /tmp/g16-demo.XXXXXX)
pid=
stop() {
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap stop EXIT
client() { "$g16" client --socket "$tmp/g16d.sock" "$@"; }
start_daemon() {
  "$g16d" --socket "$tmp/g16d.sock" --state-dir "$tmp/state" --allow-dir "$root/examples" \
    --memory-budget 1G >"$tmp/g16d.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    client status >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "demo: g16d did not start:" >&2
  cat "$tmp/g16d.log" >&2
  exit 1
}

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

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
  echo "proved in $(ms_since "$start") ms -> $out/proof.json"
  echo "public signals: $(tr -d ' \n' < "$out/public.json")"
  "$snarkjs" groth16 verify "$ex/verification_key.json" "$out/public.json" "$out/proof.json"
  n=$((n + 1))
  [ -f "$ex/circuit.wasm" ] || continue
  [ -n "$pid" ] || start_daemon
  echo "-- through g16d, from $name/input.json"
  start=$(date +%s%N)
  client keys load "$name" "$ex/circuit.zkey" --wasm "$ex/circuit.wasm" >/dev/null
  echo "key and circuit loaded in $(ms_since "$start") ms (the circuit compiled to native code)"
  start=$(date +%s%N)
  client prove --key "$name" --wait --out "$out/g16d" --input "$ex/input.json" >/dev/null
  echo "witness and proof in $(ms_since "$start") ms -> $out/g16d/proof-0.json"
  echo "public signals: $(tr -d ' \n' < "$out/g16d/public-0.json")"
  "$snarkjs" groth16 verify "$ex/verification_key.json" "$out/g16d/public-0.json" "$out/g16d/proof-0.json"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "demo: no examples found under $root/examples" >&2; exit 1; }
echo "demo: $n proof(s) made by g16 and g16d and verified by snarkjs"
