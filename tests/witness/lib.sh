# Shared by the witness tests: a scratch directory removed on exit, and
# checks that print what failed.  Needs WITNESS_CALC, G16_SNARKJS,
# WITNESS_DATA and WITNESS_CACHE from CMake.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# snarkjs's witness for wasm and input into out.
snarkjs_wtns() { "$G16_SNARKJS" wtns calculate "$1" "$2" "$3" >/dev/null; }

# expect_error NAME WASM INPUT MESSAGE: the calculation fails, its one-line
# error contains MESSAGE, and no output file is left.
expect_error() {
  local name=$1 wasm=$2 input=$3 message=$4 out=$tmp/$1.wtns
  if "$WITNESS_CALC" "$wasm" "$input" "$out" "$WITNESS_CACHE" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
    fail "$name: succeeded"
  elif ! grep -qF -- "$message" "$tmp/$name.err"; then
    fail "$name: expected '$message', got: $(cat "$tmp/$name.err")"
  elif [ "$(wc -l <"$tmp/$name.err")" -ne 1 ]; then
    fail "$name: error is not one line: $(cat "$tmp/$name.err")"
  elif [ -e "$out" ]; then
    fail "$name: left $out behind"
  else
    echo "ok $name: $(cat "$tmp/$name.err")"
  fi
}

# cli_fails NAME MESSAGE OUTPUTS... -- COMMAND...: exit 1, one line naming
# MESSAGE, none of OUTPUTS exists afterwards.
cli_fails() {
  local name=$1 message=$2; shift 2
  local outs=()
  while [ "$1" != -- ]; do outs+=("$1"); shift; done; shift
  local rc=0; "$@" >/dev/null 2>"$tmp/err" || rc=$?
  [ "$rc" = 1 ] || { fail "$name: exit $rc: $(cat "$tmp/err")"; return; }
  grep -qF -- "$message" "$tmp/err" || { fail "$name: expected '$message', got: $(cat "$tmp/err")"; return; }
  [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$name: not one line: $(cat "$tmp/err")"
  for o in "${outs[@]}"; do [ ! -e "$o" ] || fail "$name: left $o"; done
  echo "ok $name: $(cat "$tmp/err")"
}

finish() {
  if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
  echo "all passed"
}
