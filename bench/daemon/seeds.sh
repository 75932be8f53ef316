#!/bin/bash
# The seeds' experiment (issue 39, item 4) and the large-proof latency
# (item 5) on the GPU machine, spread over several device calls: a 2^26
# BLS12-381 key takes ~6 minutes to make and every call stops after 600 s,
# so each step leaves its result in a state folder kept on the machine
# ($STATE, /tmp) and the next call goes on where the last stopped.  A step
# starts only if its estimated time fits before --deadline; steps already
# done are skipped.  Every call prints the table of what is done so far
# (and writes it, with the memory timelines and plots, to $OUT).
#
#   usage: bash bench/daemon/seeds.sh [--deadline S] [--steps "..."] [--cpu]
#            [--size K] [--n 10] [--jobs 3] [--device-budget SIZE]
#   steps (default, the most telling first: key cfg:100G:8:alone cfg:100G:1
#          cfg:100G:2 cfg:100G:4 cfg:64G:8 cfg:64G:1 cfg:64G:2 cfg:64G:4
#          refuse latency):
#     key           g16 synth --constraints 2^K-2 --curve bls12381 --setup --no-r1cs
#     latency       one proof alone: median of `g16 prove --repeat 3` against
#                   three one-partition jobs in turn through g16d
#     cfg:B:S[:alone]  g16d with --memory-budget B and S synthesis workers
#                   (one MSM worker: one GPU): JOBS jobs of N partitions
#                   submitted at once (alone: one such job by itself first);
#                   the daemon's VmHWM, its memory timeline (`g16 client
#                   memory`) and plot; rows of one budget share a daemon
#     refuse        a budget below the key and one partition: the job must be
#                   refused at submission with a 4xx
#     queues        `g16 prove --repeat 3` with CUDA's 8 hardware queues
#                   (CUDA_DEVICE_MAX_CONNECTIONS=8, CUDA's default) against
#                   the 32 the library asks for: the streamed schedule runs
#                   eleven streams, which 8 queues may serialize
#     drop          deletes the key (the disk holds one 2^26 key and little else)
#   --cpu         prove on the CPU (tests this script on a small --size)
#   --device-budget  g16d's and g16 prove's --device-memory-budget (default
#                 44G on the GPU: the key's points stay in pinned host memory
#                 and stream through the device, charged to the host budget)
# The keys' points are in pinned host memory; every proof is checked with
# `g16 verify`.  Binaries: bench/daemon/gpu_prepare.sh (as gpu_bench.sh).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEADLINE=560 STEPS= DEV=gpu K=26 N=10 JOBS=3 DEVBUDGET=44G CURVE=bls12381 BIN=
while [ $# -gt 0 ]; do
  case $1 in
  --deadline) DEADLINE=$2; shift 2 ;;
  --steps) STEPS=$2; shift 2 ;;
  --cpu) DEV=cpu; DEVBUDGET=; shift ;;
  --size) K=$2; shift 2 ;;
  --n) N=$2; shift 2 ;;
  --jobs) JOBS=$2; shift 2 ;;
  --device-budget) DEVBUDGET=$2; shift 2 ;;
  --curve) CURVE=$2; shift 2 ;;
  --bin) BIN=$2; shift 2 ;;
  *) echo "seeds: unknown argument '$1' (see the head of $0)" >&2; exit 2 ;;
  esac
done
STEPS=${STEPS:-key cfg:100G:8:alone cfg:100G:1 cfg:100G:2 cfg:100G:4 cfg:64G:8 cfg:64G:1 cfg:64G:2 cfg:64G:4 refuse latency}
STATE=/tmp/g16seeds-$CURVE-$K
OUTD=${OUT:-/tmp/g16-seeds-out}
mkdir -p "$STATE/done" "$OUTD"
T=$(mktemp -d /tmp/g16sd.XXXXXX)
ALLOW=/tmp
START=$SECONDS
log() { echo "[+$((SECONDS - START))s] $*" >&2; }
die() { log "seeds: $*"; exit 1; }
source "$HERE/carried.sh"
source "$HERE/lib.sh"
trap '[ -n "$PID" ] && kill -9 $PID 2>/dev/null; cat "$T/log" >>"$STATE/g16d.log" 2>/dev/null; rm -rf "$T"' EXIT
KEY=$STATE/key
DEVARGS=(--device "$DEV" ${DEVBUDGET:+--device-memory-budget "$DEVBUDGET"})
FAILED=0
# The steps' `g16 prove`, bounded, so that a proof that never ends says so
# and leaves its log (2^24 under 8G did, 2026-12-07) instead of taking the
# call with it; its last proof in $T/p.json, $T/q.json.
PROVE=(timeout 300 "$G16" prove "${DEVARGS[@]}" --repeat 3 --verbose "$KEY/circuit.zkey"
       "$KEY/witness.wtns" "$T/p.json" "$T/q.json")

