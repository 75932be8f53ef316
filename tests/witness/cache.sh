#!/usr/bin/env bash
# cache.sh: the compiled-circuit cache (a second open loads the entry
# without compiling and leaves it untouched; a damaged entry is rebuilt,
# never loaded) and .wasm files that are not circom calculators.
. "$(dirname "$0")/lib.sh"
wasm=$WITNESS_DATA/check.wasm
cache=$tmp/cache
printf '{"a": 3, "b": [[1, 2], [3, 4]], "d": 2}\n' >"$tmp/in.json"
snarkjs_wtns "$wasm" "$tmp/in.json" "$tmp/expected.wtns"

run() {  # run WHAT: prints compiled/cached, checks the witness
  "$WITNESS_CALC" "$wasm" "$tmp/in.json" "$tmp/out.wtns" "$cache" >"$tmp/run.out"
  cmp -s "$tmp/out.wtns" "$tmp/expected.wtns" || fail "$1: wrong witness"
  head -n1 "$tmp/run.out"
}
[ "$(run first)" = compiled ] || fail "first open did not compile"
# beside the calculator, the witness graph's tracing object (check.wasm
# logs, so no graph: docs/witness-graph.md)
entry=$(ls "$cache"/*.so | grep -v '\.trace\.so$')
[ "$(ls -A "$cache" | grep -vc '\.trace\.so$')" -eq 1 ] || fail "cache holds more than one entry: $(ls -A "$cache")"
stamp=$(stat -c '%i %Y %s' "$entry")
sleep 1
[ "$(run second)" = cached ] || fail "second open compiled again"
[ "$(stat -c '%i %Y %s' "$entry")" = "$stamp" ] || fail "second open rewrote the entry"

# Damage: one byte flipped inside the code, then the file truncated.
printf '\x55' | dd of="$entry" bs=1 seek=4000 conv=notrunc status=none
[ "$(run flipped)" = compiled ] || fail "a damaged entry was loaded"
truncate -s 1000 "$entry"
[ "$(run truncated)" = compiled ] || fail "a truncated entry was loaded"
[ "$(run after)" = cached ] || fail "the rebuilt entry was not reused"

head -c 1000 "$wasm" >"$tmp/truncated.wasm"
expect_error truncated_wasm "$tmp/truncated.wasm" "$tmp/in.json" "$tmp/truncated.wasm: not a valid WebAssembly module"
printf 'not wasm at all' >"$tmp/text.wasm"
expect_error text_wasm "$tmp/text.wasm" "$tmp/in.json" "$tmp/text.wasm: not a WebAssembly module"
wat2wasm "$WITNESS_DATA/not_circom.wat" -o "$tmp/other.wasm"
expect_error other_wasm "$tmp/other.wasm" "$tmp/in.json" "$tmp/other.wasm: not a circom witness calculator"
expect_error no_wasm "$tmp/absent.wasm" "$tmp/in.json" "$tmp/absent.wasm: No such file"
[ -z "$(ls -A "$cache" | grep -v '\.so$')" ] || fail "build leftovers in the cache: $(ls -A "$cache")"
finish
