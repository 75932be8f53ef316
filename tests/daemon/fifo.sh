#!/bin/bash
# A FIFO named where a file is expected never holds the daemon: a witness
# or key path naming one under --allow-dir is refused at once (400, "not a
# regular file"), many times over a small connection limit; a witness
# swapped for a FIFO after its job was accepted fails that partition when
# synthesis reaches it instead of blocking the worker; /v1/status answers
# throughout and SIGTERM still stops the daemon.
source "$(dirname "$0")/lib.sh"
start_daemon --memory-budget 1G --synth-workers 1 --threads 1 --max-connections 4
D=$FIX/bn128/chain
client keys load chain "$D/circuit.zkey" >/dev/null
mkfifo "$T/w.wtns" "$T/k.zkey"

# post PATH DATA: the status within 10 s (000: no answer: the request hung)
post() { api --max-time 10 -o "$T/last.json" -w '%{http_code}' -X POST --data-binary "$2" "http://d$1" || true; }
for i in $(seq 6); do              # more than --max-connections: a hung request would hold its slot
  got=$(post /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$T/w.wtns\"]}")
  [ "$got" = 400 ] || fail "FIFO witness, request $i: status $got, wanted 400 ($(cat "$T/last.json" 2>/dev/null))"
  grep -q "not a regular file" "$T/last.json" || fail "FIFO witness: unclear error: $(cat "$T/last.json")"
done
note "FIFO witness: $(cat "$T/last.json")"
got=$(post /v1/keys "{\"name\": \"f\", \"path\": \"$T/k.zkey\"}")
[ "$got" = 400 ] || fail "FIFO key: status $got, wanted 400"
grep -q "not a regular file" "$T/last.json" || fail "FIFO key: unclear error: $(cat "$T/last.json")"
api --max-time 5 -sf http://d/v1/status >/dev/null || fail "/v1/status does not answer after the FIFO requests"

# Accepted as a regular file, a FIFO by the time synthesis reads it: the
# one synthesis worker is busy with a higher-priority job meanwhile.
cp "$D/witness.wtns" "$T/late.wtns"
ws=(); for i in $(seq 20); do ws+=("$D/witness.wtns"); done
busy=$(client prove --key chain --priority 10 "${ws[@]}")
late=$(client prove --key chain "$T/late.wtns")
[ "$(api "http://d/v1/proofs/$late" | js o.state)" = queued ] || fail "the late job started before the swap"
rm "$T/late.wtns"
mkfifo "$T/late.wtns"
client wait "$busy" --timeout 120 >/dev/null || fail "the busy job did not finish"
api --max-time 60 "http://d/v1/proofs/$late?wait=30" >"$T/late.json"
[ "$(js o.state <"$T/late.json")" = failed ] || fail "a FIFO swapped in: job state $(js o.state <"$T/late.json"), wanted failed"
grep -q "not a regular file" "$T/late.json" || fail "the late job's error does not say why: $(cat "$T/late.json")"
note "FIFO at synthesis: $(js 'o.partitions[0].error' <"$T/late.json")"
api --max-time 5 -sf http://d/v1/status >/dev/null || fail "/v1/status does not answer"
stop_daemon
