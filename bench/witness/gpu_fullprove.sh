#!/bin/bash
# Issue 40's GPU goals on the GPU machine (one device call, ~2 minutes):
#  1. `g16 fullprove --device gpu` at the 2^20 bench circuit (witness by
#     its graph) against the proof alone: `g16 prove --device gpu` of the
#     same witness, each a whole process (key read and uploaded), median
#     of 3; and `g16 prove --repeat 5` (key resident) for the GPU's part;
#  2. g16d with that key and circuit: a job of 64 inputs (witness by the
#     graph in the synthesis stage), each stage's busy time a proof: the
#     GPU (MSM stage) should be the slowest.
# The machine has no circom, wasm2c or snarkjs: bench/witness/gpu_bundle.sh
# packs the circuit (.wasm, .r1cs, input.json) and its compiled calculator
# and tracer (the cache's entries) into .gpubin/w20.tar.xz here; the key
# is made there with `g16 setup --insecure-dev` and the graph is traced
# there on the first calculation.  Binaries from .gpubin (gpu_prepare.sh).
#
#   usage: bash bench/witness/gpu_fullprove.sh [--cpu] [--n 64]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEV=gpu N=64 BIN=
while [ $# -gt 0 ]; do
  case $1 in
  --cpu) DEV=cpu; shift ;;
  --n) N=$2; shift 2 ;;
  --bin) BIN=$2; shift 2 ;;
  *) echo "gpu_fullprove: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
OUTD=${OUT:-/tmp/g16-fullprove-out}
T=$(mktemp -d /tmp/g16fp.XXXXXX)
ALLOW=/tmp
START=$SECONDS
log() { echo "[+$((SECONDS - START))s] $*" >&2; }
die() { log "gpu_fullprove: $*"; exit 1; }
mkdir -p "$OUTD"
source "$ROOT/bench/daemon/carried.sh"
source "$ROOT/bench/daemon/lib.sh"
trap '[ -n "$PID" ] && kill -9 $PID 2>/dev/null; cp "$T/log" "$OUTD/g16d-fullprove.log" 2>/dev/null; rm -rf "$T"' EXIT
W=$T/w
mkdir -p "$W" && tar xJf "$ROOT/.gpubin/w20.tar.xz" -C "$W"
chmod 700 "$W/cache"
t0=$(now)
"$G16" setup --insecure-dev "$W/circuit.r1cs" "$W/circuit.zkey" 2>"$T/setup.log" || die "setup: $(tail -1 "$T/setup.log")"
"$G16" export-vk "$W/circuit.zkey" "$W/vk.json"
log "setup 2^20: $(since "$t0") s"
median() { sort -g | sed -n "$(( ($1 + 1) / 2 ))p"; }
check() { local v; v=$("$G16" verify "$W/vk.json" "$2" "$1" 2>&1) || true; [ "$v" = OK ] || die "NOT VERIFIED: $1: $v"; }

# the graph: the first calculation by the wasm and traced, then by the graph
wt() { "$G16" wtns calculate --verbose --cache-dir "$W/cache" "$W/circuit.wasm" "$W/input.json" "$T/w.wtns" 2>"$T/wtns.log"; }
t0=$(now); wt || die "wtns: $(tail -1 "$T/wtns.log")"; FIRST=$(since "$t0")
wt; PATH1=$(grep -o 'by the [a-z].*' "$T/wtns.log" | head -1 || true)
WT=(); for _ in 1 2 3; do t0=$(now); wt; WT+=("$(since "$t0")"); done
WT_S=$(printf '%s\n' "${WT[@]}" | median 3)
log "wtns calculate: first $FIRST s, then $WT_S s ($PATH1)"

PR=() FP=()
for i in 1 2 3; do
  t0=$(now)
  "$G16" prove --device "$DEV" "$W/circuit.zkey" "$T/w.wtns" "$T/p$i.json" "$T/q$i.json" 2>"$T/prove.log" || die "prove: $(tail -1 "$T/prove.log")"
  PR+=("$(since "$t0")"); check "$T/p$i.json" "$T/q$i.json"
  t0=$(now)
  "$G16" fullprove --device "$DEV" --verbose --cache-dir "$W/cache" "$W/input.json" "$W/circuit.wasm" "$W/circuit.zkey" \
    "$T/f$i.json" "$T/g$i.json" 2>"$T/fp$i.log" || die "fullprove: $(tail -1 "$T/fp$i.log")"
  FP+=("$(since "$t0")"); check "$T/f$i.json" "$T/g$i.json"
