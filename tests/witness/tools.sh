#!/usr/bin/env bash
# tools.sh: a circuit is compiled with the C compiler and wasm2c libg16
# was configured with, or those `g16 wtns calculate --cc/--wasm2c` name,
# never with what PATH finds: a PATH whose cc and wasm2c fail changes
# nothing; --cc runs the compiler it names (a wrapper that leaves a mark);
# a bare name or a missing path fails with one line naming it.
. "$(dirname "$0")/lib.sh"
dir=$G16_FIXTURES/bn128/multiplier
real_cc=$(command -v cc)

mkdir "$tmp/bin"
for t in cc gcc wasm2c; do
  printf '#!/bin/sh\necho "the PATH %s ran" >&2\nexit 3\n' "$t" >"$tmp/bin/$t"
  chmod +x "$tmp/bin/$t"
done
mkdir -m 700 "$tmp/cache-path" "$tmp/cache-cc" "$tmp/cache-bad"
PATH="$tmp/bin:$PATH" "$G16" wtns calculate --cache-dir "$tmp/cache-path" --verbose \
  "$dir/circuit.wasm" "$dir/input.json" "$tmp/path.wtns" >/dev/null 2>"$tmp/path.err" \
  || fail "a PATH with failing tools broke the compile: $(cat "$tmp/path.err")"
cmp -s "$tmp/path.wtns" "$dir/witness.wtns" || fail "PATH case: not the fixture's witness"
grep -q "compiled" "$tmp/path.err" || fail "PATH case: the circuit was not compiled: $(cat "$tmp/path.err")"

printf '#!/bin/sh\necho ran >>"%s"\nexec "%s" "$@"\n' "$tmp/mycc.log" "$real_cc" >"$tmp/mycc"
chmod +x "$tmp/mycc"
"$G16" wtns calculate --cache-dir "$tmp/cache-cc" --cc "$tmp/mycc" --verbose \
  "$dir/circuit.wasm" "$dir/input.json" "$tmp/cc.wtns" >/dev/null 2>"$tmp/cc.err" \
  || fail "--cc wrapper: $(cat "$tmp/cc.err")"
[ -s "$tmp/mycc.log" ] || fail "--cc $tmp/mycc was not run"
grep -qF "tools $tmp/mycc," "$tmp/cc.err" || fail "--verbose does not name the --cc tool: $(cat "$tmp/cc.err")"
cmp -s "$tmp/cc.wtns" "$dir/witness.wtns" || fail "--cc case: not the fixture's witness"

cli_fails bare_name "the compiler tool 'cc' is no path" "$tmp/o.wtns" -- \
  "$G16" wtns calculate --cache-dir "$tmp/cache-bad" --cc cc "$dir/circuit.wasm" "$dir/input.json" "$tmp/o.wtns"
cli_fails missing "cannot run $tmp/absent/wasm2c" "$tmp/o.wtns" -- \
  "$G16" wtns calculate --cache-dir "$tmp/cache-bad" --wasm2c "$tmp/absent/wasm2c" "$dir/circuit.wasm" "$dir/input.json" "$tmp/o.wtns"
finish
