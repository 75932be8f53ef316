#!/bin/bash
# g16d on the GPU machine, in one device call (about 6 minutes on its 16
# cores and H200).  For each size (BN254 synthetic circuits, domain 2^k):
# N proofs through one g16d (one job of N partitions: N jobs from N client
# processes measured the clients' start-up at 2^16) against N separate `g16 prove
# --device gpu` runs (each reloads the key and uploads it) and N `g16 prove
# --device cpu`; then a sweep of synthesis x MSM workers under two budgets
# (seconds per proof against the daemon's VmHWM).  Every proof is checked
# with `g16 verify` (no Node.js there).  Markdown tables on stdout and in
# $OUT/gpu_bench.md; daemon log in $OUT/g16d.log.
#
#   usage: bash bench/daemon/gpu_bench.sh [--cpu] [--sizes "20 22"] [--n 20]
#            [--cap SECONDS] [--sweep "1x1 2x1 4x2"] [--deadline SECONDS] [--bin DIR]
#            [--latency "24"] [--curve bls12381] [--synth-args "--no-r1cs"]
#            [--jobs 3] [--budgets "64G 100G"]
#   --cpu        prove with --device cpu everywhere (a machine without a GPU:
#                tests this script; e.g. --cpu --sizes "10 12" --n 4)
#   --sizes      log2 of the domains; synth makes 2^k - 2 constraints (domain
#                = constraints + public + 1, rounded up to a power of two)
#   --n          proofs per row (default 20)
#   --cap        a row of separate processes stops after this many seconds,
#                reporting how many ran (default 60: 20 CPU proofs at 2^22
#                alone would take ~3 minutes)
#   --sweep      SxM[g] entries: S synthesis and M MSM workers, g = --g2-on-cpu;
#                run at the largest size, loose budget then tight
#   --deadline   sweep entries starting after this many seconds are skipped
#                (default 360)
#   --bin DIR    g16 and g16d from DIR instead of .gpubin/daemon-bin.tar.xz
#   --latency    sizes at which to time one proof alone: `g16 prove --repeat`
#                against one-partition jobs through g16d (latency in lib.sh)
#   --curve      bn128 (default) or bls12381: the synthetic keys' curve
#   --synth-args passed to g16 synth (--no-r1cs: a key too large for the
#                disk beside its .r1cs)
#   --jobs       jobs of N partitions each, back to back, a row (default 1):
#                the seeds' "three such jobs" (s/proof over all of them)
#   --budgets    the sweep's --memory-budget values instead of loose/tight;
#                each sweep row's memory timeline is kept in
#                $OUT/memory-SxM-BUDGET.csv (`g16 client memory`), plotted
#                with `g16 client memory --plot`, and a budget below the key
#                and one partition is checked to be refused at submission
#   The seeds' experiment (bench/RESULTS.md, issue 39): --curve bls12381
#   --sizes 26 --synth-args --no-r1cs --n 10 --jobs 3 --sweep "1x1 2x1 4x1
#   8x1" --budgets "64G 100G"
# Binaries and libraries: bench/daemon/gpu_prepare.sh fills .gpubin/ on the
# development machine; the debs are unpacked here with dpkg -x into
# /tmp/prefix and put on LD_LIBRARY_PATH.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEV=gpu SIZES="20 22" N=20 CAP=60 SWEEP="1x1 2x1 4x2" DEADLINE=360 BIN= LAT=
CURVE=bn128 SYNTH_ARGS= JOBS=1 BUDGETS=
while [ $# -gt 0 ]; do
  case $1 in
  --cpu) DEV=cpu; shift ;;
  --sizes) SIZES=$2; shift 2 ;;
  --n) N=$2; shift 2 ;;
  --cap) CAP=$2; shift 2 ;;
  --sweep) SWEEP=$2; shift 2 ;;
  --deadline) DEADLINE=$2; shift 2 ;;
  --bin) BIN=$2; shift 2 ;;
  --latency) LAT=$2; shift 2 ;;
  --curve) CURVE=$2; shift 2 ;;
  --synth-args) SYNTH_ARGS=$2; shift 2 ;;
  --jobs) JOBS=$2; shift 2 ;;
  --budgets) BUDGETS=$2; shift 2 ;;
  *) echo "gpu_bench: unknown argument '$1' (see the head of $0)" >&2; exit 2 ;;
  esac
done
OUTD=${OUT:-/tmp/g16-gpu-bench}
mkdir -p "$OUTD"
W=/tmp/g16gb-keys                  # synthetic keys, kept between runs on one machine
T=$(mktemp -d /tmp/g16gb.XXXXXX)
ALLOW=/tmp
START=$SECONDS
log() { echo "[+$((SECONDS - START))s] $*" >&2; }
die() { log "gpu_bench: $*"; exit 1; }

