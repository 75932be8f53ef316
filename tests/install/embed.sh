#!/usr/bin/env bash
# The installed tree as a user sees it: `cmake --install` into a temporary
# prefix, then examples/embed/embed.c built with nothing but
# `pkg-config --cflags --libs g16` (shared, and static with --static), run on
# fixtures of both curves; each proof is checked with the installed
# `g16 verify` and with snarkjs.  Also: the installed programs start, and
# libg16.so exports the public API and nothing of the internals.
set -euo pipefail
: "${G16_BUILD:?}" "${G16_SOURCE:?}" "${G16_FIXTURES:?}" "${G16_SNARKJS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$G16_BUILD" --prefix "$tmp/prefix" >/dev/null
export PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig
libdir=$(pkg-config --variable=libdir g16) || fail "pkg-config does not find g16.pc"
[ -f "$libdir/libg16.so.0" ] || fail "no libg16.so.0 (SONAME) in $libdir"
soname=$(objdump -p "$libdir/libg16.so" | awk '$1 == "SONAME" {print $2}')
[ "$soname" = libg16.so.0 ] || fail "SONAME is '$soname', expected libg16.so.0"

# Exported: g16_* and the public memwatch / client calls; never a module's
# internal functions (formats_, zkey_, msm_, ...).
exports=$(nm -D --defined-only "$libdir/libg16.so" | awk '$2 ~ /^[TDB]$/ {print $3}')
grep -qx g16_prove <<<"$exports" || fail "g16_prove not exported"
bad=$(echo "$exports" | grep -Ev '^(g16_|mw_|hc_)' || true)
[ -z "$bad" ] || fail "internal symbols exported: $(echo $bad | head -c 300)"

# A sanitized build's library needs the sanitizer runtime in the program too.
san=()
[ "${G16_SANITIZED:-0}" = 1 ] && san=(-fsanitize=address,undefined)
cc=${CC:-cc}
"$cc" -Wall -Wextra -Werror "${san[@]}" "$G16_SOURCE/examples/embed/embed.c" \
  $(pkg-config --cflags --libs g16) -Wl,-rpath,"$libdir" -o "$tmp/embed"
# (ldd's output is captured first: grep -q would close the pipe early and
# pipefail would count ldd's SIGPIPE as a failure.)
deps=$(ldd "$tmp/embed")
grep -q "$libdir/libg16.so.0" <<<"$deps" || fail "embed does not use the installed libg16.so"
if [ "${G16_SANITIZED:-0}" != 1 ]; then
  "$cc" -Wall -Wextra -Werror "$G16_SOURCE/examples/embed/embed.c" $(pkg-config --cflags g16) \
    $(pkg-config --static --libs-only-L g16) -Wl,-Bstatic -lg16 -Wl,-Bdynamic \
    $(pkg-config --static --libs-only-l g16 | sed 's/-lg16 //') -o "$tmp/embed-static"
  deps=$(ldd "$tmp/embed-static")
  ! grep -q libg16 <<<"$deps" || fail "embed-static still needs libg16.so"
fi

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
