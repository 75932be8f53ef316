#!/bin/bash
# A fleet host's health and drain: ready (200) while its database
# answers, degraded (503, lost: database) once its heartbeat finds the
# database gone, ready again when it is back.  SIGTERM with a job
# running: the host drains (health 503 draining, submissions through it
# 503, no new claims), finishes what it holds and exits 0; the other
# host proves the rest, and the job reads done from it with exactly one
# result per partition.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fleet_lib.sh"

D=$FIX/bn128/chain
start_host a --lease 3 --memory-budget 1G --synth-workers 1 --threads 1
ha() { hapi a -o "$T/last.json" -w '%{http_code}' "$@"; }
[ "$(ha http://d/v1/health)" = 200 ] || fail "a's health: $(cat "$T/last.json")"

note "the database away: degraded"
pg_down
for _ in $(seq 50); do [ "$(ha http://d/v1/health)" = 503 ] && break; sleep 0.1; done
[ "$(js o.state <"$T/last.json")" = degraded ] || fail "health without the database: $(cat "$T/last.json")"
[ "$(js o.lost <"$T/last.json")" = database ] || fail "health does not say the database: $(cat "$T/last.json")"
note "$(cat "$T/last.json")"
pg_up || fail "PostgreSQL did not come back"
for _ in $(seq 100); do [ "$(ha http://d/v1/health)" = 200 ] && break; sleep 0.1; done
[ "$(js o.state <"$T/last.json")" = ready ] || fail "health with the database back: $(cat "$T/last.json")"

note "SIGTERM on a with a job running: a drains, b proves the rest"
hc a keys load chain "$D/circuit.zkey" >/dev/null || fail "a: key load"
ws=(); for i in $(seq 12); do ws+=("$D/witness.wtns"); done
id=$(hc a prove --key chain "${ws[@]}")
for _ in $(seq 100); do
  [ "$(sql "SELECT count(*) FROM partitions WHERE state <> 'queued'")" -gt 0 ] && break
  sleep 0.05
done
start_host b --lease 3 --memory-budget 1G --synth-workers 1 --threads 1
# drained by the API first (it lasts until resumed): what a says meanwhile
[ "$(ha -X POST http://d/v1/drain)" = 200 ] || fail "a: POST /v1/drain: $(cat "$T/last.json")"
[ "$(ha http://d/v1/health)" = 503 ] || fail "a's health while draining: $(cat "$T/last.json")"
[ "$(js o.state <"$T/last.json")" = draining ] || fail "a's health while draining: $(cat "$T/last.json")"
st=$(ha -X POST --data-binary "{\"key\":\"chain\",\"witnesses\":[\"$D/witness.wtns\"]}" http://d/v1/proofs)
[ "$st" = 503 ] && grep -q draining "$T/last.json" || fail "a submission to a draining host: $st $(cat "$T/last.json")"
fleet_says() { hapi a http://d/v1/fleet | js "o.hosts.find(h=>h.id===o.host).info.draining"; }
for _ in $(seq 40); do [ "$(fleet_says)" = true ] && break; sleep 0.1; done # its next heartbeat
[ "$(fleet_says)" = true ] || fail "GET /v1/fleet does not show a draining: $(hapi a http://d/v1/fleet)"
kill -TERM "${HPID[a]}"
rc=0
wait "${HPID[a]}" || rc=$?
unset "HPID[a]"
[ "$rc" = 0 ] || fail "a exited with $rc after SIGTERM"
grep -q "stopping.*left=0" "$T/a.log" || fail "a stopped with partitions left: $(grep stopping "$T/a.log")"
hc b wait "$id" --timeout 120 --out "$T/o" >"$T/j.json" || fail "the job did not finish on b"
[ "$(js o.partitions_done <"$T/j.json")" = 12 ] || fail "job: $(head -c 600 "$T/j.json")"
verify_dir "$D/verification_key.json" "$T/o" 12
[ "$(sql "SELECT count(*) FROM results")" = 12 ] || fail "$(sql "SELECT count(*) FROM results") results for 12 partitions"
host_a_results=$(sql "SELECT count(*) FROM results WHERE host <> '$(host_id b)'")
note "a proved $host_a_results partitions before it exited, b the rest"
[ "$host_a_results" -ge 1 ] || fail "a posted nothing before it exited"
stop_host b
! grep -qE "Sanitizer|runtime error:" "$T/a.log" "$T/b.log" || fail "sanitizer report in a log"
