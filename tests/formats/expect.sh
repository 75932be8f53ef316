#!/bin/sh
# expect.sh RC REGEX CMD ARGS...: CMD must exit with RC and its combined
# stdout+stderr must match the extended REGEX (grep -E, per line).
want_rc=$1; pattern=$2; shift 2
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
if [ "$rc" != "$want_rc" ]; then
  echo "expect.sh: exit status $rc, wanted $want_rc" >&2; exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
  echo "expect.sh: output does not match: $pattern" >&2; exit 1
fi
