#!/bin/bash
# Two g16d hosts on one throwaway PostgreSQL (--queue): keys registered on
# one host are loaded on demand by the other (SHA-256 checked), jobs
# submitted on either run on both; host b is stopped (SIGSTOP: its leases
# lapse, a takes them, b's late results are discarded), host a is killed
# with -9 while it holds leases and b takes those over in turn; every
# partition has exactly one result row, every proof verifies (g16 verify,
# snarkjs for a sample), and any host answers for any job.  PostgreSQL is
# restarted (immediate stop) while b works: b reconnects and goes on.  One
# job is of inputs: the key's circuit travels with its registration and the
# witness is computed by whichever host claims the partition.  Bad input on a
# fleet host gets the errors it gets today.  a is woken by LISTEN/NOTIFY,
# b only polls (--no-listen), as a host on YugabyteDB would.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fleet_lib.sh"

note "a URL with a password is refused before anything starts"
if "$G16D" --socket "$T/x.s" --state-dir "$T/x.st" --queue "postgresql://g16:secret@/postgres" \
  >"$T/x.log" 2>&1; then fail "g16d started with a password in --queue"; fi
grep -q "carries a password" "$T/x.log" || fail "no word of the password: $(cat "$T/x.log")"

start_host a --lease 2 --memory-budget 1G
# b only polls, as every host would where the database has no LISTEN
start_host b --lease 2 --memory-budget 1G --no-listen
grep -q "idle=\"woken by LISTEN/NOTIFY" "$T/a.log" || fail "a does not listen: $(cat "$T/a.log")"
grep -q "idle=\"polling every 0.1 s, no LISTEN" "$T/b.log" || fail "b listens: $(cat "$T/b.log")"
note "keys registered through a: both curves"
hc a keys load chain "$FIX/bn128/chain/circuit.zkey" >/dev/null || fail "a: key load"
hc a keys load mult "$FIX/bls12381/multiplier/circuit.zkey" --wasm "$FIX/bls12381/multiplier/circuit.wasm" \
  >/dev/null || fail "a: key load"
[ "$(sql "SELECT count(*) FROM keys WHERE length(sha256) = 64")" = 2 ] || fail "keys not registered"
[ "$(sql "SELECT wasm FROM keys WHERE name = 'mult'")" = "$(realpath "$FIX/bls12381/multiplier/circuit.wasm")" ] ||
  fail "the circuit is not registered with its key"
want=$(sha256sum "$FIX/bn128/chain/circuit.zkey" | cut -d' ' -f1)
[ "$(sql "SELECT sha256 FROM keys WHERE name = 'chain'")" = "$want" ] || fail "wrong SHA-256"