done
PR_S=$(printf '%s\n' "${PR[@]}" | median 3) FP_S=$(printf '%s\n' "${FP[@]}" | median 3)
"$G16" prove --device "$DEV" --repeat 5 "$W/circuit.zkey" "$T/w.wtns" "$T/p.json" "$T/q.json" 2>"$T/rep.log" || die "prove --repeat: $(tail -1 "$T/rep.log")"
REP=$(grep -o 'median [0-9.]* s' "$T/rep.log" | cut -d' ' -f2)
log "prove process $PR_S s, fullprove process $FP_S s, resident proof $REP s"
cp "$T/fp3.log" "$OUTD/fullprove-verbose.log"

# g16d: the key with its circuit, the graph from the carried cache's tracer
rm -rf "$T/st" && mkdir -p "$T/st/circuits" && cp -a "$W/cache/." "$T/st/circuits/"
chmod 700 "$T/st" "$T/st/circuits"
"$G16D" --socket "$T/s" --state-dir "$T/st" --allow-dir "$ALLOW" --device "$DEV" >>"$T/log" 2>&1 &
PID=$!
for _ in $(seq 300); do [ -S "$T/s" ] && client status >/dev/null 2>&1 && break; sleep 0.1; done
client keys load k "$W/circuit.zkey" --wasm "$W/circuit.wasm" >"$T/key.json" || die "key load: $(cat "$T/key.json")"
mkdir -p "$T/one" && client prove --key k --wait --out "$T/one" --input "$W/input.json" >/dev/null
for _ in $(seq 1500); do   # the key's graph is built in the background after that partition
  client keys list | grep -q '"witness_path":"graph"' && break; sleep 0.2
done
client keys list >"$T/keys.json"
GRAPH=$(grep -o '"witness_path":"[a-z]*"' "$T/keys.json" | head -1 | cut -d'"' -f4 || true)
ins=(); for _ in $(seq "$N"); do ins+=("$W/input.json"); done
client metrics >"$T/m0.txt"
t0=$(now)
id=$(client prove --key k --input "${ins[@]}")
mkdir -p "$T/job" && client wait "$id" --timeout 600 --out "$T/job" >"$T/job/job.json"
JOB_S=$(since "$t0")
for i in 0 $((N - 1)); do check "$T/job/proof-$i.json" "$T/job/public-$i.json"; done
client metrics >"$T/m1.txt"
workers=$(workers_of "$T/log")
STAGES=$(cat "$T/m0.txt" "$T/m1.txt" | awk -v n="$N" -v w="$workers" -F'[{}" ]+' '
  /^g16d_stage_duration_seconds_sum/ { for (i = 1; i < NF; i++) if ($i == "stage=") { if ($(i+1) in a) b[$(i+1)] = $NF; else a[$(i+1)] = $NF } }
  END { split(w, k, "/"); s = (b["synthesis"] - a["synthesis"]) / n; m = (b["msm"] - a["msm"]) / n; f = (b["finalize"] - a["finalize"]) / n
        printf "%.1f / %.1f / %.1f ms (workers %s); per worker %.1f / %.1f / %.1f", s*1e3, m*1e3, f*1e3, w, s*1e3/k[1], m*1e3/k[2], f*1e3/k[3] }')
WPATHS=$(grep -o '"witness_path":"[a-z]*"' "$T/job/job.json" | sort | uniq -c | tr -s ' ' | tr '\n' ';' || true)
kill -TERM "$PID"; wait "$PID" || true; PID=
{
  echo "### $(date +%F) witness by the graph on the GPU machine: the 2^20 bench circuit"
  echo
  echo "- machine: $(uname -srm), $(nproc) CPUs$(command -v nvidia-smi >/dev/null && echo ", $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1)")"
  echo "- command: \`bash bench/witness/gpu_fullprove.sh$([ $DEV = cpu ] && echo " --cpu") --n $N\`; every proof checked with \`g16 verify\`"
  echo
  echo "| what | seconds (median of 3) |"
  echo "|---|---|"
  echo "| \`g16 wtns calculate\` (whole process; first: wasm + trace) | $WT_S (first $FIRST); $PATH1 |"
  echo "| \`g16 prove --device $DEV\` (whole process, key read) | $PR_S |"
  echo "| \`g16 fullprove --device $DEV\` (whole process) | $FP_S (**$(echo "$FP_S $PR_S" | awk '{printf "%.2f", $1 / $2}')x** the proof alone) |"
  echo "| \`g16 prove --repeat 5\`, key resident | $REP |"
  echo
  echo "g16d, one job of $N inputs (key's witness path: $GRAPH; partitions: $WPATHS): $JOB_S s, $(per "$JOB_S" "$N") s a proof;"
  echo "stages busy a proof (synthesis / MSM / finalize): $STAGES"
} | tee "$OUTD/gpu_fullprove.md"
