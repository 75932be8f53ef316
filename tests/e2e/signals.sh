#!/usr/bin/env bash
# signals.sh: `g16 prove` interrupted by SIGINT, SIGTERM or SIGHUP dies of
# the signal and leaves nothing behind: no PROOF/PUBLIC output and no
# temporary "*.tmp.PID.N" file, whether the signal comes while the key is
# read or in the middle of the proofs (--repeat keeps it busy for minutes
# on the largest fixture).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_g16
d=$(fixture bn128 sha256)
# Job control on: a background job of a script would otherwise start with
# SIGINT ignored, and g16 keeps an ignored signal ignored.
set -m

# interrupt SIG DELAY: start a prove, send SIG after DELAY seconds, check.
interrupt() {
  local sig=$1 delay=$2 out="$T/out-$1-$2" pid rc=0
  mkdir -p "$out"
  "$G16" prove --repeat 1000 "$d/circuit.zkey" "$d/witness.wtns" "$out/proof.json" "$out/public.json" \
    >"$T/stdout" 2>"$T/stderr" &
  pid=$!
  sleep "$delay"
  kill -0 "$pid" 2>/dev/null || { wait "$pid" || true; cat "$T/stderr" >&2; fail "SIG$sig after $delay s: g16 prove ended before the signal"; }
  kill -s "$sig" "$pid"
  wait "$pid" || rc=$?
  [ "$rc" -eq $((128 + $(kill -l "$sig"))) ] ||
    { cat "$T/stderr" >&2; fail "SIG$sig after $delay s: exit status $rc, not that of the signal ($((128 + $(kill -l "$sig"))))"; }
  [ -z "$(ls -A "$out")" ] ||
    { ls -la "$out" >&2; fail "SIG$sig after $delay s: g16 prove left files behind"; }
  note "SIG$sig after $delay s: exit $rc, nothing left"
}

for sig in INT TERM HUP; do
  for delay in 0.05 0.5 2; do
    interrupt "$sig" "$delay"
  done
done
