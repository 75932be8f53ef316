#!/bin/bash
# Health and drain (GET /v1/health, POST/DELETE /v1/drain, SIGTERM): a
# ready daemon says so with 200; draining, it refuses submissions with
# 503 and a clear message, health says draining (503), and the jobs it
# holds still finish; DELETE /v1/drain resumes.  SIGTERM drains: with a
# job running, the daemon finishes it (queued partitions too) before it
# exits, so right after a restart the job is there, done.
source "$(dirname "$0")/lib.sh"
D=$FIX/bn128/chain
start_daemon --memory-budget 1G --synth-workers 1 --threads 1
[ "$(code GET /v1/health)" = 200 ] || fail "health of a ready daemon: $(cat "$T/last.json")"
[ "$(js o.state <"$T/last.json")" = ready ] || fail "health: $(cat "$T/last.json")"
client keys load chain "$D/circuit.zkey" >/dev/null
ws=(); for i in $(seq 12); do ws+=("$D/witness.wtns"); done
id=$(client prove --key chain "${ws[@]}")
[ "$(code POST /v1/drain)" = 200 ] || fail "POST /v1/drain: $(cat "$T/last.json")"
expect 503 "draining" POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$D/witness.wtns\"]}"
[ "$(code GET /v1/health)" = 503 ] || fail "health while draining: $(cat "$T/last.json")"
[ "$(js o.state <"$T/last.json")" = draining ] || fail "health while draining: $(cat "$T/last.json")"
note "health while draining: $(cat "$T/last.json")"
[ "$(client status | js o.state)" = draining ] || fail "the status listing does not say draining"
client wait "$id" --timeout 120 --out "$T/a" >"$T/a.json" || fail "the accepted job did not finish while draining"
[ "$(js o.partitions_done <"$T/a.json")" = 12 ] || fail "drained job: $(cat "$T/a.json")"
verify_dir "$D/verification_key.json" "$T/a" 12
[ "$(code DELETE /v1/drain)" = 200 ] || fail "DELETE /v1/drain: $(cat "$T/last.json")"
[ "$(code GET /v1/health)" = 200 ] || fail "health after resuming: $(cat "$T/last.json")"
[ "$(code POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$D/witness.wtns\"]}")" = 202 ] ||
  fail "a submission after resuming: $(cat "$T/last.json")"

note "SIGTERM with a job running: drained, then exit"
# 10 partitions: one started, nine still queued when SIGTERM comes
ws=(); for i in $(seq 10); do ws+=("$D/witness.wtns"); done
id2=$(client prove --key chain "${ws[@]}")
for _ in $(seq 100); do
  [ "$(api "http://d/v1/proofs/$id2" | js 'o.partitions.filter(p=>p.state!=="queued").length')" -gt 0 ] && break
  sleep 0.05
done
kill -TERM "$PID"
sleep 0.2
# still serving while it drains: health says so, submissions are refused
[ "$(code GET /v1/health)" = 503 ] || fail "health after SIGTERM: $(cat "$T/last.json")"
grep -q SIGTERM "$T/last.json" || fail "health does not say SIGTERM: $(cat "$T/last.json")"
expect 503 "draining" POST /v1/proofs "{\"key\": \"chain\", \"witnesses\": [\"$D/witness.wtns\"]}"
[ "$(code DELETE /v1/drain)" = 503 ] || fail "a SIGTERM drain was resumed: $(cat "$T/last.json")"
rc=0
wait "$PID" || rc=$?
PID=
[ "$rc" = 0 ] || fail "g16d exited with $rc after SIGTERM"
grep -q "stopping.*left=0" "$LOG" || fail "it stopped with partitions left: $(grep stopping "$LOG")"
start_daemon --memory-budget 1G --synth-workers 1 --threads 1
api "http://d/v1/proofs/$id2" >"$T/b.json"
[ "$(js o.state <"$T/b.json")" = done ] || fail "after SIGTERM and restart the job is not done: $(cat "$T/b.json")"
client get "$id2" --out "$T/b" >/dev/null || fail "the drained job's result is gone"
verify_dir "$D/verification_key.json" "$T/b" 10
stop_daemon
