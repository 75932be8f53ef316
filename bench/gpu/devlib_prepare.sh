#!/bin/bash
# Fills .devlib/ (git-ignored) on the development machine (Debian 12) with
# what building g16d and the witness calculator needs on the GPU machine,
# which has CUDA but no development headers and no libmicrohttpd or libpq:
#   .devlib/inc       microhttpd.h, sqlite3.h, libpq-fe.h (+ the two headers
#                     it includes), nettle/, xxhash.h, gmp.h, wasm-rt.h
#   .devlib/lib       g16d's shared libraries (its ldd closure minus glibc and
#                     jansson, which .deps/ carries), each with its .so link
#   .devlib/bin, wasm2c   wasm2c and its runtime sources
# Then carry [".deps", ".devfix", ".devlib"] and run bench/gpu/devlib_build.sh
# there.  usage: bash bench/gpu/devlib_prepare.sh BUILD_DIR (a build with g16d)
set -euo pipefail
B=${1:?usage: devlib_prepare.sh BUILD_DIR (a build with g16d)}
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
L=$ROOT/.devlib
git -C "$ROOT" check-ignore -q "$L/x" || { echo "devlib_prepare: $L is not git-ignored here" >&2; exit 1; }
[ -x "$B/bin/g16d" ] || { echo "devlib_prepare: $B/bin/g16d not found" >&2; exit 1; }
rm -rf "$L" && mkdir -p "$L/lib" "$L/inc/nettle" "$L/bin" "$L/wasm2c"
for so in $(ldd "$B/bin/g16d" | awk '/=>/ {print $3}' | grep -v -e libg16 -e libc.so -e libm.so -e libresolv -e libjansson); do
  cp -L "$so" "$L/lib/"
done
(cd "$L/lib" && for f in *.so.*; do ln -sf "$f" "${f%%.so*}.so"; done)
cp /usr/include/microhttpd.h /usr/include/sqlite3.h /usr/include/wasm-rt.h /usr/include/xxhash.h "$L/inc/"
cp /usr/include/postgresql/libpq-fe.h /usr/include/postgresql/postgres_ext.h \
  /usr/include/postgresql/pg_config_ext.h "$L/inc/"
cp /usr/include/nettle/*.h "$L/inc/nettle/"
cp /usr/include/x86_64-linux-gnu/gmp.h "$L/inc/"
cp "$(command -v wasm2c)" "$L/bin/"
cp -r /usr/share/wabt/wasm2c/. "$L/wasm2c/"
du -sh "$L"