note "bad input on b: the errors of a single g16d"
st=$(hapi b -o "$T/e.json" -w '%{http_code}' -X POST --data-binary '{"key":"nope","witnesses":["/x"]}' http://d/v1/proofs)
[ "$st" = 404 ] && grep -q "no key named 'nope'" "$T/e.json" || fail "unknown key: $st $(cat "$T/e.json")"
st=$(hapi b -o "$T/e.json" -w '%{http_code}' -X POST \
  --data-binary "{\"key\":\"chain\",\"witnesses\":[\"$FIX/bls12381/chain/witness.wtns\"]}" http://d/v1/proofs)
[ "$st" = 400 ] || fail "a witness of the other curve: $st $(cat "$T/e.json")"
st=$(hapi b -o "$T/e.json" -w '%{http_code}' -X POST --data-binary '{"key":' http://d/v1/proofs)
[ "$st" = 400 ] && grep -q "malformed JSON" "$T/e.json" || fail "bad JSON: $st"
[ "$(sql "SELECT count(*) FROM jobs")" = 0 ] || fail "a refused job reached the queue"

note "jobs through both hosts; b stopped (its leases lapse), a killed while it holds leases"
up=(); for _ in $(seq 8); do up+=("$FIX/bls12381/multiplier/witness.wtns"); done
id2=$(hc b prove --key mult --upload "${up[@]}") || fail "b: submit"
kill -STOP "${HPID[b]}"
ws=(); for _ in $(seq 12); do ws+=("$FIX/bn128/chain/witness.wtns"); done
id1=$(hc a prove --key chain "${ws[@]}") || fail "a: submit"
in=(); for _ in $(seq 4); do in+=("$FIX/bls12381/multiplier/input.json"); done
id3=$(hc a prove --key mult --input "${in[@]}") || fail "a: submit inputs"
host_a=$(host_id a)
held="SELECT count(*) FROM partitions WHERE lease_owner = '$host_a' AND state = 'running'"
posted="SELECT count(*) FROM results WHERE host = '$host_a'"
# (a posts its small proofs a finalize batch at a time, so the first
# result comes after several proofs: up to 30 s on a loaded machine)
for _ in $(seq 1500); do
  [ "$(sql "$held")" -gt 0 ] && [ "$(sql "$posted")" -gt 0 ] && break
  sleep 0.02
done
[ "$(sql "$posted")" -gt 0 ] || fail "a proved nothing"
held=$(sql "$held")
[ "$held" -gt 0 ] || fail "a held no lease when it was to be killed"
kill -9 "${HPID[a]}"
unset 'HPID[a]'
kill -CONT "${HPID[b]}"
note "a killed holding $held leases; PostgreSQL restarted under b"
pg_restart || fail "PostgreSQL did not restart"

LOG=$T/b.log
hc b wait "$id1" --timeout 120 --out "$T/o1" >"$T/j1.json" || fail "job 1 did not finish on b"
hc b wait "$id2" --timeout 120 --out "$T/o2" >"$T/j2.json" || fail "job 2 did not finish on b"
hc b wait "$id3" --timeout 120 --out "$T/o3" >"$T/j3.json" || fail "job 3 (inputs) did not finish on b"
[ "$(js o.partitions_done <"$T/j3.json")" = 4 ] || fail "job 3: $(cat "$T/j3.json")"
verify_dir "$FIX/bls12381/multiplier/verification_key.json" "$T/o3" 4
cmp -s <(js 'JSON.stringify(o)' <"$FIX/bls12381/multiplier/public.json") <(js 'JSON.stringify(o)' <"$T/o3/public-3.json") ||
  fail "job 3: the witness computed from the input gives other public signals"
[ "$(js o.partitions_done <"$T/j1.json")" = 12 ] || fail "job 1: $(cat "$T/j1.json")"
[ "$(js o.partitions_done <"$T/j2.json")" = 8 ] || fail "job 2: not every partition done"
verify_dir "$FIX/bn128/chain/verification_key.json" "$T/o1" 12
verify_dir "$FIX/bls12381/multiplier/verification_key.json" "$T/o2" 8
snarkjs_ok "$FIX/bn128/chain/verification_key.json" "$T/o1/public-11.json" "$T/o1/proof-11.json"
snarkjs_ok "$FIX/bls12381/multiplier/verification_key.json" "$T/o2/public-0.json" "$T/o2/proof-0.json"

note "exactly one result per partition; a's lapsed leases were taken over"
[ "$(sql "SELECT count(*) FROM results")" = 24 ] || fail "$(sql "SELECT count(*) FROM results") results for 24 partitions"
[ "$(sql "SELECT count(*) FROM partitions WHERE state = 'done'")" = 24 ] || fail "not every partition done"
[ "$(sql "SELECT count(*) FROM partitions WHERE attempt > 1")" -ge 1 ] || fail "no partition was taken over"
[ "$(sql "SELECT count(*) FROM results WHERE host <> '$host_a'")" -ge 1 ] || fail "b posted nothing"
[ "$(sql "SELECT count(*) FROM results WHERE host = '$host_a'")" -ge 1 ] || fail "a posted nothing"
hc b keys list | js 'o.keys.map(k => k.name).sort().join()' | grep -qx chain,mult ||
  fail "b did not load the keys on demand"

note "any host answers; /v1/fleet and /metrics"
hapi b "http://d/v1/proofs/$id1" | js 'o.state' | grep -qx done || fail "b does not answer job 1"
hapi b http://d/v1/fleet >"$T/fleet.json"
[ "$(js 'o.hosts.length' <"$T/fleet.json")" = 2 ] || fail "fleet: $(cat "$T/fleet.json")"
[ "$(js 'o.queue.queued' <"$T/fleet.json")" = 0 ] || fail "fleet queue not empty"
hapi b http://d/metrics | grep -q '^g16d_fleet_queue_partitions{state="queued"} 0' || fail "metrics lack the fleet's queue"

stop_host b
! grep -qE "Sanitizer|runtime error:" "$T/a.log" "$T/b.log" || fail "sanitizer report in a log"
note "ok"
