#!/bin/bash
# Proofs from circom inputs: keys of both curves loaded with their circuit
# (compiled once into the state directory, from its cache after a
# restart), input.json files through `g16 client prove --input` to proofs
# that snarkjs verifies with the fixture's public signals; several inputs
# in one job, inputs as numbers, hex and negative values; a job of input
# partitions survives kill -9 (its inputs journaled) and finishes after
# the restart.
source "$(dirname "$0")/lib.sh"
start_daemon --memory-budget 1G --synth-workers 2

# load NAME DIR: the key with its circuit; the listing says it compiled.
load() {
  client keys load "$1" "$FIX/$2/circuit.zkey" --wasm "$FIX/$2/circuit.wasm" >"$T/key-$1.json" ||
    fail "loading $2 with its circuit"
  [ "$(js 'o.circuit && o.circuit.wasm' <"$T/key-$1.json")" = "$(realpath "$FIX/$2/circuit.wasm")" ] ||
    fail "$2: the listing does not name the wasm: $(cat "$T/key-$1.json")"
  [ "$(js 'o.circuit.witness_size === o.n_vars' <"$T/key-$1.json")" = true ] ||
    fail "$2: the circuit's witness size is not the key's variable count"
  [ "$(js 'o.circuit.memory_limit >= o.circuit.memory_start && o.circuit.memory_start > 0' \
      <"$T/key-$1.json")" = true ] || fail "$2: circuit memory sizes: $(cat "$T/key-$1.json")"
}

# same_json A B: the same JSON value.
same_json() {
  node -e 'const f=require("fs");const r=p=>JSON.stringify(JSON.parse(f.readFileSync(p,"utf8")));
           process.exit(r(process.argv[1])===r(process.argv[2])?0:1)' "$1" "$2"
}

for c in bn128/multiplier bn128/pubmany bls12381/pubmany; do
  name=${c//\//-}
  load "$name" "$c"
  [ "$(js o.circuit.compiled <"$T/key-$name.json")" = true ] || fail "$c: first load not compiled"
  client prove --key "$name" --wait --out "$T/$name" --input "$FIX/$c/input.json" >"$T/job.json" ||
    fail "$c: the job from input.json failed: $(cat "$T/job.json")"
  snarkjs_ok "$FIX/$c/verification_key.json" "$T/$name/public-0.json" "$T/$name/proof-0.json"
  same_json "$T/$name/public-0.json" "$FIX/$c/public.json" ||
    fail "$c: public signals differ from the fixture's"
  [ "$(js 'o.partitions[0].timings.witness_s > 0' <"$T/job.json")" = true ] ||
    fail "$c: no witness time in the partition's timings"
  note "$c: input.json -> proof verified by snarkjs"
done

# Several inputs, several partitions: values as numbers, hex strings and
# negative numbers (reduced modulo p, as snarkjs reads them).
M=bn128-multiplier
printf '{"a": 5, "b": "0x7"}' >"$T/in1.json"
printf '{"a": "-1", "b": 2}' >"$T/in2.json"
client prove --key "$M" --wait --out "$T/many" --input "$FIX/bn128/multiplier/input.json" \
  --input "$T/in1.json" "$T/in2.json" >"$T/job.json" || fail "a job of three inputs failed"
[ "$(js o.partitions_total <"$T/job.json")" = 3 ] || fail "three inputs did not make three partitions"
verify_dir "$FIX/bn128/multiplier/verification_key.json" "$T/many" 3
[ "$(js 'o[0]' <"$T/many/public-1.json")" = 35 ] || fail "5 * 0x7 is not 35: $(cat "$T/many/public-1.json")"
P_1=21888242871839275222246405745257275088548364400416034343698204186575808495615
[ "$(js 'o[0]' <"$T/many/public-2.json")" = "$P_1" ] || fail "-1 * 2 is not p - 2: $(cat "$T/many/public-2.json")"

# Witnesses keep working beside inputs, on the same key.
client prove --key "$M" --wait --out "$T/w" "$FIX/bn128/multiplier/witness.wtns" >/dev/null ||
  fail "a witness job on a key with a circuit failed"
verify_dir "$FIX/bn128/multiplier/verification_key.json" "$T/w" 1

# kill -9 with input partitions queued: the job comes back with its key
# and circuit (from the cache this time, not compiled) and finishes.
stop_daemon
start_daemon --memory-budget 1G --synth-workers 1
client keys list >"$T/keys.json"
[ "$(js 'o.keys.filter(k=>k.circuit&&k.circuit.compiled===false).length' <"$T/keys.json")" = 3 ] ||
  fail "after a restart the circuits were not loaded from the cache: $(cat "$T/keys.json")"
N=40
ins=(); for i in $(seq "$N"); do ins+=("$FIX/bn128/pubmany/input.json"); done
id=$(client prove --key bn128-pubmany --input "${ins[@]}")
n=$(client get "$id" | js o.partitions_done)
kill -9 "$PID"; wait "$PID" 2>/dev/null || true; PID=
[ "$n" -lt "$N" ] || fail "the job finished before the kill"
[ "$(ls "$STATE/inputs" | wc -l)" -ge 1 ] || fail "no input journaled in the state directory"
note "killed -9 with $n of $N input partitions done"
start_daemon --memory-budget 1G --synth-workers 2
grep -q "restored" "$LOG" || fail "no jobs restored"
client wait "$id" --timeout 150 --out "$T/r" >"$T/job.json" || fail "the input job did not complete after kill -9"
verify_dir "$FIX/bn128/pubmany/verification_key.json" "$T/r" "$N"
snarkjs_ok "$FIX/bn128/pubmany/verification_key.json" "$T/r/public-$((N - 1)).json" "$T/r/proof-$((N - 1)).json"
stop_daemon
