#!/bin/bash
# Three g16d hosts on one throwaway PostgreSQL: 300 partitions over three
# keys (both curves) submitted through different hosts all finish with
# exactly one result row each; every proof was verified by the host that
# made it (--self-verify, on by default) and a sample of every key's is
# checked here again (g16 verify, snarkjs).  Every host lists the fleet's
# jobs (GET /v1/proofs), not only those it submitted or ran.  Host c has a budget for its key
# and one and a half partitions of the largest circuit: its VmHWM stays
# within that budget + a fixed overhead while a and b take the larger share
# of that circuit's partitions.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fleet_lib.sh"

start_host a --lease 5 --memory-budget 1G
start_host b --lease 5 --memory-budget 1G
hc a keys load chain "$FIX/bn128/chain/circuit.zkey" >"$T/key.json" || fail "a: key load"
hc b keys load mult "$FIX/bls12381/multiplier/circuit.zkey" >/dev/null || fail "b: key load"
hc a keys load pub "$FIX/bn128/pubmany/circuit.zkey" >/dev/null || fail "a: key load"
KEY=$(stat -c %s "$FIX/bn128/chain/circuit.zkey")
PART=$(($(js o.partition_bytes <"$T/key.json") + $(stat -c %s "$FIX/bn128/chain/witness.wtns")))
BUDGET=$((KEY + PART + PART / 2))
start_host c --lease 5 --memory-budget "$BUDGET" --sample-interval 20
IDLE=$(awk '/^VmRSS/ {print $2}' "/proc/${HPID[c]}/status")
note "c: budget $BUDGET B (key $KEY B + 1.5 partitions of $PART B)"

submit() { # HOST KEY FIXTURE N
  local ws=() i
  for i in $(seq "$4"); do ws+=("$FIX/$3/witness.wtns"); done
  hc "$1" prove --key "$2" "${ws[@]}" || fail "$1: submit $2"
}
ids=("$(submit a chain bn128/chain 60)" "$(submit b mult bls12381/multiplier 120)"
  "$(submit c pub bn128/pubmany 120)")
fixtures=(bn128/chain bls12381/multiplier bn128/pubmany)
counts=(60 120 120)
# list_is HOST WANT: GET /v1/proofs on HOST lists the fleet's three jobs, in
# submission order, as "id key partitions submitted_by" and their states
# match WANT (a regex of each state).
list_is() {
  hapi "$1" http://d/v1/proofs >"$T/list-$1.json"
  local got want="${ids[0]} chain 60 $(host_id a),${ids[1]} mult 120 $(host_id b),${ids[2]} pub 120 $(host_id c)"
  got=$(js 'o.jobs.map(j => [j.id, j.key, j.partitions, j.submitted_by].join(" ")).join()' <"$T/list-$1.json")
  [ "$got" = "$want" ] || fail "$1 lists the jobs as '$got', not '$want'"
  js 'o.jobs.map(j => j.state).join("\n")' <"$T/list-$1.json" | grep -qvxE "$2" &&
    fail "$1 lists a job not $2: $(cat "$T/list-$1.json")"
  return 0
}
note "GET /v1/proofs on every host lists the fleet's jobs, not its own"
for n in a b c; do list_is "$n" 'queued|running|done'; done
hosts=(b c a) # each job is waited for through a host that did not take it
for i in 0 1 2; do
  out=$T/o$i
  hc "${hosts[$i]}" wait "${ids[$i]}" --timeout 150 --out "$out" >"$T/j$i.json" ||
    fail "job $i did not finish"
  [ "$(js o.partitions_done <"$T/j$i.json")" = "${counts[$i]}" ] || fail "job $i: $(head -c 300 "$T/j$i.json")"
  vk=$FIX/${fixtures[$i]}/verification_key.json
  for k in 0 $((counts[$i] / 2)) $((counts[$i] - 1)); do
    "$G16" verify "$vk" "$out/public-$k.json" "$out/proof-$k.json" >/dev/null || fail "job $i proof $k"
  done
  snarkjs_ok "$vk" "$out/public-$((counts[$i] - 1)).json" "$out/proof-$((counts[$i] - 1)).json"
done
for n in a b c; do list_is "$n" done; done
[ "$(js 'o.jobs.map(j => j.partitions_done).join()' <"$T/list-c.json")" = 60,120,120 ] ||
  fail "c lists other partition counts: $(cat "$T/list-c.json")"
[ "$(sql "SELECT count(*) FROM results WHERE ok")" = 300 ] || fail "not 300 good results"
[ "$(sql "SELECT count(DISTINCT (job, idx)) FROM results")" = 300 ] || fail "a partition has two results"
# The largest circuit's partitions: c's budget admits one at a time, a's
# and b's two (their synthesis workers), so c takes the smallest share.
for n in a b c; do
  h=$(host_id "$n")
  eval "all_$n=$(sql "SELECT count(*) FROM results WHERE host = '$h'")"
  eval "share_$n=$(sql "SELECT count(*) FROM results WHERE host = '$h' AND job = '${ids[0]}'")"
done
note "results by host: a $all_a, b $all_b, c $all_c; of the chain job: a $share_a, b $share_b, c $share_c"
[ "$all_c" -ge 1 ] || fail "c proved nothing"
[ "$share_c" -lt "$share_a" ] && [ "$share_c" -lt "$share_b" ] || fail "c took no smaller share of the chain job"

HWM=$(awk '/^VmHWM/ {print $2}' "/proc/${HPID[c]}/status")
note "c: VmHWM $HWM KiB, idle RSS $IDLE KiB, budget $((BUDGET / 1024)) KiB"
if [ "${G16_SANITIZED:-0}" = 1 ]; then
  note "sanitizer build: VmHWM bound not checked"
else
  [ "$HWM" -le $((BUDGET / 1024 + IDLE + 8 * 1024)) ] || fail "c: VmHWM $HWM KiB exceeds budget + overhead"
fi
hapi c "http://d/v1/memory?format=json" >"$T/mem.json"
MAXRES=$(js 'Math.max(...o.samples.map(s=>s.reserved_kb))' <"$T/mem.json")
[ $((MAXRES * 1024)) -le "$BUDGET" ] || fail "c reserved $MAXRES KiB, beyond its budget"

for n in a b c; do stop_host "$n"; done
! grep -qE "Sanitizer|runtime error:" "$T"/*.log || fail "sanitizer report in a log"
