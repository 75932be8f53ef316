#!/usr/bin/env bash
# same_output.sh: `g16 prove` and `g16 fullprove` refuse PROOF and PUBLIC
# naming one file -- the same path, another spelling of it (".", "..", a
# symlinked directory, relative to the working directory) or a hard link
# to it -- with one line naming both, before any work and writing nothing
# (they used to exit 0 with one of the two outputs lost).  Two distinct
# files, one a symlink to the other, are still two outputs.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_g16
d=$(fixture bn128 multiplier)
mkdir -p "$T/out" "$T/cwd"
ln -s "$T/out" "$T/link"

# refused A B: both commands refuse A and B as one file.
refused() {
  expect_clean_failure "prove $1 $2" "$2" prove "$d/circuit.zkey" "$d/witness.wtns" "$1" "$2"
  grep -qF "are the same file" "$T/stderr" || { show_run; fail "prove $1 $2: unclear error"; }
  expect_clean_failure "fullprove $1 $2" "$2" \
    fullprove --cache-dir "$T/cache" "$d/input.json" "$d/circuit.wasm" "$d/circuit.zkey" "$1" "$2"
  grep -qF "are the same file" "$T/stderr" || { show_run; fail "fullprove $1 $2: unclear error"; }
  note "refused: $(cat "$T/stderr")"
}

refused "$T/out/p.json" "$T/out/p.json"
refused "$T/out/p.json" "$T/out/../out/./p.json"
refused "$T/link/p.json" "$T/out/p.json"
refused "p.json" "$T/cwd/p.json"
echo '{}' >"$T/out/a.json"
ln "$T/out/a.json" "$T/out/b.json"
refused "$T/out/a.json" "$T/out/b.json"
refused "$T/link/a.json" "$T/out/a.json"

# distinct files: one a symlink to the other is replaced, not written through
rm "$T/out/b.json"
ln -s a.json "$T/out/b.json"
run_g16 prove "$d/circuit.zkey" "$d/witness.wtns" "$T/out/a.json" "$T/out/b.json"
[ "$RC" = 0 ] || { show_run; fail "two outputs, one a symlink to the other: exit $RC"; }
[ -f "$T/out/b.json" ] && [ ! -L "$T/out/b.json" ] || fail "the symlink output was not replaced"
"$G16" verify "$d/verification_key.json" "$T/out/b.json" "$T/out/a.json" >/dev/null ||
  fail "the proof of two outputs with a symlink does not verify"
