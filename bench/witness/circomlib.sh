#!/usr/bin/env bash
# bench/witness/circomlib.sh [BUILD_DIR] [N] [RUNS] [SPEC...]: circomlib's
# circuits (tests/witness/circomlib: the circuits witness.circomlib and
# witness.circomlib_large test) through the witness graph, the wasm and
# snarkjs.
#
#   defaults: BUILD_DIR build, N 20 inputs a circuit, RUNS 5, every circuit
#
# SPEC is NAME:PRIME (tests/witness/circomlib/NAME_test.circom, or the
# fixture PRIME/NAME).  Circuits are compiled with the pinned circom2 and
# kept in $CACHE/circomlib (default ~/.cache/g16-bench), their compiled
# objects too.  For each circuit, N inputs from gen_inputs.js (a fixed
# seed):
#  1. `g16 wtns calculate --verbose` on each, in a fresh cache holding the
#     compiled objects but no graph: the first calculation is the wasm's
#     and makes the graph; the paths the others took (the graph, or the
#     wasm and why) and the whole process's wall time;
#  2. in one process (graph_vs_wasm.c), each input RUNS times by that
#     cache's graph and by the wasm alone (graphs on request, none made):
#     the least thread CPU time of one calculation; the medians over the
#     inputs that took a graph, and over every input after the first for
#     the wasm (eddsaposeidon, smtverifier and merkle: the N or fewer
#     inputs of their .json);
#  3. snarkjs: `snarkjs wtns calculate` (a whole node process) on the
#     first 5 inputs, and its calls in one process (reference.js) on each;
# every witness is compared byte for byte with snarkjs's, and an input
# snarkjs fails on must fail in g16.  Prints a markdown table, then the
# fallbacks' reasons, and for a circuit that took no graph why
# (BUILD_DIR's witness_graph_why, built with the tests).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$REPO/build}
n=${2:-20}
runs=${3:-5}
shift $(($# < 3 ? $# : 3))
SPECS=("$@")
[ ${#SPECS[@]} -gt 0 ] || SPECS=(poseidon:bn128 merkle:bn128 mimc:bn128 eddsaposeidon:bn128 smtverifier:bn128
  comparators:bn128 iszero:bn128 bits:bn128 sha256:bn128 bits_bls:bls12381 mimc:bls12381)
G16=$build/bin/g16
bin=$REPO/tools/node_modules/.bin
src=$REPO/tests/witness/circomlib
# shellcheck source=bench/common.sh
. "$REPO/bench/common.sh"
G16_FIXTURES=$BENCH_FIXTURES
# shellcheck source=tests/witness/circomlib/compile.sh
. "$src/compile.sh"
store=$BENCH_CACHE/circomlib
mkdir -p -m 700 "$store"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -I"$REPO/include" "$REPO/bench/witness/graph_vs_wasm.c" -o "$tmp/graph_vs_wasm" \
  -L"$build/src/lib" -lg16 -Wl,-rpath,"$build/src/lib"

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
ms() { awk -v s="$1" 'BEGIN {if (s == "-") print "-"; else printf "%.3f", s * 1000}'; }

echo "- $(date -u '+%Y-%m-%d %H:%M UTC'), $(machine_line)"
echo "- command: \`bench/witness/circomlib.sh $build $n $runs ${SPECS[*]}\` ($(versions_line "$build"))"
rows=()
notes=()
for s in "${SPECS[@]}"; do
  IFS=: read -r name prime <<<"$s"
  wasm=$(circomlib_wasm "$name" "$prime" "$bin" "$store" "$tmp/circom")
  d=$tmp/$name-$prime
  count=$(node "$src/gen_inputs.js" "$name" "$prime" "$n" "$d")
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  node "$src/reference.js" "$REPO/tools/node_modules/snarkjs" "$wasm" "$d" "$count" >"$d/snarkjs-ms" 2>"$d/snarkjs.log" ||
    { cat "$d/snarkjs.log" >&2; exit 1; }
  sha=$(sha256sum "$wasm" | cut -c1-64)
  mkdir -m 700 "$d/cache" "$d/wasm-cache"
  for f in "$store/$sha"-*.so; do if [ -e "$f" ]; then cp "$f" "$d/cache/"; fi; done
  : >"$d/times"
  : >"$d/paths" # a line an input: first, failed, or its path, a tab and the process's wall ms
  inputs=()
  for ((i = 0; i < count; i++)); do
    rc=0 t0=$EPOCHREALTIME
    "$G16" wtns calculate --verbose --cache-dir "$d/cache" "$wasm" "$d/$i.json" "$d/$i.wtns" 2>"$d/$i.log" || rc=$?
    wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.2f", (b - a) * 1000}')
    path=$(sed -n 's/^g16 wtns calculate: .*, by the //p' "$d/$i.log")
    if [ "$rc" != 0 ]; then
      [ -e "$d/$i.ref.err" ] || { echo "$s input $i: g16 failed, snarkjs did not: $(cat "$d/$i.log")" >&2; exit 1; }
      echo failed >>"$d/paths"
      continue
    fi
    [ ! -e "$d/$i.ref.err" ] && cmp -s "$d/$i.wtns" "$d/$i.ref.wtns" ||
      { echo "$s input $i: g16's witness (by the $path) is not snarkjs's" >&2; exit 1; }
    if ((i == 0)); then echo first >>"$d/paths"
    else printf '%s\t%s\n' "$path" "$wall" >>"$d/paths"; inputs+=("$d/$i.json"); fi
  done
  for f in "$d/cache/$sha"-*.so; do cp -n "$f" "$store/"; cp "$f" "$d/wasm-cache/"; done
  : >"$d/inproc"
  ((${#inputs[@]} == 0)) || "$tmp/graph_vs_wasm" "$wasm" "$d/cache" "$d/wasm-cache" "$runs" "${inputs[@]}" >"$d/inproc"
  for ((i = 0; i < count && i < 5; i++)); do
    timed "$d/times" snarkjs "$bin/snarkjs" wtns calculate "$wasm" "$d/$i.json" "$tmp/out.wtns" || true
  done
  paths() { awk -F'\t' '$1 != "first" && $1 != "failed" && $1 != "graph" {print $1}' "$d/paths"; }
  graph=$(awk -F'\t' '$1 == "graph"' "$d/paths" | wc -l)
  failed=$(grep -cx failed "$d/paths" || true)
  nfell=$(paths | wc -l)
  fell=$(paths | sed 's/^wasm (\(.*\))$/\1/' | sort | uniq -c |
    awk '{c=$1; $1=""; sub(/^ /, ""); printf "%s%d: %s", (NR > 1 ? "; " : ""), c, $0}')
  tg=$(awk '$2 == "graph" {print $3}' "$d/inproc" | median)
  tw=$(awk '$2 != "error" {print $NF}' "$d/inproc" | median)
  ratio=$(awk -v g="$tg" -v w="$tw" 'BEGIN {if (g == "-" || w == "-" || g == 0) print "-"; else printf "%.1fx", w / g}')
  pg=$(awk -F'\t' '$1 == "graph" {print $2}' "$d/paths" | median)
  pw=$(awk -F'\t' '$1 != "graph" && NF == 2 {print $2}' "$d/paths" | median)
  wires=-
  [ ! -e "$d/0.ref.wtns" ] || wires=$(od -An -t u4 -j 60 -N 4 "$d/0.ref.wtns" | tr -d ' ')
  rows+=("| $name | $prime | $wires | $count | $graph | $nfell | $failed | $(ms "$tg") | $(ms "$tw") | $ratio | $pg | $pw | $(times_median "$d/times" snarkjs | awk '{printf "%.0f", $1 * 1000}') | $(awk '{print $3}' "$d/snarkjs-ms" | median | xargs printf '%.1f') | $load |")
  [ -z "$fell" ] || notes+=("- $name ($prime), fell back: $fell")
  if ((graph == 0)); then
    cp -r "$d/wasm-cache" "$d/why"
    notes+=("- $name ($prime), no input by the graph: $("$build/bin/witness_graph_why" "$wasm" "$d/0.json" "$d/why" 2>&1 || true)")
  fi
done
echo
echo "| circuit | field | witness values | inputs | by the graph | fell back | failed (as snarkjs) | graph: one calculation (ms CPU) | wasm: one calculation (ms CPU) | wasm / graph | g16 wtns calculate, by the graph (ms, process) | g16 wtns calculate, fell back (ms, process) | snarkjs wtns calculate (ms, process) | snarkjs in one process (ms a calculation) | load before |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "The first input's calculation (the wasm's, which made the graph) is in no column but the inputs.  One calculation: the least thread CPU time of $runs in one process, median over the inputs that took the graph (graph) or over every input after the first (wasm, graphs off); processes: median wall milliseconds of the whole command (g16: the inputs after the first, by the path named; snarkjs: the first 5 inputs); snarkjs in one process: its library's \`wtns.calculate\` (the CLI's call: the wasm compiled each time), median wall.  Every witness byte-identical to snarkjs's."
((${#notes[@]} == 0)) || { echo; printf '%s\n' "${notes[@]}"; }
