#!/bin/sh
# One device-machine call: build (or use binaries carried in .gpubin/),
# run the gpu tests, then the benchmark; logs go to $OUT when set.
# Usage (from the repo root): sh bench/gpu/run_device.sh [log_n]
set -u
out=${OUT:-/tmp}
log_n=${1:-24}
if [ -x .gpubin/test_gpu ] && [ -x .gpubin/bench_gpu ]; then
  bin=.gpubin
else
  # The device machine lacks zlib.h, which tests/memwatch's find_package
  # needs at configure time; a stub satisfies it (nothing of ours uses it).
  mkdir -p /tmp/fz && echo '#define ZLIB_VERSION "1.3.0"' > /tmp/fz/zlib.h
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DZLIB_INCLUDE_DIR=/tmp/fz \
    -DZLIB_LIBRARY=/usr/lib/x86_64-linux-gnu/libz.so.1 > "$out/cfg.log" 2>&1 || { tail -20 "$out/cfg.log"; exit 1; }
  cmake --build build-gpu --target test_gpu bench_gpu -j16 > "$out/build.log" 2>&1 || {
    grep -E "error|Error" "$out/build.log" | head -30; exit 1; }
  bin=build-gpu/bin
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv,noheader
timeout 150 "$bin/test_gpu" 2>&1 | tee "$out/test.log"
timeout 200 "$bin/bench_gpu" "$log_n" 5 1 2>&1 | tee "$out/bench.log"
