#!/usr/bin/env bash
# usage.sh: wrong usage is an error (non-zero exit, a message, no crash).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
d=$(fixture bn128 multiplier)
check() {
  local what=$1; shift
  run_g16 "$@"
  { [ "$RC" -ne 0 ] && [ "$RC" -le 125 ]; } || { show_run; fail "$what: expected an error exit, got $RC"; }
  [ -s "$T/stderr" ] || { show_run; fail "$what: no message on stderr"; }
  note "$what: exit $RC: $(head -n 1 "$T/stderr")"
}
check "unknown command" no-such-command
check "prove with too few arguments" prove "$d/circuit.zkey" "$d/witness.wtns"
check "prove with too many arguments" prove "$d/circuit.zkey" "$d/witness.wtns" "$T/a.json" "$T/b.json" "$T/c.json"
check "prove with a bad --threads value" prove --threads zero "$d/circuit.zkey" "$d/witness.wtns" "$T/a.json" "$T/b.json"
[ ! -e "$T/a.json" ] && [ ! -e "$T/b.json" ] || fail "a usage error wrote an output file"
