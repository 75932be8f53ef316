#!/usr/bin/env bash
# graph_memory.sh: the witness graph counts against the circuit's memory
# limit (docs/witness-graph.md, Limits).  data/longvar.circom (compiled
# here with circom2) has a graph of about 12 MB and a calculator that
# starts with under 1 MB: under the default limit (64M at least) the
# graph computes its witness; under --witness-memory 1M it does not fit
# and the wasm computes the same witness, the path saying why; g16 info
# reports the graph.
. "$(dirname "$0")/lib.sh"
CIRCOM=$(dirname "$G16_SNARKJS")/circom2
[ -x "$CIRCOM" ] || { fail "circom2 not found at $CIRCOM (make deps)"; finish; }
cp "$WITNESS_DATA/longvar.circom" "$tmp/"
(cd "$tmp" && "$CIRCOM" longvar.circom --wasm --O0 -o "$tmp" >"$tmp/circom.log" 2>&1) ||
  { fail "circom2: $(cat "$tmp/circom.log")"; finish; }
wasm=$tmp/longvar_js/longvar.wasm
echo '{"x": 5}' >"$tmp/in.json"
mkdir -m 700 "$tmp/cache"
c=(--cache-dir "$tmp/cache")

"$G16" wtns calculate "${c[@]}" "$wasm" "$tmp/in.json" "$tmp/first.wtns" || fail "the first calculation"
"$G16" wtns calculate "${c[@]}" --verbose "$wasm" "$tmp/in.json" "$tmp/graph.wtns" 2>"$tmp/v1" ||
  fail "by the graph: $(cat "$tmp/v1")"
if grep -q "by the graph$" "$tmp/v1"; then echo "ok default limit: by the graph"
else fail "under the default limit: $(cat "$tmp/v1")"; fi
"$G16" wtns calculate "${c[@]}" --verbose --witness-memory 1M "$wasm" "$tmp/in.json" "$tmp/wasm.wtns" \
  2>"$tmp/v2" || fail "under 1M: $(cat "$tmp/v2")"
if grep -qE "by the wasm \(the graph needs [0-9]+ bytes, over the circuit's memory limit of 1048576\)$" "$tmp/v2"
then echo "ok --witness-memory 1M: $(sed 's/.*by the/by the/' "$tmp/v2")"
else fail "under 1M: $(cat "$tmp/v2")"; fi
cmp "$tmp/graph.wtns" "$tmp/wasm.wtns" || fail "the graph's witness differs from the wasm's"
cmp "$tmp/first.wtns" "$tmp/wasm.wtns" || fail "the first witness differs from the wasm's"
"$G16" info "${c[@]}" "$wasm" >"$tmp/info" || fail "g16 info: $(cat "$tmp/info")"
grep -qE "^witness path: graph \(from the cache: [0-9]{7,} bytes" "$tmp/info" || fail "g16 info: $(cat "$tmp/info")"
finish
