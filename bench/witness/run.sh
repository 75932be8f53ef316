#!/usr/bin/env bash
# bench/witness/run.sh [BUILD_DIR] [RUNS] [CIRCUIT...]: witness calculation,
# g16 against `snarkjs wtns calculate` (Node.js, the same wasm) and circom's
# C++ witness generator, same machine, same run.
#
#   defaults: BUILD_DIR build-dev, RUNS 7, CIRCUIT bn128/sha256
#
# CIRCUIT is a fixture (CURVE/NAME) or a power k, the 2^k circom circuit of
# bench/prover/run.sh (see bench/circuits.sh; made and cached on first use).
# For each circuit:
#  1. compile: `g16 wtns calculate` with an empty cache directory (wasm2c +
#     cc + the witness), wall seconds and peak RSS of the whole command;
#  2. circom's C++ generator: circom2 --c (fixtures; the generated circuits
#     bring theirs) and its Makefile, once, cached; the build is not timed.
#     Its Makefile needs g++, nasm, libgmp-dev and nlohmann-json3-dev
#     (Debian packages; no test needs them, so scripts/install-deps.sh does
#     not install them); without them the column says so and the rest runs;
#  3. RUNS rounds of g16 (cache warm), snarkjs and the C++ generator in turn:
#     median wall and CPU seconds and peak RSS of each process (all include
#     process start-up and reading input.json), and the ratios of the medians;
# every witness is compared byte for byte with the circuit's witness.wtns
# (snarkjs's).  Prints a markdown table.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$REPO/build-dev}
runs=${2:-7}
shift $(($# < 2 ? $# : 2))
CIRCUITS=("$@")
[ ${#CIRCUITS[@]} -gt 0 ] || CIRCUITS=(bn128/sha256)
G16=$build/bin/g16
snarkjs=$REPO/tools/node_modules/.bin/snarkjs
export NODE_OPTIONS=${NODE_OPTIONS:---max-old-space-size=12288} # snarkjs at 2^20
# shellcheck source=bench/common.sh
. "$REPO/bench/common.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run LABEL REF CMD...: runs CMD (which writes $tmp/out.wtns), timed into
# $tmp/times, and checks the witness against REF.
run() {
  local label=$1 ref=$2; shift 2
  timed "$tmp/times" "$label" "$@"
  cmp -s "$tmp/out.wtns" "$ref" || { echo "$label: witness differs from $ref" >&2; exit 1; }
  rm -f "$tmp/out.wtns"
}
cell() {
  local m; m=$(times_median "$tmp/times" "$1")
  [ -n "$m" ] && echo "$m s, CPU $(times_median "$tmp/times" "$1.cpu") s, $(times_peak "$tmp/times" "$1") MiB" || echo "-"
}
ratios() { echo "**$(times_ratio "$tmp/times" "$1" "$2")** (CPU $(times_ratio "$tmp/times" "$1.cpu" "$2.cpu"))"; }
# witness count of a .wtns (section 1: field size, prime, count)
wires() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(40); n8=struct.unpack_from("<I",d,24)[0]; print(struct.unpack_from("<I",open(sys.argv[1],"rb").read(32+n8),28+n8)[0])' "$1"; }

echo "- $(date -u '+%Y-%m-%d %H:%M UTC'), $(machine_line)"
echo "- command: \`bench/witness/run.sh $build $runs ${CIRCUITS[*]}\` ($(versions_line "$build"))"
rows=()
for c in "${CIRCUITS[@]}"; do
  dir=$(circuit_dir "$c")
  ref=$dir/witness.wtns
  cpp=$(circuit_cpp "$c") || cpp=
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  : > "$tmp/times"
  run compile "$ref" "$G16" wtns calculate --cache-dir "$tmp/cache" "$dir/circuit.wasm" "$dir/input.json" "$tmp/out.wtns"
  for _ in $(seq "$runs"); do
    run g16 "$ref" "$G16" wtns calculate --cache-dir "$tmp/cache" "$dir/circuit.wasm" "$dir/input.json" "$tmp/out.wtns"
    run snarkjs "$ref" "$snarkjs" wtns calculate "$dir/circuit.wasm" "$dir/input.json" "$tmp/out.wtns"
    [ -z "$cpp" ] || run cpp "$ref" "$cpp" "$dir/input.json" "$tmp/out.wtns"
  done
  rm -rf "$tmp/cache"
  cppcell=$(cell cpp); [ -n "$cpp" ] || cppcell="not built (see stderr)"
  rows+=("| $(circuit_name "$c") | $(wires "$ref") | $(stat -c %s "$dir/circuit.wasm") | $(cell compile) | $(cell g16) | $(cell snarkjs) | $cppcell | $(ratios snarkjs g16) | $(ratios g16 cpp) | $load |")
done
echo
echo "| circuit | witness values | wasm bytes | g16 first run (compile + witness, one run) | g16 (cached) | snarkjs | circom C++ | snarkjs / g16 | g16 / C++ | load before |"
echo "|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Cells: median wall time and median CPU time (user + system) of $runs runs, each a whole process, and the peak RSS over them; ratios of the medians, wall (CPU); every witness byte-identical to the circuit's witness.wtns."
