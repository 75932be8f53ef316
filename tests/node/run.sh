#!/usr/bin/env bash
# The Node.js package as a user builds it: this build's library installed
# into a temporary prefix (cmake --install), a copy of bindings/node built
# there by `npm install` (offline: the package has no dependencies, and its
# install script compiles the addon against `pkg-config g16` and the running
# Node's own headers, -Werror here), then the package's node --test suite
# on the fixtures, with snarkjs from tools/node_modules.
set -euo pipefail
: "${G16_BUILD:?}" "${G16_SOURCE:?}" "${G16_FIXTURES:?}" "${G16_TOOLS:?}" "${G16_WITNESS_CACHE:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$G16_BUILD" --prefix "$tmp/prefix" >/dev/null
pkg=$tmp/pkg
mkdir "$pkg"
src=$G16_SOURCE/bindings/node
cp -r "$src/package.json" "$src/index.js" "$src/index.d.ts" "$src/scripts" "$src/src" "$src/test" "$pkg/"
cflags=-Werror
if [ "${G16_SANITIZED:-0}" = 1 ]; then
  cflags+=" -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
fi
(cd "$pkg" && PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig CFLAGS=$cflags HOME=$tmp \
  npm install --offline --no-audit --no-fund --foreground-scripts --loglevel=error) \
  || fail "npm install did not build the addon"
deps=$(ldd "$pkg/build/Release/g16.node")
grep -q "$tmp/prefix/lib/libg16.so" <<<"$deps" || fail "the addon does not use the installed libg16.so"

# Circuits compiled by the witness tests are reused: the package's default
# cache is $XDG_CACHE_HOME/g16.
mkdir -p "$G16_WITNESS_CACHE" "$tmp/xdg"
ln -s "$G16_WITNESS_CACHE" "$tmp/xdg/g16"
env=(XDG_CACHE_HOME="$tmp/xdg" G16_FIXTURES="$G16_FIXTURES"
     G16_SNARKJS_MODULE="$G16_TOOLS/node_modules/snarkjs" G16_CLI="$tmp/prefix/bin/g16")
if [ "${G16_SANITIZED:-0}" = 1 ]; then
  # The library and the addon are instrumented, node is not: the sanitizer
  # runtimes must be loaded first; V8 keeps memory to the end, so leaks
  # are not checked.
  cc=${CC:-cc}
  env+=(LD_PRELOAD="$("$cc" -print-file-name=libasan.so) $("$cc" -print-file-name=libubsan.so)"
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
fi
cd "$pkg"
env "${env[@]}" node --test test/*.test.js