source "$HERE/carried.sh"
source "$HERE/lib.sh"
trap '[ -n "$PID" ] && kill -9 $PID 2>/dev/null; cp "$T/log" "$OUTD/g16d.log" 2>/dev/null; rm -rf "$T"' EXIT
log "binaries $BIN, device $DEV, sizes $SIZES, $N proofs a row"

FAILED=0
# verify_one VK PUBLIC PROOF: g16 verify must print OK.
verify_one() {
  local v
  v=$("$G16" verify "$1" "$2" "$3" 2>&1) || true
  [ "$v" = OK ] || { log "NOT VERIFIED: $3: $v"; FAILED=$((FAILED + 1)); }
}

# key K: the synthetic key of domain 2^K on $CURVE (made once).
key() {
  local d=$W/$CURVE-k$1
  if [ ! -f "$d/circuit.zkey" ]; then
    local t0; t0=$(now)
    # shellcheck disable=SC2086
    "$G16" synth --constraints $(((1 << $1) - 2)) --curve "$CURVE" --setup $SYNTH_ARGS --out "$d" >"$T/synth.log" 2>&1 ||
      die "synth 2^$1: $(tail -1 "$T/synth.log")"
    log "synth + setup 2^$1: $(since "$t0") s"
  fi
  echo "$d"
}

ROWS=$T/rows.md SWEEPROWS=$T/sweep.md
: >"$ROWS"; : >"$SWEEPROWS"

# separate K DEVICE: up to N `g16 prove` processes (stops after CAP s).
separate() {
  local d; d=$(key "$1")
  local t0 i=0 peak=0 r
  mkdir -p "$T/sep"
  t0=$(now)
  while [ "$i" -lt "$N" ] && awk "BEGIN {exit !($(since "$t0") < $CAP)}"; do
    peak_run "$T/rss" "$G16" prove --device "$2" "$d/circuit.zkey" "$d/witness.wtns" \
      "$T/sep/proof-$i.json" "$T/sep/public-$i.json" 2>"$T/prove.err" || die "g16 prove --device $2: $(tail -1 "$T/prove.err")"
    r=$(cat "$T/rss"); [ "$r" -gt "$peak" ] && peak=$r
    i=$((i + 1))
  done
  local s; s=$(since "$t0")
  for j in $(seq 0 $((i - 1))); do verify_one "$d/verification_key.json" "$T/sep/public-$j.json" "$T/sep/proof-$j.json"; done
  echo "| 2^$1 | $i x \`g16 prove --device $2\` (key loaded each time) | $s | $(per "$s" "$i") | - | - | - | - | - | $((peak / 1024)) per process | - |" >>"$ROWS"
  log "2^$1 separate $2: $i proofs in $s s"
}

