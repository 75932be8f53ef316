#!/bin/bash
# The witness graph in g16d (docs/witness-graph.md): a key loaded with a
# circuit that has no graph yet lists its witness path as the wasm's and
# why; its first job's witness is the wasm's (the partition's timings and
# the witness_computed log event say so) and the job does not wait for
# the graph, which a thread of its own builds after it (key_graph); the
# listing then says graph and the key's bytes include the graph's; the
# next job's witness is the graph's; after a restart the key's circuit
# has its graph from the cache at load, charged to the key.
source "$(dirname "$0")/lib.sh"
start_daemon --memory-budget 1G --synth-workers 1 --log-level debug
C=$FIX/bn128/multiplier
zkey_bytes=$(stat -c %s "$C/circuit.zkey")

client keys load m "$C/circuit.zkey" --wasm "$C/circuit.wasm" >"$T/key.json" || fail "load: $(cat "$T/key.json")"
[ "$(js o.circuit.witness_path <"$T/key.json")" = wasm ] || fail "a new circuit's path: $(cat "$T/key.json")"
js o.circuit.witness_path_why <"$T/key.json" | grep -qF "no graph yet" ||
  fail "no reason for the wasm's path: $(cat "$T/key.json")"
[ "$(js o.bytes <"$T/key.json")" = "$zkey_bytes" ] || fail "bytes before the graph: $(cat "$T/key.json")"
note "loaded: path $(js o.circuit.witness_path <"$T/key.json") ($(js o.circuit.witness_path_why <"$T/key.json"))"

client prove --key m --wait --out "$T/p1" --input "$C/input.json" >"$T/job1.json" || fail "the first job: $(cat "$T/job1.json")"
[ "$(js o.partitions[0].timings.witness_path <"$T/job1.json")" = wasm ] ||
  fail "the first partition's path: $(cat "$T/job1.json")"
grep -q "witness_computed .*path=wasm" "$LOG" || fail "no witness_computed event with path=wasm"
verify_dir "$C/verification_key.json" "$T/p1" 1

# the graph is built off the synthesis worker, after the job
for _ in $(seq 300); do
  client keys list >"$T/keys.json"
  [ "$(js 'o.keys[0].circuit.witness_path' <"$T/keys.json")" = graph ] && break
  sleep 0.1
done
[ "$(js 'o.keys[0].circuit.witness_path' <"$T/keys.json")" = graph ] || fail "no graph built: $(cat "$T/keys.json")"
grep -q "key_graph key=m bytes=" "$LOG" || fail "no key_graph event"
done_line=$(grep -n "partition_done" "$LOG" | head -1 | cut -d: -f1)
graph_line=$(grep -n "key_graph key=m" "$LOG" | head -1 | cut -d: -f1)
[ "$done_line" -lt "$graph_line" ] || fail "the first job waited for the graph (line $done_line after $graph_line)"
gb=$(js 'o.keys[0].circuit.graph_bytes' <"$T/keys.json")
[ "$gb" -gt 0 ] || fail "graph_bytes $gb"
[ "$(js 'o.keys[0].bytes' <"$T/keys.json")" = $((zkey_bytes + gb)) ] ||
  fail "the key's bytes do not include the graph's $gb: $(cat "$T/keys.json")"
note "graph built after the first job: $gb bytes, charged to the key"

client prove --key m --wait --out "$T/p2" --input "$C/input.json" >"$T/job2.json" || fail "the second job"
[ "$(js o.partitions[0].timings.witness_path <"$T/job2.json")" = graph ] ||
  fail "the second partition's path: $(cat "$T/job2.json")"
grep -q "witness_computed .*path=graph" "$LOG" || fail "no witness_computed event with path=graph"
verify_dir "$C/verification_key.json" "$T/p2" 1

stop_daemon
start_daemon --memory-budget 1G --synth-workers 1
client keys list >"$T/keys.json"
[ "$(js 'o.keys[0].circuit.witness_path' <"$T/keys.json")" = graph ] ||
  fail "after a restart the graph is not the cache's: $(cat "$T/keys.json")"
# (the cache's graph, mapped, has no nodes beside its plan: fewer bytes)
gb=$(js 'o.keys[0].circuit.graph_bytes' <"$T/keys.json")
[ "$gb" -gt 0 ] && [ "$(js 'o.keys[0].bytes' <"$T/keys.json")" = $((zkey_bytes + gb)) ] ||
  fail "after a restart the key's bytes: $(cat "$T/keys.json")"
client prove --key m --wait --out "$T/p3" --input "$C/input.json" >"$T/job3.json" || fail "the third job"
[ "$(js o.partitions[0].timings.witness_path <"$T/job3.json")" = graph ] ||
  fail "after a restart the path: $(cat "$T/job3.json")"
stop_daemon
note "ok"
