#!/usr/bin/env bash
# bench/witness/time_limit.sh [BUILD_DIR] [RUNS] [ROUNDS]: the cost of the
# witness time limit's checks (src/lib/witness/ticks.c) on the sha256 and
# merkle fixtures.  Each circuit is compiled twice into separate caches:
# by libg16 (checks in) and, from the same wasm2c output without the
# rewrite, with the same glue and flags under the same cache name (checks
# out).  ROUNDS alternating rounds of RUNS in-process calculations each
# (calc_repeat: thread CPU time); prints the best round's least time and
# the median of the rounds' medians, and with valgrind the instructions of
# 5 calculations (deterministic, unlike the times).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-dev}
runs=${2:-40}
rounds=${3:-6}
fixtures=${G16_FIXTURES:-$root/../shared/fixtures}/bn128
glue=$root/src/lib/witness
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -I"$root/include" "$root/bench/witness/calc_repeat.c" -o "$tmp/calc_repeat" \
  -L"$build/src/lib" -lg16 -Wl,-rpath,"$build/src/lib"

# plain WASM CHECKED_CACHE PLAIN_CACHE: the checked entry's twin without checks.
plain() {
  local name d=$tmp/build
  name=$(basename "$(ls "$2/$(sha256sum "$1" | cut -c1-64)"-*.so)")
  mkdir -p "$d" "$3"
  wasm2c "$1" -n circuit -o "$d/circuit.c"
  cp "$glue/glue.c" "$glue/glue_abi.h" "$d/"
  cc -O2 -shared -fPIC -fvisibility=hidden -pthread -w -I/usr/share/wabt/wasm2c -I"$d" "$d/glue.c" -o "$d/circuit.so"
  # the cache's trailer: magic, SHA-256 and length of the object
  python3 -c 'import sys, hashlib, struct; d = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(d + b"g16wso1\n" + hashlib.sha256(d).digest() + struct.pack("<Q", len(d)))' \
    "$d/circuit.so" "$3/$name"
  rm -rf "$d"
}

echo "machine: $(uname -srm), $(nproc) CPUs, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in sha256 merkle; do
  f=$fixtures/$c
  "$build/bin/g16" wtns calculate --cache-dir "$tmp/on-$c" "$f/circuit.wasm" "$f/input.json" "$tmp/w.wtns"
  cmp -s "$tmp/w.wtns" "$f/witness.wtns" || { echo "$c: wrong witness" >&2; exit 1; }
  plain "$f/circuit.wasm" "$tmp/on-$c" "$tmp/off-$c"
  for _ in $(seq "$rounds"); do
    for v in on off; do
      echo "$v $("$tmp/calc_repeat" "$f/circuit.wasm" "$f/input.json" "$tmp/$v-$c" "$runs")" >>"$tmp/t-$c"
    done
  done
  for v in on off; do
    best=$(awk -v v=$v '$1 == v {print $3}' "$tmp/t-$c" | sort -n | head -1)
    med=$(awk -v v=$v '$1 == v {print $5}' "$tmp/t-$c" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
    ir=
    if command -v valgrind >/dev/null; then
      ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$tmp/calc_repeat" "$f/circuit.wasm" \
        "$f/input.json" "$tmp/$v-$c" 5 2>&1 | sed -n 's/.*Collected : //p')
      ir=", $ir instructions for 5"
    fi
    echo "$c checks $v: best $best s, median $med s (CPU s per witness, $rounds x $runs)$ir"
  done
done
