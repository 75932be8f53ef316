#!/bin/bash
# `g16 client wait|get --out DIR` and `prove --wait --out DIR` check DIR
# before they fetch or submit anything: a DIR that cannot be made fails at
# once, naming it, with the job's results neither fetched nor printed.
source "$(dirname "$0")/lib.sh"
start_daemon --memory-budget 1G --threads 1
D=$FIX/bn128/chain
client keys load chain "$D/circuit.zkey" >/dev/null
id=$(client prove --key chain "$D/witness.wtns")
client wait "$id" --timeout 60 >/dev/null || fail "the job did not finish"

touch "$T/file"
for out in "$T/missing/sub" "$T/file"; do
  for cmd in wait get; do
    rc=0
    client "$cmd" "$id" --out "$out" >"$T/stdout" 2>"$T/stderr" || rc=$?
    [ "$rc" = 1 ] || fail "$cmd --out $out: exit $rc, wanted 1"
    grep -qF "$out:" "$T/stderr" || fail "$cmd --out $out: the error does not name it: $(cat "$T/stderr")"
    [ ! -s "$T/stdout" ] || fail "$cmd --out $out: the job was fetched before the directory was checked"
  done
  note "$(cat "$T/stderr")"
  rc=0
  client prove --key chain --wait --out "$out" "$D/witness.wtns" >"$T/stdout" 2>"$T/stderr" || rc=$?
  [ "$rc" = 1 ] && grep -qF "$out:" "$T/stderr" || fail "prove --wait --out $out: exit $rc: $(cat "$T/stderr")"
done
[ "$(api http://d/v1/proofs | js o.jobs.length)" = 1 ] || fail "prove --wait --out submitted a job it could not save"
# the results were never fetched, so a good --out still gets them
client wait "$id" --out "$T/out" >/dev/null || fail "wait --out into a good directory failed"
"$G16" verify "$D/verification_key.json" "$T/out/public-0.json" "$T/out/proof-0.json" >/dev/null ||
  fail "the saved proof does not verify"
stop_daemon
