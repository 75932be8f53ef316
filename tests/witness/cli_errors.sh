#!/usr/bin/env bash
# cli_errors.sh: the CLI's usage and errors for wtns calculate and
# fullprove: --help texts, usage errors (exit 2), one-line errors naming
# the file (exit 1), and no output file left behind by a failure.
. "$(dirname "$0")/lib.sh"
dir=$G16_FIXTURES/bn128/multiplier
wasm=$WITNESS_DATA/check.wasm
c=(--cache-dir "$WITNESS_CACHE")

for cmd in "wtns --help" "wtns calculate --help" "fullprove --help"; do
  # shellcheck disable=SC2086
  "$G16" $cmd >"$tmp/help" || fail "g16 $cmd exited $?"
  grep -q 'cache-dir' "$tmp/help" || fail "g16 $cmd does not document --cache-dir"
done
grep -q 'INPUT.json CIRCUIT.wasm KEY.zkey PROOF.json PUBLIC.json' "$tmp/help" || fail "fullprove --help: argument order"

status() { "$@" >/dev/null 2>"$tmp/err"; echo $?; }
[ "$(status "$G16" wtns calculate "${c[@]}" a.wasm b.json)" = 2 ] || fail "missing argument: not exit 2"
[ "$(status "$G16" wtns calculate --bogus a b c)" = 2 ] || fail "unknown option: not exit 2"
[ "$(status "$G16" fullprove --device tpu a b c d e)" = 2 ] || fail "bad --device: not exit 2"
[ "$(status "$G16" wtns frobnicate)" = 2 ] || fail "unknown wtns subcommand: not exit 2"

printf '{"a": 12, "b": [[1, 2], [3, 4]], "d": 1}\n' >"$tmp/assert.json"
cli_fails assert "$wasm: assert failed: Error in template Check_0 line: 19" "$tmp/o.wtns" -- \
  "$G16" wtns calculate "${c[@]}" "$wasm" "$tmp/assert.json" "$tmp/o.wtns"
cli_fails no_input "$tmp/absent.json: No such file" "$tmp/o.wtns" -- \
  "$G16" wtns calculate "${c[@]}" "$wasm" "$tmp/absent.json" "$tmp/o.wtns"
cli_fails no_dir "$tmp/nodir/o.wtns" -- \
  "$G16" wtns calculate "${c[@]}" "$dir/circuit.wasm" "$dir/input.json" "$tmp/nodir/o.wtns"
printf '{"zz": 3}\n' >"$tmp/unknown.json"
cli_fails fullprove_unknown "$tmp/unknown.json: unknown signal 'zz'" "$tmp/p.json" "$tmp/q.json" -- \
  "$G16" fullprove "${c[@]}" "$tmp/unknown.json" "$dir/circuit.wasm" "$dir/circuit.zkey" "$tmp/p.json" "$tmp/q.json"
# A witness of another circuit (bls12381's multiplier: another field).
other=$G16_FIXTURES/bls12381/multiplier
cli_fails fullprove_other_curve "$dir/input.json" "$tmp/p.json" "$tmp/q.json" -- \
  "$G16" fullprove "${c[@]}" "$dir/input.json" "$other/circuit.wasm" "$dir/circuit.zkey" "$tmp/p.json" "$tmp/q.json"
cli_fails fullprove_public_nodir "$tmp/nodir/q.json" "$tmp/p.json" -- \
  "$G16" fullprove "${c[@]}" --device cpu "$dir/input.json" "$dir/circuit.wasm" "$dir/circuit.zkey" "$tmp/p.json" "$tmp/nodir/q.json"
# A start function that takes seconds: it runs when the circuit is opened,
# under --witness-timeout as the calculation is (the one calculation runs
# on the instance the open made; test_timeout: a second calculation's new
# instance runs it again).
wat2wasm "$WITNESS_DATA/start_loop.wat" -o "$tmp/start_loop.wasm"
echo '{}' >"$tmp/empty.json"
cli_fails start_loop_short "$tmp/start_loop.wasm: its start code ran past the time limit of 0.1 s" "$tmp/o.wtns" -- \
  "$G16" wtns calculate "${c[@]}" --witness-timeout 0.1 "$tmp/start_loop.wasm" "$tmp/empty.json" "$tmp/o.wtns"
"$G16" wtns calculate "${c[@]}" "$tmp/start_loop.wasm" "$tmp/empty.json" "$tmp/o.wtns" 2>"$tmp/err" ||
  fail "start_loop: $(cat "$tmp/err")"
[ -s "$tmp/o.wtns" ] || fail "start_loop: no witness written"
finish
