#!/bin/bash
# On the GPU machine: builds g16, g16d and the GPU tests and benchmarks in
# build-gpu against the headers and libraries carried in .devlib and .deps
# (bench/gpu/devlib_prepare.sh); logs under $OUT.  Run the binaries with
# LD_LIBRARY_PATH=$PWD/.deps/lib:$PWD/.devlib/lib.
set -u
R=$PWD
OUT=${OUT:-/tmp}
mkdir -p /tmp/fz && echo '#define ZLIB_VERSION "1.3.0"' >/tmp/fz/zlib.h
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DG16_REQUIRE_DEPS=OFF \
  -DCMAKE_INCLUDE_PATH="$R/.devlib/inc;$R/.deps/inc" -DCMAKE_LIBRARY_PATH="$R/.devlib/lib;$R/.deps/lib" \
  -DG16_WASM2C_PROGRAM="$R/.devlib/bin/wasm2c" -DG16_WASM2C_RUNTIME_DIR="$R/.devlib/wasm2c" \
  -DZLIB_INCLUDE_DIR=/tmp/fz -DZLIB_LIBRARY=/usr/lib/x86_64-linux-gnu/libz.so.1 \
  -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$R/.devlib/lib:$R/.deps/lib" \
  -DCMAKE_SHARED_LINKER_FLAGS="-Wl,-rpath-link,$R/.devlib/lib:$R/.deps/lib" >"$OUT/cfg.log" 2>&1 ||
  { tail -20 "$OUT/cfg.log"; exit 1; }
cmake --build build-gpu --target g16 g16d test_gpu bench_gpu test_prover bench_field -j16 >"$OUT/build.log" 2>&1 ||
  { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
ls build-gpu/bin
