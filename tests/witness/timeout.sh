#!/usr/bin/env bash
# timeout.sh: a circuit that never ends for one input (data/loop.circom,
# compiled here with circom2) is stopped at the time limit.  Through the
# CLI: exit 1, one line naming the wasm and the limit, no output file,
# and the good input still computes snarkjs's witness and a proof that
# verifies; through the library: test_timeout (same thread and circuit
# after a timeout, a second thread beside it, a start function that runs
# past the limit in a calculation's new instance).
. "$(dirname "$0")/lib.sh"
CIRCOM=$(dirname "$G16_SNARKJS")/circom2
[ -x "$CIRCOM" ] || { fail "circom2 not found at $CIRCOM (make deps)"; finish; }
cp "$WITNESS_DATA/loop.circom" "$tmp/"
(cd "$tmp" && "$CIRCOM" loop.circom --r1cs --wasm --O0 -o "$tmp" >"$tmp/circom.log" 2>&1) ||
  { fail "circom2: $(cat "$tmp/circom.log")"; finish; }
wasm=$tmp/loop.wasm
cp "$tmp/loop_js/loop.wasm" "$wasm"
echo '{"x": 10, "y": 3}' >"$tmp/good.json"
echo '{"x": 7, "y": 3}' >"$tmp/loop.json"
snarkjs_wtns "$wasm" "$tmp/good.json" "$tmp/good.snarkjs"
c=(--cache-dir "$WITNESS_CACHE")

wat2wasm "$WITNESS_DATA/start_loop.wat" -o "$tmp/start_loop.wasm"
"$TEST_TIMEOUT" "$wasm" "$tmp/good.snarkjs" "$WITNESS_CACHE" "$tmp/start_loop.wasm" || fail "test_timeout"

for cmd in "wtns calculate" fullprove; do
  # shellcheck disable=SC2086
  "$G16" $cmd --help >"$tmp/help"
  grep -q -- '--witness-timeout S' "$tmp/help" || fail "g16 $cmd --help: no --witness-timeout"
  grep -q -- '(default 600; 0: no limit)' "$tmp/help" || fail "g16 $cmd --help: no default"
  for v in -1 x "" nan inf 1e3; do
    # shellcheck disable=SC2086
    rc=0; "$G16" $cmd --witness-timeout "$v" a b c d e >/dev/null 2>&1 || rc=$?
    [ "$rc" = 2 ] || fail "g16 $cmd --witness-timeout '$v': exit $rc, not 2"
  done
done
limit="$wasm: the witness calculation ran past its time limit of 1.5 s"
cli_fails wtns_loop "$limit" "$tmp/o.wtns" -- \
  "$G16" wtns calculate "${c[@]}" --witness-timeout 1.5 "$wasm" "$tmp/loop.json" "$tmp/o.wtns"
"$G16" setup --insecure-dev "$tmp/loop.r1cs" "$tmp/loop.zkey" >/dev/null 2>&1 || fail "g16 setup of loop.r1cs"
cli_fails fullprove_loop "$limit" "$tmp/p.json" "$tmp/q.json" -- \
  "$G16" fullprove "${c[@]}" --witness-timeout 1.5 "$tmp/loop.json" "$wasm" "$tmp/loop.zkey" "$tmp/p.json" "$tmp/q.json"
# The same limit lets the good input through.
"$G16" wtns calculate "${c[@]}" --witness-timeout 1.5 "$wasm" "$tmp/good.json" "$tmp/good.wtns" ||
  fail "good input under the limit"
cmp -s "$tmp/good.wtns" "$tmp/good.snarkjs" || fail "good input: witness differs from snarkjs"
"$G16" fullprove "${c[@]}" --witness-timeout 1.5 "$tmp/good.json" "$wasm" "$tmp/loop.zkey" "$tmp/p.json" "$tmp/q.json" ||
  fail "fullprove of the good input"
"$G16" export-vk "$tmp/loop.zkey" "$tmp/vk.json" || fail "g16 export-vk"
"$G16_SNARKJS" groth16 verify "$tmp/vk.json" "$tmp/q.json" "$tmp/p.json" >/dev/null ||
  fail "the good input's proof does not verify"
finish