# through K BUDGET ARGS...: a fresh g16d (BUDGET "" = its default), the key
# loaded, N proofs queued at once, all verified.  Sets the globals below.
through() {
  local d; d=$(key "$1")
  local budget=$2; shift 2
  start_daemon --device "$DEV" ${budget:+--memory-budget "$budget"} "$@"
  IDLE0=$(rss_mib)
  local t0; t0=$(now)
  client keys load k "$d/circuit.zkey" >"$T/key.json"
  LOAD_S=$(since "$t0")
  [ "$(str device <"$T/key.json")" = "$DEV" ] || die "key on $(str device <"$T/key.json"), wanted $DEV: $(cat "$T/key.json")"
  KEYB=$(num bytes <"$T/key.json")
  PART=$(( $(num partition_bytes <"$T/key.json") + $(stat -c %s "$d/witness.wtns") ))
  DEVB=$(num device_bytes <"$T/key.json")
  IDLE1=$(rss_mib)
  S=0
  for _ in $(seq "$JOBS"); do   # back to back; the last job's files are kept
    rm -rf "$T/dp"
    S=$(echo "$S $(through_job k "$d/witness.wtns" "$N" "$T/dp")" | awk '{printf "%.2f", $1 + $2}')
    for j in $(seq 0 $((N - 1))); do verify_one "$d/verification_key.json" "$T/dp/public-$j.json" "$T/dp/proof-$j.json"; done
  done
  client status >"$T/status.json"
  HWM=$(hwm_mib) HELD=$(max_held)
  if [ -n "$BUDGETS" ]; then
    client memory >"$T/memory.csv" && client memory --plot "$T/memory.svg" >/dev/null ||
      die "g16 client memory failed"
  fi
  # each stage's busy milliseconds a proof (a GPU batch's time shared
  # out), and the slowest stage's seconds a proof: its busy time over its
  # workers (the MSM workers are GPU lanes sharing one device, so dividing
  # by them flatters the stage: the bound is optimistic, the ratio to it
  # conservative)
  local workers; workers=$(workers_of "$T/log")
  IFS='|' read -r STAGES SLOWEST < <(client metrics | awk -v n="$N" -v w="$workers" -F'[{}" ]+' '
           /^g16d_stage_duration_seconds_sum/ { for (i = 1; i < NF; i++) if ($i == "stage=") s[$(i + 1)] = $NF }
           END { split(w, k, "/"); a = s["synthesis"] / n; b = s["msm"] / n; c = s["finalize"] / n
                 m = a / k[1]; if (b / k[2] > m) m = b / k[2]; if (c / k[3] > m) m = c / k[3]
                 printf "%.1f / %.1f / %.1f (workers %s)|%.4f\n", a * 1e3, b * 1e3, c * 1e3, w, m }')
  PIPE=$(pipeline_per "$T/dp/job.json")
  VS=$(echo "$SLOWEST $PIPE" | awk '$2 > 0 { printf "%.2f", $1 / $2 }')
  GPUM=$(grep -o '"gpu":[0-9]*' "$T/status.json" | cut -d: -f2 || true)   # absent without NVML
  BUDGET_MIB=$(( $(num total <"$T/status.json") >> 20 ))
  # the VmHWM promise: peak <= budget + what was resident besides the key
  # once it was loaded (binary, libraries, CUDA context, stacks) + 8 MiB
  BOUND=$(( BUDGET_MIB + IDLE1 - (KEYB >> 20) + 8 ))
  WITHIN=$([ "$HWM" -le "$BOUND" ] && echo "yes" || echo "NO (bound $BOUND)")
  stop_daemon
}

for k in $SIZES; do
  key "$k" >/dev/null
  through "$k" ""
  echo "| 2^$k | g16d --device $DEV, key resident, one job of $N partitions | $S | $(per "$S" "$((N * JOBS))") | $PIPE | $SLOWEST | $VS | $STAGES | $LOAD_S | $HWM daemon VmHWM (idle $IDLE1) | $((DEVB >> 20))${GPUM:+ ($((GPUM >> 20)) process)} |" >>"$ROWS"
  if [ "$DEV" = gpu ] && [ "$k" -le 18 ]; then   # the keys that batch, without it
    through "$k" "" --gpu-batch 1
    echo "| 2^$k | g16d --device gpu --gpu-batch 1 (no batching) | $S | $(per "$S" "$((N * JOBS))") | $PIPE | $SLOWEST | $VS | $STAGES | $LOAD_S | $HWM daemon VmHWM (idle $IDLE1) | $((DEVB >> 20)) |" >>"$ROWS"
    log "2^$k g16d without batching: $N proofs in $S s"
  fi
  log "2^$k g16d: $N proofs in $S s (key load $LOAD_S s, VmHWM $HWM MiB)"
  if [ "$DEV" = gpu ] && [ "$k" = "${SIZES%% *}" ]; then
    through "$k" "" --g2-on-cpu --msm-workers 2
    echo "| 2^$k | g16d --device gpu --g2-on-cpu --msm-workers 2 | $S | $(per "$S" "$((N * JOBS))") | $PIPE | $SLOWEST | $VS | $STAGES | $LOAD_S | $HWM daemon VmHWM (idle $IDLE1) | $((DEVB >> 20)) |" >>"$ROWS"
    log "2^$k g16d g2-on-cpu: $N proofs in $S s"
  fi
  [ "$DEV" = gpu ] && separate "$k" gpu
  separate "$k" cpu
done

LATROWS=$T/lat.md
: >"$LATROWS"
for k in $LAT; do
  read -r tp td < <(latency "$(key "$k")" "$DEV")
  [ -n "${td:-}" ] || die "the latency at 2^$k failed"
  echo "| 2^$k | $tp | $td | $(echo "$td $tp" | awk '{printf "%.2f", $1 / $2}') |" >>"$LATROWS"
  log "2^$k latency: g16 prove $tp s, g16d $td s"
done

SK=${SIZES##* }
for cfg in $SWEEP; do
  sw=${cfg%%x*} rest=${cfg#*x}
  mw=${rest%g} g2=()
  [ "$rest" != "$mw" ] && g2=(--g2-on-cpu)
  [ "$DEV" = cpu ] && [ ${#g2[@]} -gt 0 ] && { log "sweep $cfg skipped: --g2-on-cpu needs the GPU"; continue; }
  tight=
  for budget in ${BUDGETS:-loose tight}; do
    [ -n "$BUDGETS" ] && tight=$budget
    if [ $((SECONDS - START)) -gt "$DEADLINE" ]; then
      echo "| $sw | $mw | ${g2:+yes} | $budget | skipped (past the ${DEADLINE} s deadline) | | | | |" >>"$SWEEPROWS"
      continue
    fi
    through "$SK" "$tight" --synth-workers "$sw" --msm-workers "$mw" --msm-queue "$sw" "${g2[@]}"
    echo "| $sw | $mw | ${g2:+yes} | $budget | $BUDGET_MIB | $(per "$S" "$((N * JOBS))") | $HWM | $WITHIN | $HELD |" >>"$SWEEPROWS"
    log "sweep $cfg $budget: $(per "$S" "$((N * JOBS))") s/proof, VmHWM $HWM MiB, held <= $HELD"
    if [ -n "$BUDGETS" ]; then
      cp "$T/memory.csv" "$OUTD/memory-$cfg-$budget.csv"
      cp "$T/memory.svg" "$OUTD/memory-$cfg-$budget.svg"
      continue
    fi
    # the key + 2.5 partitions of this configuration; on the GPU the key's
    # upload also holds its coefficients by row while it runs (less than
    # the file's size, the bound used here)
    tight=$(( KEYB + 2 * PART + PART / 2 ))
    [ "$DEV" = gpu ] && tight=$(( tight + KEYB ))
  done
done

# A budget below the key and one partition: refused when the job is
# submitted (or the key when loaded), never an out-of-memory later.
REFUSED=
if [ -n "$BUDGETS" ] && [ -n "$SWEEP" ]; then
  d=$(key "$SK")
  start_daemon --device "$DEV" --memory-budget $(( KEYB + PART / 2 ))
  if client keys load k "$d/circuit.zkey" >/dev/null 2>"$T/refuse.err" &&
     client prove --key k "$d/witness.wtns" >/dev/null 2>>"$T/refuse.err"; then
    REFUSED="NO: a job was accepted under $(( (KEYB + PART / 2) >> 20 )) MiB"; FAILED=$((FAILED + 1))
  else
    REFUSED="yes, under $(( (KEYB + PART / 2) >> 20 )) MiB (the key and half a partition): $(tail -1 "$T/refuse.err")"
  fi
  stop_daemon
  log "small budget refused: $REFUSED"
fi

{
  echo "### $(date +%F) g16d on $DEV: $CURVE synthetic circuits, $N proofs a job, $JOBS job(s) a row"
  echo
  echo "- machine: $(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))$(command -v nvidia-smi >/dev/null && echo ", $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1)")"
  echo "- command: \`bash bench/daemon/gpu_bench.sh$([ $DEV = cpu ] && echo " --cpu") --sizes \"$SIZES\" --n $N --cap $CAP --sweep \"$SWEEP\"${LAT:+ --latency \"$LAT\"} --curve $CURVE${SYNTH_ARGS:+ --synth-args \"$SYNTH_ARGS\"} --jobs $JOBS${BUDGETS:+ --budgets \"$BUDGETS\"}\`"
  echo "- every proof checked with \`g16 verify\`: $([ "$FAILED" = 0 ] && echo "all OK" || echo "$FAILED FAILED")"
  echo
  echo "s/proof: the job from submission to the last result (witness upload and proof download included);"
  echo "pipeline: the steady-state spacing of the partitions' synthesis starts (pipeline_per in lib.sh);"
  echo "slowest stage: the largest busy time a proof over the stage's workers; goal: pipeline at >= 0.9x of it (slowest / pipeline)."
  echo
  echo "| domain | path | proofs, s | s/proof | pipeline s/proof | slowest stage s/proof | slowest / pipeline | stages ms/proof busy (synthesis / MSM / finalize) | key load s | peak RSS MiB | key on GPU MiB |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  cat "$ROWS"
  if [ -n "$SWEEP" ]; then
    echo
    echo "Sweep at 2^$SK ($((N * JOBS)) proofs each; loose = g16d's default budget, MemAvailable minus 10%;"
    echo "tight = key + 2.5 partitions (+ the key again on the GPU, for its upload copy); \"within\": VmHWM <= budget + resident-besides-the-key after load + 8 MiB):"
    echo
    echo "| synth workers | MSM workers | G2 on CPU | budget | budget MiB | s/proof | VmHWM MiB | within | max partitions holding |"
    echo "|---|---|---|---|---|---|---|---|---|"
    cat "$SWEEPROWS"
    [ -n "$REFUSED" ] && { echo; echo "A budget below the key and one partition refused: $REFUSED"; }
  fi
  if [ -s "$LATROWS" ]; then
    echo
    echo "Latency of one proof (median of 3; g16 prove: key loaded once; g16d: one-partition jobs in turn, submission to result, key resident):"
    echo
    echo "| domain | g16 prove, s | g16d, s | g16d / g16 prove |"
    echo "|---|---|---|---|"
    cat "$LATROWS"
  fi
} | tee "$OUTD/gpu_bench.md"
log "done in $((SECONDS - START)) s"
[ "$FAILED" = 0 ]
