#!/bin/bash
# A witness graph per path in g16d (docs/witness-graph.md, Several paths):
# the witness tests' branch.circom (x = 0 and x != 0 take different
# branches), compiled here with a key.  The first job (x != 0) is the
# wasm's and builds the first graph; a job with x = 0 is the wasm's too
# (no graph's guards fit it) and builds the second, off the synthesis
# worker; the listing then counts two graphs, charged together to the
# key; later jobs of either branch are the graphs'; a failed assert
# builds nothing; after a restart both come from the cache.
source "$(dirname "$0")/lib.sh"
circom_key "$(dirname "$0")/../witness/data/branch.circom"
zkey_bytes=$(stat -c %s "$T/branch.zkey")
echo '{"x": "3", "y": "5"}' >"$T/three.json"
echo '{"x": "0", "y": "5"}' >"$T/zero.json"
echo '{"x": "0", "y": "7"}' >"$T/assert.json"
start_daemon --memory-budget 1G --synth-workers 1 --log-level debug
client keys load b "$T/branch.zkey" --wasm "$T/branch.wasm" >"$T/key.json" || fail "load: $(cat "$T/key.json")"
[ "$(js o.circuit.graphs <"$T/key.json")" = 0 ] || fail "graphs at load: $(cat "$T/key.json")"

# prove NAME INPUT PATH: one job, its partition's witness path PATH, verified
prove() {
  client prove --key b --wait --out "$T/$1" --input "$2" >"$T/$1.job" || fail "job $1: $(cat "$T/$1.job")"
  [ "$(js o.partitions[0].timings.witness_path <"$T/$1.job")" = "$3" ] ||
    fail "job $1's path, expected $3: $(cat "$T/$1.job")"
  verify_dir "$T/branch_vk.json" "$T/$1" 1
}
# graphs N: waits for the key's circuit to count N graphs
graphs() {
  for _ in $(seq 300); do
    client keys list >"$T/keys.json"
    [ "$(js 'o.keys[0].circuit.graphs' <"$T/keys.json")" = "$1" ] && return
    sleep 0.1
  done
  fail "not $1 graphs: $(cat "$T/keys.json")"
}

prove three "$T/three.json" wasm
graphs 1
gb1=$(js 'o.keys[0].circuit.graph_bytes' <"$T/keys.json")
prove zero "$T/zero.json" wasm
graphs 2
grep -q "key_graph key=b bytes=[0-9]* graphs=2" "$LOG" || fail "no key_graph event for the second graph"
gb2=$(js 'o.keys[0].circuit.graph_bytes' <"$T/keys.json")
[ "$gb1" -gt 0 ] && [ "$gb2" -gt "$gb1" ] || fail "graph_bytes $gb1, then $gb2"
[ "$(js 'o.keys[0].bytes' <"$T/keys.json")" = $((zkey_bytes + gb2)) ] ||
  fail "the key's bytes do not include both graphs' $gb2: $(cat "$T/keys.json")"
note "two graphs built: $gb1 then $gb2 bytes, charged to the key"
prove zero2 "$T/zero.json" graph
prove three2 "$T/three.json" graph
client prove --key b --wait --out "$T/assert" --input "$T/assert.json" >"$T/assert.job" 2>&1 &&
  fail "a failed assert proved: $(cat "$T/assert.job")"
sleep 0.5
client keys list >"$T/keys.json"
[ "$(js 'o.keys[0].circuit.graphs' <"$T/keys.json")" = 2 ] || fail "graphs after the assert: $(cat "$T/keys.json")"
[ "$(grep -c "key_graph" "$LOG")" = 2 ] || fail "graph builds: $(grep key_graph "$LOG")"

stop_daemon
start_daemon --memory-budget 1G --synth-workers 1
client keys list >"$T/keys.json"
[ "$(js 'o.keys[0].circuit.graphs' <"$T/keys.json")" = 2 ] ||
  fail "after a restart the graphs are not the cache's: $(cat "$T/keys.json")"
gb=$(js 'o.keys[0].circuit.graph_bytes' <"$T/keys.json")
[ "$gb" -gt 0 ] && [ "$(js 'o.keys[0].bytes' <"$T/keys.json")" = $((zkey_bytes + gb)) ] ||
  fail "after a restart the key's bytes: $(cat "$T/keys.json")"
prove zero3 "$T/zero.json" graph
prove three3 "$T/three.json" graph
stop_daemon
note "ok"
