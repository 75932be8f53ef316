#!/usr/bin/env bash
# bench/witness/run.sh [BUILD_DIR] [RUNS] [CIRCUIT...]: witness calculation,
# g16 (its witness graph, and its compiled wasm) against `snarkjs wtns
# calculate` (Node.js, the same wasm) and circom's C++ witness generator,
# same machine, same run.
#
#   defaults: BUILD_DIR build-dev, RUNS 7, CIRCUIT bn128/sha256
#
# CIRCUIT is a fixture (CURVE/NAME) or a power k, the 2^k circom circuit of
# bench/prover/run.sh (see bench/common.sh; made and cached on first use).
# The peers, each one process per calculation:
#  - g16 graph: `g16 wtns calculate` with a warm cache, where the first run
#    left the circuit's witness graph (docs/witness-graph.md); the table
#    says so when the graph was refused and the wasm computed;
#  - g16 wasm: wasm_calc.c (built here against BUILD_DIR's libg16), the
#    same library calls as `g16 wtns calculate` with graphs on request, on
#    a copy of the warm cache without the graph file: the compiled wasm;
#  - snarkjs: `snarkjs wtns calculate` (tools/node_modules);
#  - circom C++: the generator `circom2 --c` writes, built with its own
#    Makefile once and cached (bench/common.sh, circuit_cpp: a fixture's
#    circuit.circom is compiled here with circom2's default options, as its
#    wasm was; the 2^k circuits bring theirs, compiled with the wasm).  Its
#    time includes what its main() does: loading libstdc++ and libgmp,
#    reading circuit.dat (mapped and copied: the constants, the input hash
#    map and the witness-to-signal list; 8 MB at 2^20), parsing input.json
#    (nlohmann-json), the calculation, and writing the .wtns through stdio
#    without fsync (g16 syncs its output).  Building it needs the Debian
#    packages g++, nasm, libgmp-dev and nlohmann-json3-dev, which nothing
#    else needs (scripts/install-deps.sh and CI leave them out); without
#    them the script names the missing ones, its column says so, and the
#    rest runs.
# For each circuit:
#  1. compile: `g16 wtns calculate` with an empty cache directory (wasm2c +
#     cc + the witness + the graph), wall seconds and peak RSS, one run;
#  2. RUNS rounds of the four peers in turn: median wall and CPU seconds
#     (user + system) and peak RSS of each process (all include process
#     start-up and reading input.json), and the ratios of the medians;
# every witness is compared byte for byte with the circuit's witness.wtns
# (snarkjs's).  Times are taken from fork to wait4 (microseconds, not GNU
# time's 10 ms: sha256's calculations take milliseconds).  Prints a
# markdown table.
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
cc -O2 -I"$REPO/include" "$REPO/bench/witness/wasm_calc.c" -o "$tmp/wasm_calc" \
  -L"$build/src/lib" -lg16 -Wl,-rpath,"$build/src/lib"

