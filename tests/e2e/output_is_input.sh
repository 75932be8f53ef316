#!/usr/bin/env bash
# output_is_input.sh: a command whose output names one of its inputs --
# the same path, another spelling of it, a hard link to it, or an input
# that is a symlink to it (the file or its folder) -- refuses with one line
# naming both, before any work: nothing written, the input byte-identical
# (they used to replace the input with the output and exit 0: `g16
# export-vk k.zkey k.zkey` left the verification key where the proving key
# was).  An output that is a symlink to an input replaces the link, not the
# input, and is allowed.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_g16
d=$(fixture bn128 multiplier)
in=$T/in
mkdir -p "$in" "$T/out"
for f in circuit.zkey witness.wtns circuit.wasm input.json verification_key.json circuit.r1cs; do
  cp "$d/$f" "$in/$f"
done
ln -s "$in" "$T/inlink"

# refused WHAT OUTPUT INPUT ARGS...: g16 ARGS refuses OUTPUT being INPUT;
# every file of $in is unchanged.
refused() {
  local what=$1 out=$2 input=$3 before
  shift 3
  before=$(dir_listing "$in")
  expect_clean_failure "$what" "$out" "$@"
  grep -qF "output $out and input $input are the same file" "$T/stderr" ||
    { show_run; fail "$what: the error does not name output $out and input $input"; }
  [ "$(dir_listing "$in")" = "$before" ] || { dir_listing "$in" >&2; fail "$what: an input changed"; }
  for f in "$in"/*; do # the copies of the fixture's files (not the links made to them)
    [ -L "$f" ] || [ ! -e "$d/$(basename "$f")" ] || cmp -s "$f" "$d/$(basename "$f")" ||
      fail "$what: $f is not the fixture's any more"
  done
}

k=$in/circuit.zkey w=$in/witness.wtns c=$in/circuit.wasm i=$in/input.json v=$in/verification_key.json
refused "export-vk KEY KEY" "$k" "$k" export-vk "$k" "$k"
refused "export-vk KEY ./KEY" "$in/./circuit.zkey" "$k" export-vk "$k" "$in/./circuit.zkey"
refused "prove ... PUBLIC = WITNESS" "$w" "$w" prove "$k" "$w" "$T/out/proof.json" "$w"
refused "prove ... PROOF = KEY" "$k" "$k" prove "$k" "$w" "$k" "$T/out/public.json"
refused "fullprove ... PROOF = KEY" "$k" "$k" \
  fullprove --cache-dir "$T/cache" "$i" "$c" "$k" "$k" "$T/out/public.json"
refused "fullprove ... PUBLIC = INPUT" "$i" "$i" \
  fullprove --cache-dir "$T/cache" "$i" "$c" "$k" "$T/out/proof.json" "$i"
refused "wtns calculate ... WITNESS = CIRCUIT" "$c" "$c" \
  wtns calculate --cache-dir "$T/cache" "$c" "$i" "$c"
refused "wtns calculate ... WITNESS = INPUT" "$i" "$i" \
  wtns calculate --cache-dir "$T/cache" "$c" "$i" "$i"
refused "export solidityverifier VK VK" "$v" "$v" export solidityverifier "$v" "$v"
refused "setup CIRCUIT CIRCUIT" "$in/circuit.r1cs" "$in/circuit.r1cs" \
  setup --insecure-dev "$in/circuit.r1cs" "$in/circuit.r1cs"
[ ! -e "$T/cache" ] || fail "a refused command compiled the circuit"

# relative to the working folder: run_g16 runs in $T/cwd
cp "$d/verification_key.json" "$T/cwd/vk.json"
refused "export solidityverifier vk.json ./vk.json" "./vk.json" "vk.json" \
  export solidityverifier vk.json ./vk.json
rm "$T/cwd/vk.json"

# a hard link to an input is that input's file
ln "$k" "$in/hard.zkey"
refused "export-vk KEY HARDLINK" "$in/hard.zkey" "$k" export-vk "$k" "$in/hard.zkey"
refused "prove ... PUBLIC = HARDLINK of KEY" "$in/hard.zkey" "$k" \
  prove "$k" "$w" "$T/out/proof.json" "$in/hard.zkey"
rm "$in/hard.zkey"

# an input that is a symlink to the output, or read through a symlinked folder
ln -s circuit.zkey "$in/link.zkey"
refused "export-vk SYMLINK KEY" "$k" "$in/link.zkey" export-vk "$in/link.zkey" "$k"
rm "$in/link.zkey"
refused "prove through a symlinked folder" "$w" "$T/inlink/witness.wtns" \
  prove "$k" "$T/inlink/witness.wtns" "$T/out/proof.json" "$w"

# the output a symlink to an input: the link is replaced, the input stays
ln -s "$w" "$T/out/public.json"
run_g16 prove "$k" "$w" "$T/out/proof.json" "$T/out/public.json"
[ "$RC" = 0 ] || { show_run; fail "an output that is a symlink to an input: exit $RC"; }
[ -f "$T/out/public.json" ] && [ ! -L "$T/out/public.json" ] || fail "the symlink output was not replaced"
cmp -s "$w" "$d/witness.wtns" || fail "the witness behind the replaced symlink changed"
"$G16" verify "$d/verification_key.json" "$T/out/public.json" "$T/out/proof.json" >/dev/null ||
  fail "the proof written over a symlink does not verify"
rm "$T/out/proof.json" "$T/out/public.json"

# client memory: the CSV (-o) and its plot (--plot) are two outputs;
# refused before the daemon is asked
G16D_SOCKET=$T/no-daemon.sock expect_clean_failure "client memory -o X --plot X" "$T/out/m" \
  client memory -o "$T/out/m" --plot "$T/out/m"
grep -qF "are the same file" "$T/stderr" || { show_run; fail "client memory: unclear error"; }
