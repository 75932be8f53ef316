#!/bin/bash
# Bad inputs and circuits get a clear 4xx at submission (or key load)
# naming the problem: a key without a circuit, unknown, missing and
# wrongly sized signals, bad values, malformed JSON, a circuit of the
# other curve or of another circuit, a wasm that is no circom calculator.
# What only running the circuit can tell (a failed assert, runaway
# recursion, memory beyond --witness-memory) fails that partition with
# the circuit's own words while the job's other partitions, and other
# jobs, go on.
source "$(dirname "$0")/lib.sh"
shared_circuits
start_daemon --memory-budget 1G --synth-workers 2 --witness-memory 4M
M=$FIX/bn128/multiplier
PM=$FIX/bn128/pubmany
client keys load plain "$M/circuit.zkey" >/dev/null
client keys load pm "$PM/circuit.zkey" --wasm "$PM/circuit.wasm" >/dev/null
good='{"pub": [1, 2, 3, 4, 5], "key": "7"}'
expect 400 "no circuit" POST /v1/proofs '{"key": "plain", "inputs": [{"a": 1, "b": 2}]}'
expect 400 "unknown signal 'x'" POST /v1/proofs '{"key": "pm", "inputs": [{"pub": [1, 2, 3, 4, 5], "x": 1}]}'
expect 400 "'pub' has 4 values" POST /v1/proofs '{"key": "pm", "inputs": [{"pub": [1, 2, 3, 4], "key": 1}]}'
expect 400 "missing" POST /v1/proofs '{"key": "pm", "inputs": [{"pub": [1, 2, 3, 4, 5]}]}'
expect 400 "input 1" POST /v1/proofs "{\"key\": \"pm\", \"inputs\": [$good, {\"pub\": 1, \"key\": 2}]}"
expect 400 "pub" POST /v1/proofs '{"key": "pm", "inputs": [{"pub": [1, 2, "x3", 4, 5], "key": 1}]}'
expect 400 "malformed JSON" POST /v1/proofs '{"key": "pm", "inputs": [{'
expect 400 "object" POST /v1/proofs '{"key": "pm", "inputs": [[1, 2]]}'
expect 400 "not both" POST /v1/proofs "{\"key\": \"pm\", \"inputs\": [$good], \"witnesses\": [\"$PM/witness.wtns\"]}"
expect 400 "inputs" POST /v1/proofs '{"key": "pm", "inputs": []}'
expect 404 "no key named" POST /v1/proofs "{\"key\": \"nope\", \"inputs\": [$good]}"
[ -z "$(ls "$STATE/inputs")" ] || fail "refused inputs were left in the state directory: $(ls "$STATE/inputs")"
# Circuits that do not fit their key are refused, and nothing is loaded.
expect 400 "bls12381" POST /v1/keys "{\"name\": \"c1\", \"path\": \"$PM/circuit.zkey\", \"wasm\": \"$FIX/bls12381/pubmany/circuit.wasm\"}"
expect 400 "witness has" POST /v1/keys "{\"name\": \"c2\", \"path\": \"$PM/circuit.zkey\", \"wasm\": \"$M/circuit.wasm\"}"
head -c 3000 "$M/circuit.wasm" >"$T/trunc.wasm"
expect 400 "trunc.wasm" POST /v1/keys "{\"name\": \"c3\", \"path\": \"$M/circuit.zkey\", \"wasm\": \"$T/trunc.wasm\"}"
expect 403 "allowed" POST /v1/keys "{\"name\": \"c4\", \"path\": \"$M/circuit.zkey\", \"wasm\": \"/etc/hostname\"}"
expect 400 "absolute" POST /v1/keys "{\"name\": \"c5\", \"path\": \"$M/circuit.zkey\", \"wasm\": \"circuit.wasm\"}"
expect 400 "wasm" POST /v1/keys "{\"name\": \"c6\", \"path\": \"$M/circuit.zkey\", \"wasm\": 5}"
[ "$(client keys list | js 'o.keys.map(k=>k.name).sort().join()')" = plain,pm ] ||
  fail "a refused key was loaded: $(client keys list)"
# Loading the same key again with another circuit is a conflict.
expect 409 "another circuit" POST /v1/keys "{\"name\": \"plain\", \"path\": \"$M/circuit.zkey\", \"wasm\": \"$M/circuit.wasm\"}"

# The circuit's own failures, at synthesis: the tests' check circuit
# (asserts a < 10, recurses d deep), compiled here with a key made here
# (--O0: its unconstrained output stays a wire, which g16 setup needs).
circom_key "$(dirname "$0")/../witness/data/check.circom"
client keys load check "$T/check.zkey" --wasm "$T/check.wasm" >/dev/null
echo '{"a": 3, "b": [[1, 2], [3, 4]], "d": 2}' >"$T/ok.json"
echo '{"a": 12, "b": [[1, 2], [3, 4]], "d": 1}' >"$T/assert.json"
echo '{"a": 1, "b": [[1, 2], [3, 4]], "d": 1000000}' >"$T/deep.json"
id=$(client prove --key check --input "$T/ok.json" "$T/assert.json" "$T/deep.json" "$T/ok.json")
client wait "$id" --timeout 120 --out "$T/check" >"$T/job.json" && fail "a job with failing inputs succeeded"
[ "$(js o.state <"$T/job.json")" = failed ] || fail "job state $(js o.state <"$T/job.json")"
[ "$(js 'o.partitions.map(p=>p.state).join()' <"$T/job.json")" = done,failed,failed,done ] ||
  fail "partition states: $(js 'o.partitions.map(p=>p.state).join()' <"$T/job.json")"
e1=$(js o.partitions[1].error <"$T/job.json")
e2=$(js o.partitions[2].error <"$T/job.json")
note "assert: $e1"
note "recursion: $e2"
[[ "$e1" == *"assert failed"*"Error in template Check_0 line: 19"* ]] || fail "assert error: $e1"
[[ "$e2" == *"check.wasm"* ]] || fail "the recursion error does not name the circuit: $e2"
for i in 0 3; do
  snarkjs_ok "$T/check_vk.json" "$T/check/public-$i.json" "$T/check/proof-$i.json"
done
# The calculator's memory is capped: d = 100 needs more than 4 MiB and
# fails (out of memory, not beyond the reservation), d = 10 fits.
circom_key "$(dirname "$0")/data/grow.circom"
client keys load grow "$T/grow.zkey" --wasm "$T/grow.wasm" >"$T/grow.json"
[ "$(js o.circuit.memory_limit <"$T/grow.json")" = $((4 << 20)) ] || fail "--witness-memory 4M not applied"
echo '{"d": 10, "a": 3}' >"$T/small.json"
echo '{"d": 100, "a": 3}' >"$T/big.json"
id=$(client prove --key grow --input "$T/small.json" "$T/big.json")
client wait "$id" --timeout 120 >"$T/job.json" && fail "a job beyond --witness-memory succeeded"
[ "$(js 'o.partitions.map(p=>p.state).join()' <"$T/job.json")" = done,failed ] ||
  fail "grow partition states: $(js 'o.partitions.map(p=>p.state).join()' <"$T/job.json")"
e3=$(js o.partitions[1].error <"$T/job.json")
note "memory cap: $e3"
[[ "$e3" == *"grow.wasm: not enough memory"* ]] || fail "memory cap error: $e3"
# The daemon goes on: a good job after the failures.
client prove --key pm --wait --out "$T/after" --input "$PM/input.json" >/dev/null || fail "a job after the failures"
verify_dir "$PM/verification_key.json" "$T/after" 1
stop_daemon
