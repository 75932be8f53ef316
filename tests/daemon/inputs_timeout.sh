#!/bin/bash
# A witness calculation past --witness-timeout fails its partition with
# the library's message (the wasm and the limit) while the job's other
# partitions prove and verify; synthesis workers that were stuck in a
# loop are free again, and the daemon keeps serving.  The circuit is the
# witness tests' loop.circom (never ends for an odd x), compiled here.
source "$(dirname "$0")/lib.sh"
"$G16D" --help >"$T/help.txt"
grep -q -- '--witness-timeout SECONDS' "$T/help.txt" || fail "g16d --help: no --witness-timeout"
grep -q 'Default 600; 0: no limit' "$T/help.txt" || fail "g16d --help: no default for --witness-timeout"
circom_key "$(dirname "$0")/../witness/data/loop.circom"
shared_circuits
start_daemon --memory-budget 1G --synth-workers 2 --witness-timeout 1
client keys load loop "$T/loop.zkey" --wasm "$T/loop.wasm" >"$T/key.json"
[ "$(js o.circuit.time_limit <"$T/key.json")" = 1 ] ||
  fail "--witness-timeout 1 not applied: $(js o.circuit <"$T/key.json")"
for x in 10 4 7 9; do echo "{\"x\": $x, \"y\": 3}" >"$T/in$x.json"; done

# One looping input among good ones.
id=$(client prove --key loop --input "$T/in10.json" "$T/in7.json" "$T/in4.json" "$T/in10.json")
client wait "$id" --timeout 120 --out "$T/one" >"$T/job.json" && fail "a job with a looping input succeeded"
[ "$(js 'o.partitions.map(p=>p.state).join()' <"$T/job.json")" = done,failed,done,done ] ||
  fail "partition states: $(js 'o.partitions.map(p=>p.state).join()' <"$T/job.json")"
e=$(js o.partitions[1].error <"$T/job.json")
note "timeout: $e"
[[ "$e" == *"$T/loop.wasm: the witness calculation ran past its time limit of 1 s"* ]] ||
  fail "timeout error: $e"
for i in 0 2 3; do snarkjs_ok "$T/loop_vk.json" "$T/one/public-$i.json" "$T/one/proof-$i.json"; done

# Both synthesis workers loop at once; both come back for the good input.
id=$(client prove --key loop --input "$T/in7.json" "$T/in9.json" "$T/in4.json")
client wait "$id" --timeout 120 --out "$T/two" >"$T/job.json" && fail "a job of looping inputs succeeded"
[ "$(js 'o.partitions.map(p=>p.state).join()' <"$T/job.json")" = failed,failed,done ] ||
  fail "partition states: $(js 'o.partitions.map(p=>p.state).join()' <"$T/job.json")"
snarkjs_ok "$T/loop_vk.json" "$T/two/public-2.json" "$T/two/proof-2.json"

# The daemon goes on: a good job after the timeouts.
client prove --key loop --wait --out "$T/after" --input "$T/in4.json" "$T/in10.json" >/dev/null ||
  fail "a job after the timeouts"
verify_dir "$T/loop_vk.json" "$T/after" 2
stop_daemon
