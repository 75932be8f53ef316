# shellcheck shell=bash
# Shared pieces of the benchmarks that take circuits by name (sourced by
# bench/witness/run.sh, bench/fullprove/run.sh and bench/node/run.sh): the
# circuits, and the timing records they keep.
#
# A CIRCUIT is either a fixture, CURVE/NAME under ../shared/fixtures, or a
# power k: the 2^k circom circuit of bench/prover/run.sh (bench.circom, made
# once and cached there, outside the repository; its key by `g16 setup
# --insecure-dev`, which snarkjs and rapidsnark prove with too).
#
# The caller sets REPO (the repository root) and G16 (the g16 binary the
# generator uses for the key).

BENCH_FIXTURES=${G16_FIXTURES:-$(cd "$REPO/.." && pwd)/shared/fixtures}
BENCH_CACHE=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/g16-bench}

# circuit_dir CIRCUIT: the directory with its circuit.wasm, input.json,
# circuit.zkey, verification_key.json and witness.wtns (the reference
# witness, snarkjs's).
circuit_dir() {
  if [[ $1 =~ ^[0-9]+$ ]]; then
    local dir
    dir=$(G16=$G16 GEN=circom KEYGEN=g16 GEN_ONLY=1 RESULTS=- CACHE=$BENCH_CACHE \
      bash "$REPO/bench/prover/run.sh" "$1" 2>&1 | sed -n "s/.*\] 2^$1: \(\/.*\)$/\1/p" | tail -n1)
    [ -s "$dir/circuit.wasm" ] || { echo "2^$1: bench/prover/run.sh made no circuit.wasm" >&2; return 1; }
    echo "$dir"
  else
    [ -s "$BENCH_FIXTURES/$1/circuit.wasm" ] || { echo "no fixture $1 under $BENCH_FIXTURES" >&2; return 1; }
    echo "$BENCH_FIXTURES/$1"
  fi
}

# circuit_name CIRCUIT: how a table names it.
circuit_name() { if [[ $1 =~ ^[0-9]+$ ]]; then echo "circom 2^$1"; else echo "$1"; fi; }

# circuit_cpp CIRCUIT: circom's C++ witness generator of CIRCUIT, built with
# its own Makefile (needs g++, nasm, libgmp-dev, nlohmann-json3-dev) and
# cached; prints the binary's path.  A generated circuit brings its C++
# source (cpp/); a fixture's circuit.circom is compiled here with circom2 and
# circom's default options, as the fixture's wasm was, so that both
# generators compute the same witness layout.
circuit_cpp() {
  local dir src
  dir=$(circuit_dir "$1") || return 1
  if [[ $1 =~ ^[0-9]+$ ]]; then
    src=$dir/cpp
  else
    src=$BENCH_CACHE/cpp-$(cat "$dir/circuit.circom" "$dir/circuit.wasm" | sha1sum | cut -c1-12)/circuit_cpp
    if [ ! -s "$src/circuit.cpp" ]; then
      local w=$BENCH_CACHE/cpp.tmp
      rm -rf "$w"; mkdir -p "$w"
      cp "$dir/circuit.circom" "$w/"
      cp -r "$REPO/tools/node_modules/circomlib/circuits" "$w/circomlib_circuits" # circom2 (WASI) follows no link
      (cd "$w" && "$REPO/tools/node_modules/.bin/circom2" circuit.circom --c -o .) >&2 || return 1
      mkdir -p "$(dirname "$src")"; rm -rf "$src"; mv "$w/circuit_cpp" "$src"; rm -rf "$w"
    fi
  fi
  [ -x "$src/circuit" ] || make -C "$src" -j"$(nproc)" >&2 || { echo "$1: circom's C++ generator did not build in $src" >&2; return 1; }
  echo "$src/circuit"
}

# Timing records: lines "LABEL seconds KiB" in a file.
# timed FILE LABEL CMD...: runs CMD (its stdout dropped) under GNU time and
# appends two records: "LABEL wall_seconds peak_KiB" and "LABEL.cpu
# cpu_seconds peak_KiB", the CPU time being user + system of all its
# threads and children: on this shared machine, where a process may wait
# for a CPU most of its wall time, the fairer measure of the work done.
timed() {
  local f=$1 l=$2 t; shift 2
  t=$(mktemp)
  /usr/bin/time -o "$t" -f "%e %M %U %S" "$@" >/dev/null || { rm -f "$t"; return 1; }
  tail -n1 "$t" | awk -v l="$l" '{print l, $1, $2; print l ".cpu", $3 + $4, $2}' >> "$f"
  rm -f "$t"
}
# times_median FILE LABEL: the median seconds of LABEL (empty if none).
times_median() { awk -v l="$2" '$1 == l {print $2}' "$1" | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}'; }
# times_best FILE LABEL: the least seconds of LABEL.
times_best() { awk -v l="$2" '$1 == l {print $2}' "$1" | sort -g | head -n1; }
# times_peak FILE LABEL: the largest peak RSS of LABEL, in MiB.
times_peak() { awk -v l="$2" '$1 == l && $3 > m {m = $3} END {printf "%.0f", m / 1024}' "$1"; }
# times_ratio FILE A B: median of A / median of B, 2 decimals ("-" if either is missing).
times_ratio() {
  local a b
  a=$(times_median "$1" "$2") b=$(times_median "$1" "$3")
  if [ -n "$a" ] && [ -n "$b" ]; then awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}'; else echo -; fi
}
# machine_line: the machine, for a table's header.
machine_line() {
  echo "$(uname -srm), $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
}
# versions_line BUILD: what was measured.
versions_line() {
  echo "g16 $(git -C "$REPO" describe --always --dirty) ($1), snarkjs $(node -p "require('$REPO/tools/node_modules/snarkjs/package.json').version"), node $(node --version)"
}
