#!/bin/bash
# Waiting clients hold no worker: with 100 long-polls (GET
# /v1/proofs/ID?wait=S) parked on an unfinished job, /v1/status and
# /metrics still answer within a second (a correctness bound with a wide
# margin: they answer in milliseconds; before, the long-polls held every
# connection thread and status went unanswered); every long-poll then
# returns the job's final state once it ends; a wait runs out on time; and
# SIGTERM releases long-polls still waiting.
source "$(dirname "$0")/lib.sh"
N=100
start_daemon --memory-budget 1G --synth-workers 1 --threads 1
D=$FIX/bn128/chain
client keys load chain "$D/circuit.zkey" >/dev/null
ws=(); for i in $(seq 200); do ws+=("$D/witness.wtns"); done
job=$(client prove --key chain "${ws[@]}")     # far longer than the test: it ends by cancellation

metric() { api --max-time 5 -s http://d/metrics | awk -v m="$1" '$1 == m {print $2}'; }
pids=()
for i in $(seq $N); do
  api --max-time 120 -o "$T/poll-$i.json" -w '%{http_code}' "http://d/v1/proofs/$job?wait=100" >"$T/poll-$i.code" &
  pids+=($!)
done
for _ in $(seq 100); do
  [ "$(metric g16d_long_polls_waiting)" = "$N" ] && break
  sleep 0.1
done
[ "$(metric g16d_long_polls_waiting)" = "$N" ] || fail "$N long-polls are not all waiting: $(metric g16d_long_polls_waiting)"

# seconds PATH: how long PATH takes to answer 200 (fails on no answer)
seconds() {
  local out
  out=$(api --max-time 10 -o /dev/null -w '%{http_code} %{time_total}' "http://d$1") || fail "$1: no answer with $N long-polls waiting"
  [ "${out% *}" = 200 ] || fail "$1: status ${out% *} with $N long-polls waiting"
  echo "${out#* }"
}
for p in /v1/status /metrics /v1/status; do
  s=$(seconds $p)
  awk -v s="$s" 'BEGIN {exit !(s < 1.0)}' || fail "$p took $s s with $N long-polls waiting (bound: 1 s)"
  note "$p in $s s with $N long-polls waiting"
done
[ "$(client status | js o.jobs.long_polls)" = "$N" ] || fail "status does not count the waiting long-polls"

# A wait runs out on time, with the job as it is.
t0=$(date +%s%N)
state=$(api --max-time 10 "http://d/v1/proofs/$job?wait=1" | js o.state)
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$state" = running ] || fail "a 1 s wait returned state $state, wanted running"
[ "$ms" -ge 900 ] && [ "$ms" -lt 5000 ] || fail "a 1 s wait took $ms ms"

# The job ends (cancelled): every long-poll returns its final state.
api -sf -X DELETE "http://d/v1/proofs/$job" >/dev/null || fail "cancel refused"
for p in "${pids[@]}"; do wait "$p" || fail "a long-poll failed (curl exit $?)"; done
api "http://d/v1/proofs/$job" >"$T/final.json"
[ "$(js o.state <"$T/final.json")" = cancelled ] || fail "final state $(js o.state <"$T/final.json")"
done_n=$(js o.partitions_done <"$T/final.json")
# every answer in one node process (one a file cost ~0.2 s each)
bad=$(node -e '
  const f = require("fs"), dir = process.argv[1], n = +process.argv[2], want = process.argv[3];
  for (let i = 1; i <= n; i++) {
    const code = f.readFileSync(dir + "/poll-" + i + ".code", "utf8").trim();
    if (code !== "200") { console.log("long-poll " + i + ": status " + code); break; }
    const o = JSON.parse(f.readFileSync(dir + "/poll-" + i + ".json", "utf8"));
    const got = [o.id, o.state, o.partitions_done].join(" ");
    if (got !== want) {
      console.log("long-poll " + i + " returned " + JSON.stringify(got) + ", wanted " + JSON.stringify(want));
      break;
    }
  }' "$T" "$N" "$job cancelled $done_n")
[ -z "$bad" ] || fail "$bad"
[ "$(metric g16d_long_polls_waiting)" = 0 ] || fail "long-polls still counted as waiting"
note "$N long-polls returned the final state (cancelled, $done_n partitions done)"

# SIGTERM with long-polls waiting: they are answered and the daemon exits.
# (8 partitions: long enough for the 5 long-polls to park, while the
# drain at SIGTERM proves what is left before the daemon exits)
job2=$(client prove --key chain "${ws[@]:0:8}")
pids=()
for i in $(seq 5); do
  api --max-time 60 -o "$T/stop-$i.json" "http://d/v1/proofs/$job2?wait=100" &
  pids+=($!)
done
for _ in $(seq 100); do [ "$(metric g16d_long_polls_waiting)" = 5 ] && break; sleep 0.1; done
[ "$(metric g16d_long_polls_waiting)" = 5 ] || fail "the 5 long-polls are not waiting"
stop_daemon
for p in "${pids[@]}"; do wait "$p" || fail "a long-poll got no answer at shutdown (curl exit $?)"; done
grep -q "\"id\":\"$job2\"" "$T/stop-1.json" || fail "a long-poll at shutdown: $(cat "$T/stop-1.json")"
