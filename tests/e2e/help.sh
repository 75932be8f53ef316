#!/usr/bin/env bash
# help.sh: `g16 --help` and `g16 prove --help` exit 0 and give the argument
# order KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json; prove --help also
# documents --threads.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for args in "--help" "prove --help"; do
  # shellcheck disable=SC2086
  run_g16 $args
  [ "$RC" -eq 0 ] || { show_run; fail "g16 $args exited $RC"; }
  cat "$T/stdout" "$T/stderr" >"$T/all"
  grep -Eiq 'zkey.*wtns.*proof.*public' "$T/all" || {
    show_run
    fail "g16 $args does not show the argument order (KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json)"
  }
  if [ "$args" = "prove --help" ]; then
    grep -q -- '--threads' "$T/all" || { show_run; fail "g16 $args does not mention --threads"; }
  fi
  note "g16 $args: ok"
done
