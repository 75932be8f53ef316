#!/usr/bin/env bash
# graph_paths_memory.sh: a circuit's witness graphs count against its
# memory limit together (docs/witness-graph.md, Several paths).
# data/pathsmem.circom (compiled here with circom2): x = 0 and x != 0
# each have a graph of megabytes.  Under a --witness-memory that holds
# one graph but not two, x = 0 makes no second graph (x != 0 stays the
# first graph's); made without the limit, the second is not used under
# it (the path says why) while the first still is; every witness is the
# wasm's.
. "$(dirname "$0")/lib.sh"
CIRCOM=$(dirname "$G16_SNARKJS")/circom2
[ -x "$CIRCOM" ] || { fail "circom2 not found at $CIRCOM (make deps)"; finish; }
cp "$WITNESS_DATA/pathsmem.circom" "$tmp/"
(cd "$tmp" && "$CIRCOM" pathsmem.circom --wasm --O0 -o "$tmp" >"$tmp/circom.log" 2>&1) ||
  { fail "circom2: $(cat "$tmp/circom.log")"; finish; }
wasm=$tmp/pathsmem_js/pathsmem.wasm
echo '{"x": "3"}' >"$tmp/three.json"
echo '{"x": "0"}' >"$tmp/zero.json"
mkdir -m 700 "$tmp/cache"
c=(--cache-dir "$tmp/cache")
calc() { # NAME INPUT WANT [OPTIONS...]: the --verbose line matches WANT
  local name=$1 in=$2 want=$3; shift 3
  "$G16" wtns calculate "${c[@]}" --verbose "$@" "$wasm" "$tmp/$in.json" "$tmp/$name.wtns" \
    2>"$tmp/$name.err" || { fail "$name: $(cat "$tmp/$name.err")"; return; }
  if grep -qE -- "$want" "$tmp/$name.err"; then echo "ok $name: $(sed 's/.*tools [^;]*; //' "$tmp/$name.err")"
  else fail "$name: expected /$want/ in: $(cat "$tmp/$name.err")"; fi
}

calc three three '; 1 witness graph\), .* by the wasm \(no graph yet'
"$G16" info "${c[@]}" "$wasm" >"$tmp/info" || fail "g16 info: $(cat "$tmp/info")"
one=$(sed -n 's/^witness path: graph (from the cache: \([0-9]*\) bytes.*/\1/p' "$tmp/info")
[ -n "$one" ] && [ "$one" -gt 1048576 ] || { fail "the first graph's bytes: $(cat "$tmp/info")"; finish; }
# room for one graph and its evaluation, not for two
limit=(--witness-memory "$(((one + 1048576) / 1024))K")
calc zero_limited zero '; 1 witness graph\), .* by the wasm \(a guard' "${limit[@]}"
calc three_limited three '; 1 witness graph\), .* by the graph$' "${limit[@]}"
calc zero zero '; 2 witness graphs\), .* by the wasm \(a guard'
calc zero_graph zero '; 2 witness graphs\), .* by the graph$'
calc zero_over zero "; 2 witness graphs\), .* by the wasm \(a guard .*; 1 of the 2 graphs \(other paths'\) do not fit: they need [0-9]+ bytes with the first 1, over the circuit's memory limit of [0-9]+\)$" "${limit[@]}"
calc three_over three '; 2 witness graphs\), .* by the graph$' "${limit[@]}"
for w in zero_limited zero_graph zero_over; do cmp "$tmp/zero.wtns" "$tmp/$w.wtns" || fail "$w differs from the wasm's"; done
for w in three_limited three_over; do cmp "$tmp/three.wtns" "$tmp/$w.wtns" || fail "$w differs from the wasm's"; done
finish