check_proof() {   # check_proof WHAT: PROVE's last proof verifies (else FAILED counts it)
  local v; v=$("$G16" verify "$KEY/verification_key.json" "$T/q.json" "$T/p.json" 2>&1) || true
  [ "$v" = OK ] || { log "NOT VERIFIED: $1: $v"; FAILED=$((FAILED + 1)); }
}
median_of() { grep -o 'median [0-9.]* s' "$1" | cut -d' ' -f2; }   # median_of PROVE_LOG

verify_all() {   # verify_all DIR: every proof-i.json in DIR against public-i.json
  local v p
  for p in "$1"/proof-*.json; do
    v=$("$G16" verify "$KEY/verification_key.json" "${p/proof-/public-}" "$p" 2>&1) || true
    [ "$v" = OK ] || { log "NOT VERIFIED: $p: $v"; FAILED=$((FAILED + 1)); }
  done
}

step_key() {
  "$G16" synth --constraints $(((1 << K) - 2)) --curve "$CURVE" --setup --no-r1cs --out "$KEY" \
    >"$T/synth.log" 2>&1 || die "synth: $(tail -1 "$T/synth.log")"
  echo "key: \`g16 synth --constraints 2^$K-2 --curve $CURVE --setup --no-r1cs\` $(($SECONDS - S0)) s, $(du -BG "$KEY/circuit.zkey" | cut -f1) on disk"
}

step_latency() {
  local smi=
  if command -v nvidia-smi >/dev/null; then   # the device's peak while g16 prove runs
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 >"$T/smi.csv" &
    smi=$!
  fi
  peak_run "$T/rss" "${PROVE[@]}" 2>"$T/prove.log" || {
    local st=$?
    cp "$T/prove.log" "$OUTD/prove-latency-failed.log"
    die "g16 prove (status $st; 124: still running after 300 s): $(tail -1 "$T/prove.log")"
  }
  [ -n "$smi" ] && kill "$smi"
  cp "$T/prove.log" "$STATE/prove-latency.log"
  local dpeak; dpeak=$(sort -n "$T/smi.csv" 2>/dev/null | tail -1)
  check_proof "g16 prove"
  local tp; tp=$(median_of "$T/prove.log")
  fresh_daemon "${DEVARGS[@]}"
  client keys load k "$KEY/circuit.zkey" >"$T/key.json"
  local lat=() t0 i
  for i in 1 2 3; do
    mkdir -p "$T/lat$i"
    t0=$(now)
    client prove --key k --wait --out "$T/lat$i" "$KEY/witness.wtns" >"$T/lat$i/job.json"
    lat+=("$(echo "$t0 $(now)" | awk '{printf "%.3f", $2 - $1}')")
    verify_all "$T/lat$i"
  done
  local path; path=$(str path <"$T/lat3/job.json")
  stop_daemon
  local td; td=$(printf '%s\n' "${lat[@]}" | sort -n | sed -n 2p)
  echo "| 2^$K $CURVE, key $(str device_mode <"$T/key.json") | $tp | $td (${lat[*]}; path ${path:-?}) | $(echo "$td $tp" | awk '{printf "%.2f", $1 / $2}') | $(( $(cat "$T/rss") / 1024 )) | ${dpeak:--} |"
}

# daemon_for BUDGET SYNTH: a g16d with the key under BUDGET and SYNTH
# synthesis workers.  Consecutive rows of one budget share the daemon and
# its loaded key: the workers change by SIGHUP (its config file read
# again) and the VmHWM is reset through /proc/PID/clear_refs.  Sets LOAD.
CUR_BUDGET=
# fresh_daemon ARGS...: a daemon of the caller's own, after stopping the one
# a cfg row may have kept for the next row of its budget.
fresh_daemon() {
  [ -n "$PID" ] && stop_daemon
  CUR_BUDGET=
  start_daemon "$@"
}
daemon_for() {
  printf 'synth-workers = %s\nmsm-queue = %s\n' "$2" "$2" >"$T/conf"
  if [ -n "$PID" ] && [ "$CUR_BUDGET" = "$1" ]; then
    local n; n=$(grep -c '"reloaded"\|reloaded' "$T/log" || true)
    kill -HUP "$PID"
    for _ in $(seq 100); do [ "$(grep -c '"reloaded"\|reloaded' "$T/log" || true)" -gt "$n" ] && break; sleep 0.1; done
    echo 5 >"/proc/$PID/clear_refs"
    LOAD="(kept)"
    return
  fi
  fresh_daemon "${DEVARGS[@]}" --memory-budget "$1" --msm-workers 1 --config "$T/conf"
  CUR_BUDGET=$1
  local t0; t0=$(now)
  client keys load k "$KEY/circuit.zkey" >"$T/key.json" || die "key load under $1 failed"
  LOAD=$(since "$t0")
}

