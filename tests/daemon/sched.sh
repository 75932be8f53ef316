#!/bin/bash
# The scheduler's thread allotment and a stream of small proofs.
# - Allotment (--threads 2): a small key's partitions get one thread each,
#   a key of at least two --domain-per-thread gets both, and so does every
#   key with --msm-workers 1; a lone partition gets both threads too.
# - 200 small partitions over two keys (BN254 and BLS12-381 multipliers,
#   witnesses from distinct inputs) as two jobs in flight together under a
#   budget that holds only a few at a time: every proof verifies (the
#   daemon's self-check, a sample with g16 verify and snarkjs), each
#   job's results come back in submission order (the public output of
#   input i is 3 * (i + 2)), nearly all ran on the key's share of the
#   threads, and the budget held (reservations, VmHWM).
source "$(dirname "$0")/lib.sh"
SMALL=$T/small
"$G16" synth --constraints 1022 --curve bn128 --out "$SMALL" --setup >/dev/null

# threads_of NAME: the threads the key's partitions get, from the listing
threads_of() { client keys list | js "o.keys.find(k => k.name === '$1').threads"; }

start_daemon --memory-budget 1G --threads 2 --domain-per-thread 1024
client keys load small "$SMALL/circuit.zkey" >"$T/small.json"
client keys load chain "$FIX/bn128/chain/circuit.zkey" >"$T/chain.json"
CHAIN_DOMAIN=$(js o.domain_size <"$T/chain.json")
[ "$CHAIN_DOMAIN" -ge 2048 ] || fail "premise: the chain key's domain $CHAIN_DOMAIN is under 2 * 1024"
[ "$(js o.domain_size <"$T/small.json")" = 1024 ] || fail "premise: the small key's domain is not 1024"
[ "$(threads_of small)" = 1 ] || fail "a 2^10 key got $(threads_of small) threads, wanted 1 of 2"
[ "$(threads_of chain)" = 2 ] || fail "a key of domain $CHAIN_DOMAIN got $(threads_of chain) threads, wanted 2"
[ "$(client status | js o.threads.total)" = 2 ] || fail "status does not report --threads 2"
# A lone partition (nothing else queued or in flight) gets all threads.
client prove --key small --wait --out "$T/lone" "$SMALL/witness.wtns" >"$T/lone.json" ||
  fail "the lone partition failed"
[ "$(js o.partitions[0].timings.threads <"$T/lone.json")" = 2 ] ||
  fail "a lone partition ran on $(js o.partitions[0].timings.threads <"$T/lone.json") threads, wanted 2"
verify_dir "$SMALL/verification_key.json" "$T/lone" 1
stop_daemon
rm -rf "$STATE"
# One MSM worker: partitions cannot run side by side, so each gets all.
start_daemon --memory-budget 1G --threads 2 --msm-workers 1
client keys load small "$SMALL/circuit.zkey" >/dev/null
[ "$(threads_of small)" = 2 ] || fail "with one MSM worker a small key got $(threads_of small) threads"
stop_daemon
rm -rf "$STATE"

# The default --domain-per-thread: a small key gets fewer threads than
# --threads.  The budget is read from a probe: room for the two keys and
# three partitions (witness calculators at their cap) beside them.
WMEM=$((2 << 20))
shared_circuits
start_daemon --memory-budget 1G --threads 2 --witness-memory "$WMEM"
need=0
keys=0
for c in bn128 bls12381; do
  client keys load "$c" "$FIX/$c/multiplier/circuit.zkey" --wasm "$FIX/$c/multiplier/circuit.wasm" \
    >"$T/key-$c.json" || fail "loading the $c multiplier with its circuit"
  [ "$(threads_of "$c")" = 1 ] || fail "the $c multiplier got $(threads_of "$c") threads, wanted 1"
  # the proof's bytes, the .wtns, the calculation (cap, witness values, a
  # few bytes of parsed input: 4 KiB is plenty)
  n=$(js 'o.partition_bytes + o.circuit.memory_limit + 2 * o.circuit.wtns_bytes + 4096' <"$T/key-$c.json")
  [ "$n" -gt "$need" ] && need=$n
  keys=$((keys + $(js o.bytes <"$T/key-$c.json")))
done
stop_daemon
rm -rf "$STATE"
BUDGET=$((keys + 3 * need))
note "keys $keys B, a partition at most $need B, budget $BUDGET B"
shared_circuits
start_daemon --memory-budget "$BUDGET" --threads 2 --witness-memory "$WMEM" --sample-interval 20
IDLE=$(rss_kb)
ins=()
for i in $(seq 0 99); do
  printf '{"a": %d, "b": 3}' $((i + 2)) >"$T/in$i.json"
  ins+=("$T/in$i.json")
done
ids=()
for c in bn128 bls12381; do
  client keys load "$c" "$FIX/$c/multiplier/circuit.zkey" --wasm "$FIX/$c/multiplier/circuit.wasm" \
    >/dev/null || fail "loading the $c multiplier"
done
for c in bn128 bls12381; do ids+=("$(client prove --key "$c" --input "${ins[@]}")"); done
i=0
for c in bn128 bls12381; do
  client wait "${ids[$i]}" --timeout 600 --out "$T/out-$c" >"$T/job-$c.json" ||
    fail "the $c job failed: $(head -c 600 "$T/job-$c.json")"
  i=$((i + 1))
  [ "$(js o.partitions_done <"$T/job-$c.json")" = 100 ] || fail "$c: not all 100 partitions done"
  # each proof was self-verified before it was returned (the default);
  # every tenth is checked here too
  for j in $(seq 0 10 99); do
    "$G16" verify "$FIX/$c/multiplier/verification_key.json" "$T/out-$c/public-$j.json" \
      "$T/out-$c/proof-$j.json" >"$T/v.log" 2>&1 || fail "$c: proof $j does not verify: $(cat "$T/v.log")"
  done
  bad=$(node -e 'const f=require("fs");
    for (let j = 0; j < 100; j++) {
      const got = JSON.parse(f.readFileSync(process.argv[1] + "/public-" + j + ".json"))[0];
      if (got !== String(3 * (j + 2))) { console.log(j + ": " + got); break; }
    }' "$T/out-$c")
  [ -z "$bad" ] || fail "$c: result $bad is not its input's 3 * (j + 2): out of order"
  one=$(js 'o.partitions.filter(p => p.timings.threads === 1).length' <"$T/job-$c.json")
  [ "$one" -ge 95 ] || fail "$c: only $one of 100 partitions ran on the key's one thread"
  [ "$(js 'o.partitions.every(p => p.timings.verify_s > 0)' <"$T/job-$c.json")" = true ] ||
    fail "$c: a proof was returned without its self-verification"
  note "$c: 100 proofs verified, in order; $one ran on one thread"
done
snarkjs_ok "$FIX/bls12381/multiplier/verification_key.json" "$T/out-bls12381/public-99.json" \
  "$T/out-bls12381/proof-99.json"
check_hwm "$BUDGET" "$IDLE"
timeline 2
check_ledger
[ "$(client status | js o.threads.busy)" = 0 ] || fail "threads still held after every job finished"
stop_daemon
