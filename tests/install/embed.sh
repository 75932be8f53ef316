#!/usr/bin/env bash
# The installed tree as a user sees it: `cmake --install` into a temporary
# prefix, then examples/embed/embed.c built with nothing but
# `pkg-config --cflags --libs g16` (shared, and static with --static), run on
# fixtures of both curves; each proof is checked with the installed
# `g16 verify` and with snarkjs.  Also: the installed programs start,
# libg16.so exports the public API and nothing of the internals, the
# profiler and the daemon's client are libraries of their own
# (libg16_memwatch, libg16_client: pkg-config files, own exports, a
# program on them alone), and the headers' contract holds: a dropped
# g16_status or a NULL where a pointer is required fails a -Werror build.
set -euo pipefail
: "${G16_BUILD:?}" "${G16_SOURCE:?}" "${G16_FIXTURES:?}" "${G16_SNARKJS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$G16_BUILD" --prefix "$tmp/prefix" >/dev/null
export PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig
libdir=$(pkg-config --variable=libdir g16) || fail "pkg-config does not find g16.pc"
# Version 1: the error contract of g16_status.h changed the ABI.
for lib in g16 g16_memwatch g16_client; do
  pkg-config --exists $lib || fail "pkg-config does not find $lib.pc"
  [ -f "$libdir/lib$lib.so.1" ] || fail "no lib$lib.so.1 (SONAME) in $libdir"
  soname=$(objdump -p "$libdir/lib$lib.so" | awk '$1 == "SONAME" {print $2}')
  [ "$soname" = lib$lib.so.1 ] || fail "SONAME is '$soname', expected lib$lib.so.1"
done
exports_of() { nm -D --defined-only "$libdir/lib$1.so" | awk '$2 ~ /^[TDB]$/ {print $3}'; }

# libg16 exports g16_* and nothing else: never a module's internal
# functions (formats_, zkey_, msm_, ...), nor the profiler's (mw_) or the
# client's, which are in libraries of their own, exporting only theirs.
exports=$(exports_of g16)
grep -qx g16_prove <<<"$exports" || fail "g16_prove not exported"
bad=$(echo "$exports" | grep -Ev '^g16_' || true)
bad+=$(echo "$exports" | grep -E '^g16_client_' || true)
[ -z "$bad" ] || fail "libg16 exports what is not its own: $(echo $bad | head -c 300)"
exports=$(exports_of g16_memwatch)
grep -qx mw_open <<<"$exports" || fail "mw_open not exported by libg16_memwatch"
bad=$(echo "$exports" | grep -Ev '^mw_' || true)
[ -z "$bad" ] || fail "libg16_memwatch exports: $(echo $bad | head -c 300)"
exports=$(exports_of g16_client)
grep -qx g16_client_request <<<"$exports" || fail "g16_client_request not exported by libg16_client"
bad=$(echo "$exports" | grep -Ev '^g16_client_' || true)
[ -z "$bad" ] || fail "libg16_client exports: $(echo $bad | head -c 300)"

# A sanitized build's library needs the sanitizer runtime in the program too.
san=()
[ "${G16_SANITIZED:-0}" = 1 ] && san=(-fsanitize=address,undefined)
cc=${CC:-cc}
"$cc" -Wall -Wextra -Werror "${san[@]}" "$G16_SOURCE/examples/embed/embed.c" \
  $(pkg-config --cflags --libs g16) -Wl,-rpath,"$libdir" -o "$tmp/embed"
# (ldd's output is captured first: grep -q would close the pipe early and
# pipefail would count ldd's SIGPIPE as a failure.)
deps=$(ldd "$tmp/embed")
grep -q "$libdir/libg16.so.1" <<<"$deps" || fail "embed does not use the installed libg16.so"
if [ "${G16_SANITIZED:-0}" != 1 ]; then
  "$cc" -Wall -Wextra -Werror "$G16_SOURCE/examples/embed/embed.c" $(pkg-config --cflags g16) \
    $(pkg-config --static --libs-only-L g16) -Wl,-Bstatic -lg16 -Wl,-Bdynamic \
    $(pkg-config --static --libs-only-l g16 | sed 's/-lg16 //') -o "$tmp/embed-static"
  deps=$(ldd "$tmp/embed-static")
  ! grep -q libg16 <<<"$deps" || fail "embed-static still needs libg16.so"
fi

# The profiler and the client alone: built without libg16, and working.
"$cc" -Wall -Wextra -Werror "${san[@]}" "$G16_SOURCE/tests/install/side_libs.c" \
  $(pkg-config --cflags --libs g16_memwatch g16_client) -Wl,-rpath,"$libdir" -o "$tmp/side_libs"
deps=$(ldd "$tmp/side_libs")
! grep -q "libg16\.so" <<<"$deps" || fail "side_libs needs libg16.so"
"$tmp/side_libs" "$tmp/no-daemon.sock" >/dev/null || fail "side_libs failed"

# The headers' contract, as a -Werror build sees it: case 0 keeps it and
# compiles; each other case drops a g16_status or passes NULL for a
# required pointer, and the compiler refuses it for that reason.
contract() {
  "$cc" -Wall -Wextra -Werror -DCASE="$1" -c "$G16_SOURCE/tests/install/drop_status.c" \
    $(pkg-config --cflags g16 g16_memwatch g16_client) -o "$tmp/drop_status.o" 2>&1
}
out=$(contract 0) || fail "drop_status.c case 0 does not compile: $out"
for case in 1 2 3 4 5 6; do
  if out=$(contract $case); then fail "drop_status.c case $case compiled: the contract is not enforced"; fi
  grep -Eq 'unused-result|nonnull' <<<"$out" || fail "drop_status.c case $case failed for another reason: $out"
done

"$tmp/prefix/bin/g16" --help >/dev/null || fail "installed g16 does not start"
"$tmp/prefix/bin/g16d" --help >/dev/null || fail "installed g16d does not start"
"$tmp/prefix/bin/memwatch" --help >/dev/null || fail "installed memwatch does not start"

for fx in bn128/multiplier bls12381/pubmany bn128/merkle; do
  d=$G16_FIXTURES/$fx
  for prog in "$tmp/embed" "$tmp/embed-static"; do
    [ -x "$prog" ] || continue
    out=$tmp/$(basename "$prog")-${fx//\//-}
    "$prog" "$d/circuit.zkey" "$d/witness.wtns" "$out.public.json" > "$out.proof.json" \
      || fail "$prog on $fx"
    "$tmp/prefix/bin/g16" verify "$d/verification_key.json" "$out.public.json" "$out.proof.json" \
      >/dev/null || fail "g16 verify rejects $prog's proof of $fx"
    "$G16_SNARKJS" groth16 verify "$d/verification_key.json" "$out.public.json" \
      "$out.proof.json" > "$out.snarkjs" && grep -q OK "$out.snarkjs" || fail "snarkjs rejects $prog's proof of $fx"
  done
done

# Errors reach the embedding program as the library's one-line message.
if "$tmp/embed" "$G16_FIXTURES/bn128/multiplier/circuit.zkey" \
     "$G16_FIXTURES/bls12381/multiplier/witness.wtns" "$tmp/x.json" > "$tmp/x.proof" 2> "$tmp/err"; then
  fail "a BLS12-381 witness was proved with a BN254 key"
fi
grep -q "witness.wtns" "$tmp/err" || fail "error does not name the witness: $(cat "$tmp/err")"
[ ! -e "$tmp/x.json" ] || fail "public.json written on error"
echo "install + pkg-config + embed: OK"
