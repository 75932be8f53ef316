#!/usr/bin/env bash
# fixture.sh CURVE CIRCUIT: the library's witness for a fixture's
# circuit.wasm and input.json equals, byte for byte, the one snarkjs
# computes now and the fixture's witness.wtns.
. "$(dirname "$0")/lib.sh"
dir=$G16_FIXTURES/$1/$2
"$WITNESS_CALC" "$dir/circuit.wasm" "$dir/input.json" "$tmp/g16.wtns" "$WITNESS_CACHE" >/dev/null
snarkjs_wtns "$dir/circuit.wasm" "$dir/input.json" "$tmp/snarkjs.wtns"
cmp "$tmp/g16.wtns" "$tmp/snarkjs.wtns" || fail "differs from snarkjs's witness"
cmp "$tmp/g16.wtns" "$dir/witness.wtns" || fail "differs from the fixture's witness.wtns"
finish
