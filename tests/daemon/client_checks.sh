#!/bin/bash
# What `g16 client` checks before it talks to the daemon: `wait|get --out
# DIR` and `prove --wait --out DIR` check DIR before they fetch or submit
# anything (a DIR that cannot be made fails at once, naming it, with the
# job's results neither fetched nor printed); a token file others may read
# is refused by the client as by g16d, and g16d refuses a FIFO named as
# its token file instead of waiting on it.
source "$(dirname "$0")/lib.sh"

printf 'abcdefghijklmnopqrstuvwxyz012345\n' >"$T/token"
for mode in 0644 0640 0604; do
  chmod "$mode" "$T/token"
  rc=0
  timeout 10 "$G16" client --tcp 1 --token-file "$T/token" status >/dev/null 2>"$T/err" || rc=$?
  [ "$rc" = 1 ] && grep -qF "$T/token: the token file is accessible by group or others (mode $mode)" "$T/err" ||
    fail "client, token file of mode $mode: exit $rc: $(cat "$T/err")"
done
note "$(cat "$T/err")"
mkfifo "$T/token.fifo"
rc=0
timeout 10 "$G16D" --socket "$T/s2" --state-dir "$T/st2" --tcp-port 1 --token-file "$T/token.fifo" 2>"$T/err" || rc=$?
[ "$rc" != 124 ] || fail "g16d waited on a FIFO named as its token file"
[ "$rc" != 0 ] && grep -qF "$T/token.fifo: not a regular file" "$T/err" ||
  fail "g16d, FIFO token file: exit $rc: $(cat "$T/err")"
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