# timed_fine FILE LABEL CMD...: as common.sh's timed (the same records),
# to the microsecond: wall from spawn to wait4, CPU and peak RSS from
# wait4's rusage of the process.
timed_fine() {
  python3 - "$@" <<'PY'
import os, sys, time
out, label, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
t = time.perf_counter()
pid = os.posix_spawnp(argv[0], argv, os.environ,
                      file_actions=[(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)])
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t
if os.waitstatus_to_exitcode(status):
    sys.exit(1)
with open(out, "a") as f:
    f.write(f"{label} {wall:.4f} {ru.ru_maxrss}\n{label}.cpu {ru.ru_utime + ru.ru_stime:.4f} {ru.ru_maxrss}\n")
PY
}
# run LABEL REF CMD...: runs CMD (which writes $tmp/out.wtns), timed into
# $tmp/times, and checks the witness against REF.
run() {
  local label=$1 ref=$2; shift 2
  timed_fine "$tmp/times" "$label" "$@" || { echo "$label: $* failed" >&2; exit 1; }
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
# cpp_missing: the Debian packages that circom's generated C++ needs to
# build and that are missing here (its Makefile: g++ -lgmp, nasm; its
# main.cpp includes nlohmann/json.hpp).
cpp_missing() {
  local m=() pkg header
  command -v g++ >/dev/null || m+=(g++)
  command -v nasm >/dev/null || m+=(nasm)
  for pkg in libgmp-dev:gmp.h nlohmann-json3-dev:nlohmann/json.hpp; do
    header=${pkg#*:} pkg=${pkg%%:*}
    if command -v g++ >/dev/null; then
      printf '#include <%s>\n' "$header" | g++ -x c++ -E - >/dev/null 2>&1 || m+=("$pkg")
    else
      dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || m+=("$pkg")
    fi
  done
  echo "${m[*]}"
}

echo "- $(date -u '+%Y-%m-%d %H:%M UTC'), $(machine_line)"
echo "- command: \`bench/witness/run.sh $build $runs ${CIRCUITS[*]}\` ($(versions_line "$build"))"
cpp_needs=$(cpp_missing)
[ -z "$cpp_needs" ] || echo "circom's C++ generator is left out: it needs $cpp_needs (apt-get install $cpp_needs)" >&2
rows=()
for c in "${CIRCUITS[@]}"; do
  dir=$(circuit_dir "$c")
  ref=$dir/witness.wtns
  cpp=
  if [ -z "$cpp_needs" ]; then cpp=$(circuit_cpp "$c") || cpp=; fi
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  : > "$tmp/times"
  run compile "$ref" "$G16" wtns calculate --cache-dir "$tmp/cache" "$dir/circuit.wasm" "$dir/input.json" "$tmp/out.wtns"
  # the path the cached runs take (the graph, unless the first run's trace
  # refused one), and the wasm's cache: the same entries but the graph
  path=$("$G16" wtns calculate --verbose --cache-dir "$tmp/cache" "$dir/circuit.wasm" "$dir/input.json" "$tmp/out.wtns" 2>&1 >/dev/null | sed -n 's/.*, by the //p')
  rm -f "$tmp/out.wtns"
  rm -rf "$tmp/wasm-cache"; cp -a "$tmp/cache" "$tmp/wasm-cache"; rm -f "$tmp/wasm-cache"/*.wgraph
  for _ in $(seq "$runs"); do
    run graph "$ref" "$G16" wtns calculate --cache-dir "$tmp/cache" "$dir/circuit.wasm" "$dir/input.json" "$tmp/out.wtns"
    run wasm "$ref" "$tmp/wasm_calc" "$dir/circuit.wasm" "$dir/input.json" "$tmp/wasm-cache" "$tmp/out.wtns"
    run snarkjs "$ref" "$snarkjs" wtns calculate "$dir/circuit.wasm" "$dir/input.json" "$tmp/out.wtns"
    [ -z "$cpp" ] || run cpp "$ref" "$cpp" "$dir/input.json" "$tmp/out.wtns"
  done
  rm -rf "$tmp/cache" "$tmp/wasm-cache"
  graphcell=$(cell graph); [ "$path" = graph ] || graphcell="$graphcell (by the $path)"
  cppcell=$(cell cpp)
  if [ -n "$cpp_needs" ]; then cppcell="not built: apt-get install $cpp_needs"
  elif [ -z "$cpp" ]; then cppcell="not built (see stderr)"; fi
  rows+=("| $(circuit_name "$c") | $(wires "$ref") | $(stat -c %s "$dir/circuit.wasm") | $(cell compile) | $graphcell | $(cell wasm) | $(cell snarkjs) | $cppcell | $(ratios snarkjs graph) | $(ratios graph cpp) | $(ratios wasm cpp) | $load |")
done
echo
echo "| circuit | witness values | wasm bytes | g16 first run (compile + witness + graph, one run) | g16 graph | g16 wasm | snarkjs | circom C++ | snarkjs / g16 graph | g16 graph / C++ | g16 wasm / C++ | load before |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Cells: median wall time and median CPU time (user + system) of $runs runs, each a whole process, and the peak RSS over them; ratios of the medians, wall (CPU); every witness byte-identical to the circuit's witness.wtns."
