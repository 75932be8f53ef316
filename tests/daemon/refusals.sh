#!/bin/bash
# The daemon's failure kinds as HTTP statuses (d_http_status): a job whose
# partition could never fit the memory budget beside its key is a
# permanent refusal, 413 (as a body that could never fit is), not the 507
# that says "no room now, try later"; so is a key larger than the budget.
source "$(dirname "$0")/lib.sh"
D=$FIX/bn128/chain
KEY=$(stat -c %s "$D/circuit.zkey")
start_daemon --memory-budget 1G
client keys load chain "$D/circuit.zkey" >"$T/key.json"
PART=$(js o.partition_bytes <"$T/key.json")
stop_daemon
rm -rf "$STATE"
# room for the key and half a partition: the key loads, no job ever fits
start_daemon --memory-budget $((KEY + PART / 2))
client keys load chain "$D/circuit.zkey" >/dev/null
expect 413 "beside the key" POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$D/witness.wtns\"]}"
[ "$(client status | js o.jobs.total)" = 0 ] || fail "the refused job was listed"
stop_daemon
rm -rf "$STATE"
# a key larger than the whole budget: no eviction would ever make room
start_daemon --memory-budget $((KEY / 2))
expect 413 "more than the whole" POST /v1/keys "{\"name\": \"chain\", \"path\": \"$D/circuit.zkey\"}"
[ "$(client keys list | js 'o.keys.length')" = 0 ] || fail "the refused key was listed"
stop_daemon