# cfg BUDGET SYNTH [alone]: one row of the sweep: JOBS jobs of N partitions
# submitted at once (with "alone": one such job by itself first).
step_cfg() {
  local budget=$1 sw=$2 alone=-
  daemon_for "$budget" "$sw"
  local since0; since0=$(date +%s)
  if [ "${3:-}" = alone ]; then
    rm -rf "$T/alone"
    alone=$(through_job k "$KEY/witness.wtns" "$N" "$T/alone")
    verify_all "$T/alone"
  fi
  local ws=() ids=() j t0
  for _ in $(seq "$N"); do ws+=("$KEY/witness.wtns"); done
  t0=$(now)
  for j in $(seq "$JOBS"); do ids+=("$(client prove --key k "${ws[@]}")"); done
  for j in $(seq "$JOBS"); do
    rm -rf "$T/b$j" && mkdir -p "$T/b$j"
    client wait "${ids[$((j - 1))]}" --timeout 900 --out "$T/b$j" >"$T/b$j/job.json"
  done
  local back; back=$(since "$t0")
  for j in $(seq "$JOBS"); do verify_all "$T/b$j"; done
  client status >"$T/status.json"
  local hwm; hwm=$(hwm_mib)
  local name=$budget-$sw
  client memory --since "$since0" >"$STATE/memory-$name.csv"
  client memory --since "$since0" --plot "$STATE/memory-$name.svg" >/dev/null
  local held; held=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "held_parts") c = i }
                              NR > 1 && $c > m { m = $c } END { print m + 0 }' "$STATE/memory-$name.csv")
  local bmib=$(( $(num total <"$T/status.json") >> 20 )) keyb pinned
  keyb=$(num bytes <"$T/key.json") pinned=$(num host_pinned_bytes <"$T/key.json")
  echo "$keyb $(num partition_bytes <"$T/key.json")" >"$STATE/key_sizes"   # for step refuse
  echo "| $budget ($bmib MiB) | $sw | $LOAD | $alone | $back | $(per "$back" "$JOBS") | $(per "$back" "$((N * JOBS))") | $hwm | $((hwm - bmib)) | $held | $((keyb >> 20)) / $((pinned >> 20)) |"
}

step_refuse() {
  local keyb= part=
  # a budget of 0 would mean "from MemAvailable": never refuse from sizes not measured
  known() { [ "${keyb:-0}" -gt 0 ] && [ "${part:-0}" -gt 0 ]; }
  read -r keyb part <"$STATE/key_sizes" 2>/dev/null || true
  known || {
    fresh_daemon "${DEVARGS[@]}" --memory-budget 100G
    client keys load k "$KEY/circuit.zkey" >"$T/key.json"
    keyb=$(num bytes <"$T/key.json") part=$(num partition_bytes <"$T/key.json")
  }
  known || die "refuse: the key's sizes could not be read"
  local small=$((keyb + part / 2))
  fresh_daemon "${DEVARGS[@]}" --memory-budget "$small"
  local out
  if client keys load k "$KEY/circuit.zkey" >/dev/null 2>"$T/refuse.err" &&
     client prove --key k "$KEY/witness.wtns" >/dev/null 2>>"$T/refuse.err"; then
    out="NO: a job was accepted under $((small >> 20)) MiB"; FAILED=$((FAILED + 1))
  else
    out="yes, under $((small >> 20)) MiB (the key and half a partition): $(tail -1 "$T/refuse.err")"
  fi
  stop_daemon
  echo "$out"
}

# queues: PROVE with 32 hardware queues, then 8 (CUDA_DEVICE_MAX_CONNECTIONS
# is read when the CUDA context is made, so one process a setting)
step_queues() {
  local q m=()
  for q in 32 8; do
    if CUDA_DEVICE_MAX_CONNECTIONS=$q "${PROVE[@]}" 2>"$T/queues-$q.log"; then
      check_proof "g16 prove, $q queues"
      m+=("$(median_of "$T/queues-$q.log")")
    else
      cp "$T/queues-$q.log" "$OUTD/"
      m+=("failed: $(tail -1 "$T/queues-$q.log")")
    fi
  done
  echo "| 2^$K $CURVE${DEVBUDGET:+, device budget $DEVBUDGET} | ${m[0]} | ${m[1]} | $(echo "${m[1]} ${m[0]}" | awk '$1 + 0 > 0 && $2 + 0 > 0 {printf "%.2f", $1 / $2}') |"
}

