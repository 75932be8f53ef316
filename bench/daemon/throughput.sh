#!/bin/bash
# Small-proof throughput: proofs per second through g16d (one job of N
# partitions, all queued at once) against the machine's capacity for the
# same key in the same run, the better of `g16 prove --repeat N --jobs J`
# for J = 1 and J = nproc (J proofs in flight in one process, the threads
# shared out).  Synthetic circuits of 2^k - 2 constraints (domain 2^k) from
# `g16 synth --setup`, both curves.  g16d runs as configured by default
# (every proof self-verified) against the capacity with `g16 prove
# --verify` (the same check of every proof), and again with
# --no-self-verify against plain `g16 prove`.  The CPU time a
# proof (user + system; g16d's from submission to the last result) says
# how much work each spends, whatever else the machine runs: on a busy
# machine the rates say little, the CPU time still compares.  A row at 2^k
# proves N / 2^(0.75 (k - 10)) proofs (at least 6): N at 2^10, 50 at 2^14,
# 17 at 2^16, 6 at 2^18 by default, enough that the job's fixed costs
# (submission, the first and last partitions alone) stay small, and the
# default sizes on both curves take about 6 minutes on the idle 2-core
# machine.  Prints Markdown on stdout.
# Then the latency of one proof at 2^LATENCY (default 20, BN254; LATENCY=
# skips it): `g16 prove` against a one-partition job through g16d.
#   usage: [SIZES="10 14 16 18"] [N=400] [LATENCY=20] [LAT_CURVES=bn128]
#          bench/daemon/throughput.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: throughput.sh BUILD_DIR}
B=$(cd "$B" && pwd)
SIZES=${SIZES:-10 14 16 18}
N=${N:-400}
LATENCY=${LATENCY-20} LAT_CURVES=${LAT_CURVES:-bn128}
T=$(mktemp -d /tmp/g16tp.XXXXXX)
G16=$B/bin/g16 G16D=$B/bin/g16d ALLOW=$T
source "$(dirname "$0")/lib.sh"
trap '[ -n "$PID" ] && kill -9 $PID 2>/dev/null; rm -rf "$T"' EXIT
CPUS=$(nproc)
START=$(date +%s)

TICK=$(getconf CLK_TCK)
# cpu_s PID: the CPU seconds (user + system) process PID has used so far
cpu_s() { awk -v t="$TICK" '{printf "%.3f", ($14 + $15) / t}' "/proc/$1/stat"; }
# ms_per A B: (B - A) seconds over $NK proofs, in ms
ms_per() { echo "$1 $2 $NK" | awk '{printf "%.1f", 1000 * ($2 - $1) / $3}'; }

# capacity DIR J [--verify]: "RATE CPU": proofs/s of `g16 prove --repeat
# $NK --jobs J` and its CPU ms a proof (the key's opening included)
capacity() {
  /usr/bin/time -f "%U %S" -o "$T/time" "$G16" prove --device cpu --repeat "$NK" --jobs "$2" \
    ${3:+"$3"} "$1/circuit.zkey" "$1/witness.wtns" "$T/p.json" "$T/q.json" 2>"$T/prove.log"
  echo "$(grep -o '[0-9.]* proofs/s' "$T/prove.log" | cut -d' ' -f1) $(awk -v n="$NK" \
    '{printf "%.1f", 1000 * ($1 + $2) / n}' "$T/time")"
}

# daemon_rate DIR [ARGS]: "RATE HWM THREADS CPU": proofs/s of one job of
# $NK partitions through g16d (started with ARGS), its VmHWM in MiB, the
# threads it gave each partition of the key and its CPU ms a proof
daemon_rate() {
  local d=$1
  shift
  start_daemon --memory-budget 4G --device cpu "$@"
  local threads
  threads=$(client keys load k "$d/circuit.zkey" | grep -o '"threads":[0-9]*' | cut -d: -f2)
  local ws=() t0 id
  for _ in $(seq "$NK"); do ws+=("$d/witness.wtns"); done
  local c0 c1
  c0=$(cpu_s "$PID")
  t0=$(now)
  id=$(client prove --key k "${ws[@]}")
  client wait "$id" --timeout 900 >/dev/null
  local s
  s=$(since "$t0")
  c1=$(cpu_s "$PID")
  local hwm
  hwm=$(hwm_mib)
  stop_daemon
  echo "$NK $s $hwm $threads $(ms_per "$c0" "$c1")" | awk '{printf "%.2f %s %s %s\n", $1 / $2, $3, $4, $5}'
}

echo "### $(date +%F) g16d throughput of small proofs, up to $N proofs a row"
echo
echo "- machine: $(uname -srm), $CPUS CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- command: \`SIZES=\"$SIZES\" N=$N LATENCY=$LATENCY bench/daemon/throughput.sh $B\`"
echo
echo "| curve | domain | proofs | prove --verify --jobs 1 / $CPUS, proofs/s | g16d, proofs/s | g16d / capacity with --verify | prove --jobs 1 / $CPUS, proofs/s | g16d --no-self-verify, proofs/s | / capacity | threads a partition | CPU ms a proof: prove --jobs $CPUS, g16d, g16d --no-self-verify | g16d VmHWM MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1 / $2}'; }
for curve in bn128 bls12381; do
  for k in $SIZES; do
    d=$T/$curve-$k
    NK=$(awk -v n="$N" -v k="$k" 'BEGIN { x = int(n / 2 ^ (0.75 * (k - 10))); print x < 6 ? 6 : x }')
    "$G16" synth --constraints $(((1 << k) - 2)) --curve "$curve" --out "$d" --setup >/dev/null
    read -r c1 _ < <(capacity "$d" 1)
    read -r cj cpuj < <(capacity "$d" "$CPUS")
    read -r v1 _ < <(capacity "$d" 1 --verify)
    read -r vj _ < <(capacity "$d" "$CPUS" --verify)
    best=$(echo "$c1 $cj" | awk '{print ($1 > $2) ? $1 : $2}')
    bestv=$(echo "$v1 $vj" | awk '{print ($1 > $2) ? $1 : $2}')
    read -r dr hwm threads cpud < <(daemon_rate "$d")
    read -r dn _ _ cpun < <(daemon_rate "$d" --no-self-verify)
    echo "| $curve | 2^$k | $NK | $v1 / $vj | $dr | $(ratio "$dr" "$bestv") | $c1 / $cj | $dn | $(ratio "$dn" "$best") | $threads | $cpuj, $cpud, $cpun | $hwm |"
  done
done

# The latency of one large proof, which the scheduler must not cost
# (latency in lib.sh).
if [ -n "$LATENCY" ]; then
  echo
  echo "Latency of one proof at 2^$LATENCY (median of 3; g16d: submission to result, key resident):"
  echo
  echo "| curve | domain | g16 prove, s | g16d, s | g16d / g16 prove |"
  echo "|---|---|---|---|---|"
  for curve in $LAT_CURVES; do
    d=$T/$curve-$LATENCY
    "$G16" synth --constraints $(((1 << LATENCY) - 2)) --curve "$curve" --out "$d" --setup >/dev/null
    read -r tp td < <(latency "$d" cpu 4G)
    [ -n "${td:-}" ] || { echo "throughput: the latency at 2^$LATENCY failed" >&2; exit 1; }
    echo "| $curve | 2^$LATENCY | $tp | $td | $(ratio "$td" "$tp") |"
    rm -rf "$d"
  done
fi
echo
echo "- load after: $(cut -d' ' -f1-3 /proc/loadavg), $(($(date +%s) - START)) s in all"
