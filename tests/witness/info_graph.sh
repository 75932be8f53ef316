#!/usr/bin/env bash
# info_graph.sh: `g16 info CIRCUIT.wasm` says the circuit's witness path:
# wasm (and why) before any calculation made its graph, graph once one is
# in the cache, and why not when the cached graph was damaged.
. "$(dirname "$0")/lib.sh"
dir=$G16_FIXTURES/bn128/multiplier
cache=$tmp/cache
mkdir -m 700 "$cache"
info() { "$G16" info --cache-dir "$cache" "$dir/circuit.wasm" >"$tmp/info" 2>&1 || fail "g16 info: $(cat "$tmp/info")"; }
expect() {
  if grep -qF -- "$2" "$tmp/info"; then echo "ok $1: $(grep 'witness path' "$tmp/info")"
  else fail "$1: expected '$2' in: $(cat "$tmp/info")"; fi
}

info
expect "before any calculation" "witness path: wasm (no graph yet (one is made after the first calculation))"
expect "its witness size" "nWitness:     4"
expect "compiled" "compiled:     now"
"$G16" wtns calculate --cache-dir "$cache" "$dir/circuit.wasm" "$dir/input.json" "$tmp/w.wtns" >/dev/null
info
expect "after the first calculation" "witness path: graph (from the cache: "
expect "from the cache" "compiled:     from the cache"
for g in "$cache"/*.wgraph; do printf 'damaged' | dd of="$g" bs=1 seek=40 conv=notrunc status=none; done
info
expect "a damaged graph" "witness path: wasm (the cached graph was refused ("
# a .zkey beside it is still read as before
"$G16" info --cache-dir "$cache" "$dir/circuit.zkey" | grep -q "type:         zkey" || fail "zkey info"
finish
