#!/usr/bin/env bash
# inputs.sh: input.json as snarkjs reads it (each accepted form gives
# snarkjs's witness byte for byte) and each kind of bad input or failing
# circuit gives a one-line error naming the file and the signal.
. "$(dirname "$0")/lib.sh"
wasm=$WITNESS_DATA/check.wasm
p=21888242871839275222246405745257275088548364400416034343698204186575808495617

same_as_snarkjs() {
  local name=$1 json=$2
  printf '%s\n' "$json" >"$tmp/$name.json"
  "$WITNESS_CALC" "$wasm" "$tmp/$name.json" "$tmp/$name.g16" "$WITNESS_CACHE" >/dev/null \
    || { fail "$name: failed"; return; }
  snarkjs_wtns "$wasm" "$tmp/$name.json" "$tmp/$name.snarkjs"
  if cmp -s "$tmp/$name.g16" "$tmp/$name.snarkjs"; then echo "ok $name"; else fail "$name: differs from snarkjs"; fi
}
same_as_snarkjs plain '{"a": 3, "b": [[1, 2], [3, 4]], "d": 2}'
same_as_snarkjs strings '{"a": "3", "b": [["0x1F", "0"], ["12345678901234567890123", "4"]], "d": "2"}'
same_as_snarkjs negative '{"a": -5, "b": [["-1", " -7 "], [-3, "+4"]], "d": 0}'
same_as_snarkjs at_least_p "{\"a\": \"$p\", \"b\": [[\"${p}1\", \"0x$(printf '%064x' 1)\"], [\"0b101\", \"0o17\"]], \"d\": 1}"
same_as_snarkjs other_forms '{"a": "", "b": [[true, false], [1e3, 2.0]], "d": " 1"}'
same_as_snarkjs flattened '{"a": 1, "b": [1, [2, [3]], 4], "d": 1}'

bad() { printf '%s\n' "$2" >"$tmp/$1.json"; expect_error "$1" "$wasm" "$tmp/$1.json" "$3"; }
bad unknown '{"a": 1, "b": [[1, 2], [3, 4]], "d": 1, "zz": 5}' "$tmp/unknown.json: unknown signal 'zz'"
bad missing '{"a": 1, "d": 1}' "$tmp/missing.json: a signal is missing (2 of the circuit's 6 input values given)"
bad too_few '{"a": 1, "b": [[1, 2], [3]], "d": 1}' "$tmp/too_few.json: signal 'b' has 3 values, the circuit expects 4"
bad too_many '{"a": 1, "b": [[1, 2], [3, 4, 5]], "d": 1}' "signal 'b' has 5 values, the circuit expects 4"
bad fraction '{"a": 1.5, "b": [[1, 2], [3, 4]], "d": 1}' "$tmp/fraction.json: signal 'a' value 0: not an integer ('1.5')"
bad word '{"a": 1, "b": [[1, 2], [3, "four"]], "d": 1}' "signal 'b' value 3: not an integer ('four')"
bad signed_hex '{"a": "-0x5", "b": [[1, 2], [3, 4]], "d": 1}' "signal 'a' value 0: not an integer ('-0x5')"
bad null '{"a": null, "b": [[1, 2], [3, 4]], "d": 1}' "signal 'a' value 0: null is not a number"
bad object '{"a": {"x": 1}, "b": [[1, 2], [3, 4]], "d": 1}' "signal 'a' value 0: an object is not a number"
bad malformed '{"a": 1, "b": [[1, 2], [3, 4]], "d": 1' "$tmp/malformed.json: line 2:"
bad not_object '[1, 2, 3]' "$tmp/not_object.json: not a JSON object of input signals"
bad assert '{"a": 12, "b": [[1, 2], [3, 4]], "d": 1}' "$wasm: assert failed: Error in template Check_0 line: 19"
bad recursion '{"a": 1, "b": [[1, 2], [3, 4]], "d": 1000000}' "$wasm: the calculator trapped: Call stack exhausted"
finish
