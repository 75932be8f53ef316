#!/bin/bash
# SIGHUP re-reads --config: the budget, the synthesis workers and the
# result TTL change in place (GET /v1/status shows them, the new TTL
# purges a result the old one would have kept, partitions that had one
# synthesis worker run side by side); the socket, which only a restart changes, is named in
# one log line and kept; a file that no longer parses changes nothing.
source "$(dirname "$0")/lib.sh"
D=$FIX/bn128/chain
conf() {
  cat >"$T/g.conf" <<CONF
socket = $1
state-dir = $STATE
allow-dir = $FIX
memory-budget = $2
result-ttl = $3
synth-workers = $4
threads = 4
sample-interval = 20
CONF
}
conf "$SOCK" 1G 100 1
"$G16D" --config "$T/g.conf" >>"$LOG" 2>&1 &
PID=$!
wait_socket "$SOCK" "$PID" g16d
client status >"$T/s.json"
[ "$(js o.budget.total <"$T/s.json")" = $((1 << 30)) ] || fail "budget from the file: $(js o.budget <"$T/s.json")"
[ "$(js o.config.result_ttl <"$T/s.json")" = 100 ] || fail "result-ttl from the file: $(js o.config <"$T/s.json")"
client keys load chain "$D/circuit.zkey" >/dev/null
id=$(client prove --key chain "$D/witness.wtns")
client wait "$id" --timeout 60 >/dev/null || fail "job"

note "SIGHUP with a new budget, TTL and workers, and another socket"
conf "$T/other.s" 512M 1 3
kill -HUP "$PID"
for _ in $(seq 50); do grep -q "reloaded" "$LOG" && break; sleep 0.1; done
grep -q "reloaded" "$LOG" || fail "no reload line"
client status >"$T/s.json"
[ "$(js o.budget.total <"$T/s.json")" = $((512 << 20)) ] || fail "budget after SIGHUP: $(js o.budget <"$T/s.json")"
[ "$(js o.config.result_ttl <"$T/s.json")" = 1 ] || fail "result-ttl after SIGHUP: $(js o.config <"$T/s.json")"
[ "$(js o.stages.synthesis.workers <"$T/s.json")" = 3 ] || fail "synthesis workers after SIGHUP: $(js o.stages <"$T/s.json")"
[ "$(js o.config.reloads <"$T/s.json")" = 1 ] || fail "reloads: $(js o.config <"$T/s.json")"
grep -q 'warning reload_kept options=socket why=' "$LOG" || fail "the socket change is not named: $(grep reload "$LOG")"
[ -e "$T/other.s" ] && fail "a socket was opened at the new path"
note "$(grep reload_kept "$LOG")"
# the new TTL: the finished job is purged within a second or two
for _ in $(seq 40); do [ "$(code GET "/v1/proofs/$id")" = 404 ] && break; sleep 0.1; done
[ "$(code GET "/v1/proofs/$id")" = 404 ] || fail "the result outlived the reloaded 1 s TTL: $(cat "$T/last.json")"
# three synthesis workers (one before): partitions side by side in synthesis
ws=(); for i in $(seq 30); do ws+=("$D/witness.wtns"); done
id=$(client prove --key chain "${ws[@]}")
client wait "$id" --timeout 120 --out "$T/o" >/dev/null || fail "a job after the reload"
verify_dir "$D/verification_key.json" "$T/o" 30
api "http://d/v1/memory?format=json" >"$T/mem.json"
syn=$(js 'Math.max(...o.samples.map(s=>s.busy.synthesis))' <"$T/mem.json")
note "at most $syn partitions in synthesis at once"
[ "$syn" -ge 2 ] || fail "the added synthesis workers never ran ($syn at most)"

note "a file that does not parse: nothing changes"
echo "memory-budget = lots" >>"$T/g.conf"
kill -HUP "$PID"
for _ in $(seq 50); do grep -q "reload_failed" "$LOG" && break; sleep 0.1; done
grep -q "reload_failed" "$LOG" || fail "no reload_failed line"
[ "$(client status | js o.budget.total)" = $((512 << 20)) ] || fail "a bad file changed the budget"
stop_daemon
