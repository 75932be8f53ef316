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

finish() {
  if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
  echo "all passed"
}
