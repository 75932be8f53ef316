#!/usr/bin/env bash
# bench/witness/run.sh [BUILD_DIR] [RUNS]: witness calculation, g16 against
# snarkjs, on the sha256 fixture (same machine, same run, same wasm).
#  1. compile: `g16 wtns calculate` with an empty cache directory (wasm2c +
#     cc + the witness), wall seconds and peak RSS of the whole command;
#  2. RUNS alternating runs of `g16 wtns calculate` (cache warm) and
#     `snarkjs wtns calculate`: median wall seconds and peak RSS of each
#     process (both include process start-up), and the ratio;
# every witness is compared with the fixture's witness.wtns.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-dev}
runs=${2:-7}
g16=$build/bin/g16
snarkjs=$root/tools/node_modules/.bin/snarkjs
fixture=${G16_FIXTURES:-$root/../shared/fixtures}/bn128/sha256
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

timed() {  # timed LABEL CMD...: appends "LABEL seconds KiB" to $tmp/times
  local label=$1; shift
  /usr/bin/time -f "$label %e %M" -a -o "$tmp/times" "$@" >/dev/null
  cmp -s "$tmp/out.wtns" "$fixture/witness.wtns" || { echo "$label: wrong witness" >&2; exit 1; }
  rm -f "$tmp/out.wtns"
}
median() { awk -v l="$1" '$1 == l {print $2}' "$tmp/times" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
peak() { awk -v l="$1" '$1 == l && $3 > m {m = $3} END {printf "%.0f", m / 1024}' "$tmp/times"; }

echo "machine: $(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wasm: $fixture/circuit.wasm ($(stat -c %s "$fixture/circuit.wasm") bytes)"
timed compile "$g16" wtns calculate --cache-dir "$tmp/cache" "$fixture/circuit.wasm" "$fixture/input.json" "$tmp/out.wtns"
for _ in $(seq "$runs"); do
  timed g16 "$g16" wtns calculate --cache-dir "$tmp/cache" "$fixture/circuit.wasm" "$fixture/input.json" "$tmp/out.wtns"
  timed snarkjs "$snarkjs" wtns calculate "$fixture/circuit.wasm" "$fixture/input.json" "$tmp/out.wtns"
done
g=$(median g16) s=$(median snarkjs)
echo "first run (compile + witness): $(median compile) s, peak RSS $(peak compile) MiB (the cc child's, the largest process)"
echo "g16 wtns calculate (cached), median of $runs: $g s, peak RSS $(peak g16) MiB"
echo "snarkjs wtns calculate, median of $runs: $s s, peak RSS $(peak snarkjs) MiB"
echo "ratio snarkjs / g16: $(echo "scale=2; $s / $g" | bc)"
