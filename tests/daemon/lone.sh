#!/bin/bash
# A lone partition's stages as one call (policy_whole_proof): a
# one-partition job in an idle daemon runs the library's whole proof
# (its timings say "path": "whole", and no MSM or finalize call ran)
# from its witness read into memory once, at submission, where it was
# checked ("witness_from": "submission"), and its proof verifies (g16
# verify, snarkjs); a job of several partitions still goes through the
# staged pipeline (every partition that had others queued behind it says
# "staged" and ran an MSM call) and reads its witnesses at synthesis,
# both curves, and its proofs verify.  A damaged witness of a lone job is
# refused at submission as before (400 naming the file), and no
# reservation is left behind by it or by the proofs.
source "$(dirname "$0")/lib.sh"

start_daemon --memory-budget 1G --threads 2
for c in bn128 bls12381; do
  client keys load "$c" "$FIX/$c/chain/circuit.zkey" >/dev/null || fail "loading the $c chain key"
done

for c in bn128 bls12381; do
  W=$FIX/$c/chain/witness.wtns
  # alone: one call
  client prove --key "$c" --wait --out "$T/lone-$c" "$W" >"$T/lone-$c.json" ||
    fail "$c: the lone partition failed"
  [ "$(js o.state <"$T/lone-$c.json")" = done ] || fail "$c: the lone job is $(js o.state <"$T/lone-$c.json")"
  path=$(js o.partitions[0].timings.path <"$T/lone-$c.json")
  [ "$path" = whole ] || fail "$c: a lone partition took the path '$path', wanted whole"
  [ "$(js 'o.partitions[0].timings.msm_s === 0 && o.partitions[0].timings.finalize_s === 0' \
    <"$T/lone-$c.json")" = true ] || fail "$c: a whole-proof run made staged MSM or finalize calls"
  [ "$(js 'o.partitions[0].timings.synthesis_s > 0 && o.partitions[0].timings.verify_s > 0' \
    <"$T/lone-$c.json")" = true ] || fail "$c: the whole-proof run's timings are missing (or it was not self-checked)"
  from=$(js o.partitions[0].timings.witness_from <"$T/lone-$c.json")
  [ "$from" = submission ] || fail "$c: a lone job's witness was read at '$from', wanted submission"
  verify_dir "$FIX/$c/chain/verification_key.json" "$T/lone-$c" 1
  snarkjs_ok "$FIX/$c/chain/verification_key.json" "$T/lone-$c/public-0.json" "$T/lone-$c/proof-0.json"

  # several partitions: the pipeline
  N=6
  ws=()
  for _ in $(seq $N); do ws+=("$W"); done
  client prove --key "$c" --wait --out "$T/many-$c" "${ws[@]}" >"$T/many-$c.json" ||
    fail "$c: the job of $N partitions failed"
  [ "$(js o.state <"$T/many-$c.json")" = done ] || fail "$c: the job of $N is $(js o.state <"$T/many-$c.json")"
  # partition i < N - 1 left the queue with the later ones still queued;
  # the last may find the pipeline empty and run whole
  staged=$(js "o.partitions.slice(0, $((N - 1))).filter(p => p.timings.path === 'staged' && p.timings.msm_s > 0).length" \
    <"$T/many-$c.json")
  [ "$staged" = $((N - 1)) ] ||
    fail "$c: $staged of the first $((N - 1)) partitions ran staged, wanted all: $(js 'o.partitions.map(p => p.timings.path)' <"$T/many-$c.json")"
  [ "$(js "o.partitions.every(p => p.timings.witness_from === 'synthesis')" <"$T/many-$c.json")" = true ] ||
    fail "$c: a partition of a job of $N read its witness at submission"
  verify_dir "$FIX/$c/chain/verification_key.json" "$T/many-$c" $N
  note "$c: lone partition whole, $staged of $N partitions staged, all verified"
done

# a damaged witness, alone: refused at submission, nothing held
W=$FIX/bn128/chain/witness.wtns
head -c $(($(stat -c %s "$W") - 32)) "$W" >"$T/short.wtns"
st=$(code POST /v1/proofs "{\"key\":\"bn128\",\"witnesses\":[\"$T/short.wtns\"]}")
[ "$st" = 400 ] || fail "a truncated witness got $st: $(cat "$T/last.json")"
grep -q "short.wtns" "$T/last.json" || fail "the refusal does not name the file: $(cat "$T/last.json")"
for _ in $(seq 50); do
  [ "$(client status | js o.budget.reserved)" = 0 ] && break
  sleep 0.1
done
[ "$(client status | js o.budget.reserved)" = 0 ] ||
  fail "reservations left behind: $(client status | js o.budget.reserved) bytes"
stop_daemon
echo "PASS"
