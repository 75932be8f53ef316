# shellcheck shell=bash
# Sourced by tests/witness/circomlib.sh and bench/witness/circomlib.sh:
# circomlib_wasm NAME PRIME BIN STORE WORK prints the path of the wasm of
# circuit NAME for PRIME (bn128 or bls12381): NAME_test.circom beside this
# file compiled with BIN/circom2 over BIN/../circomlib (the pinned tools)
# and kept in STORE under a name that holds the source's, the prime's and
# the tools' versions' digest, so each is compiled once; WORK is a scratch
# directory.  With no NAME_test.circom, the fixture
# $G16_FIXTURES/PRIME/NAME/circuit.wasm.
circomlib_src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
circomlib_wasm() {
  local name=$1 prime=$2 bin store=$4 work=$5 src=$circomlib_src/$1_test.circom key
  bin=$(cd "$3" && pwd)
  if [ ! -e "$src" ]; then echo "$G16_FIXTURES/$prime/$name/circuit.wasm"; return; fi
  key=$( (cat "$src"; echo "$prime"; grep -h '"version"' "$bin/../circom2/package.json" "$bin/../circomlib/package.json") |
    sha256sum | cut -c1-16)
  local wasm=$store/${name}_test-$prime-$key.wasm
  if [ ! -e "$wasm" ]; then
    # circom2 (WebAssembly under WASI) reads only below its working
    # directory and follows no link: a copy of circomlib's circuits
    mkdir -p "$work"
    [ -d "$work/lib" ] || cp -r "$bin/../circomlib/circuits" "$work/lib"
    cp "$src" "$work/"
    (cd "$work" && "$bin/circom2" "${name}_test.circom" --wasm -l lib -p "$prime" -o . >"$work/circom.log" 2>&1) ||
      { echo "circom2 $name ($prime): $(tail -5 "$work/circom.log")" >&2; return 1; }
    mkdir -p "$store"
    cp "$work/${name}_test_js/${name}_test.wasm" "$wasm.tmp.$$" && mv "$wasm.tmp.$$" "$wasm"
  fi
  echo "$wasm"
}