step_drop() { rm -rf "$KEY"; echo "key deleted"; }

estimate() {   # seconds a step may take (to decide whether it fits)
  # key: measured on the 16-core GPU machine (BLS12-381 2^24 119 s, 2^25
  # 189 s, 2^26 401-476 s; BN254 2^25 123 s, 2^26 252-297 s)
  case $1 in
  key) if [ "$CURVE" = bn128 ]; then echo $((K >= 26 ? 320 : K == 25 ? 150 : K == 24 ? 90 : 60))
       else echo $((K >= 26 ? 480 : K == 25 ? 210 : K == 24 ? 130 : 60)); fi ;;
  latency) echo 110 ;;
  queues) echo 100 ;;
  cfg:*) local b=${1#cfg:}; b=${b%%:*} e=$((15 + N * JOBS * 23 / 10))
         [[ $1 == *:alone ]] && e=$((e + N * 23 / 10))
         [ "$b" = "$CUR_BUDGET" ] && [ -n "$PID" ] || e=$((e + 30))   # a daemon and its key load
         echo "$e" ;;
  refuse) [ -s "$STATE/key_sizes" ] && echo 40 || echo 70 ;; *) echo 5 ;; esac
}

for s in $STEPS; do
  f=$STATE/done/$s
  [ -s "$f" ] && continue
  [ "$s" = key ] || [ "$s" = drop ] || [ -f "$KEY/circuit.zkey" ] || die "step $s needs the key (step key)"
  if [ $((SECONDS - START + $(estimate "$s"))) -gt "$DEADLINE" ]; then
    log "step $s left for the next call (est. $(estimate "$s") s, $((DEADLINE - SECONDS + START)) s left)"
    break
  fi
  log "step $s"
  S0=$SECONDS
  IFS=: read -r name a b c <<<"$s"
  "step_$name" ${a:+"$a"} ${b:+"$b"} ${c:+"$c"} >"$T/row" || die "step $s failed"
  mv "$T/row" "$f"
  log "step $s done in $((SECONDS - S0)) s: $(cat "$f")"
done

{
  echo "### $(date +%F) the seeds' experiment: g16d, $CURVE 2^$K, jobs of $N partitions"
  echo
  echo "- machine: $(uname -srm), $(nproc) CPUs$(command -v nvidia-smi >/dev/null && echo ", $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1)")"
  echo "- command: \`bash bench/daemon/seeds.sh$([ $DEV = cpu ] && echo " --cpu") --size $K --curve $CURVE --n $N --jobs $JOBS${DEVBUDGET:+ --device-budget $DEVBUDGET}\` (over several device calls)"
  echo "- every proof checked with \`g16 verify\`: $([ "$FAILED" = 0 ] && echo "all OK in the last call" || echo "$FAILED FAILED in the last call")"
  [ -s "$STATE/done/key" ] && echo "- $(cat "$STATE/done/key")"
  echo
  echo "| budget | synth workers | key load s | one job of $N alone, s | $JOBS jobs at once, s | s/job | s/partition | VmHWM MiB | VmHWM - budget MiB | most partitions holding | key MiB / pinned MiB |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  for s in $STEPS; do case $s in cfg:*) [ -s "$STATE/done/$s" ] && cat "$STATE/done/$s" ;; esac; done
  if [ -s "$STATE/done/latency" ]; then
    echo
    echo "| one proof alone | g16 prove --repeat 3, median s | g16d one-partition jobs, median s | g16d / g16 prove | g16 prove VmHWM MiB | device peak MiB |"
    echo "|---|---|---|---|---|---|"
    cat "$STATE/done/latency"
  fi
  if [ -s "$STATE/done/queues" ]; then
    echo
    echo "| hardware queues | g16 prove, 32 (the library's), median s | 8 (CUDA's default), median s | 8 / 32 |"
    echo "|---|---|---|---|"
    cat "$STATE/done/queues"
  fi
  [ -s "$STATE/done/refuse" ] && { echo; echo "A budget below the key and one partition refused: $(cat "$STATE/done/refuse")"; }
} | tee "$OUTD/seeds-$CURVE-$K.md"
cp "$STATE"/memory-*.csv "$STATE"/memory-*.svg "$STATE"/prove-latency.log "$OUTD/" 2>/dev/null || true
tail -200 "$STATE/g16d.log" >"$OUTD/g16d-tail.log" 2>/dev/null || true
[ "$FAILED" = 0 ]
