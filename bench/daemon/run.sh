#!/bin/bash
# g16d benchmark: (1) N back-to-back proofs through one g16d against N
# separate `g16 prove` runs (each reloading the key); (2) a sweep of
# synthesis workers under two memory budgets: seconds per proof against
# the daemon's peak RSS (VmHWM), the table system.md's design published.
# Prints Markdown on stdout.
#   usage: [SWEEP="1 2 4"] bench/daemon/run.sh BUILD_DIR [CURVE/CIRCUIT] [N]
# CURVE/CIRCUIT is a folder under $G16_FIXTURES with circuit.zkey and witness.wtns.
set -euo pipefail
B=${1:?usage: run.sh BUILD_DIR [CURVE/CIRCUIT] [N]}
B=$(cd "$B" && pwd)
CIRCUIT=${2:-bn128/sha256}
N=${3:-20}
FIX=${G16_FIXTURES:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/fixtures}
D=$FIX/$CIRCUIT
T=$(mktemp -d /tmp/g16db.XXXXXX)
PID=
trap '[ -n "$PID" ] && kill -9 $PID 2>/dev/null; rm -rf "$T"' EXIT
client() { "$B/bin/g16" client --socket "$T/s" "$@"; }
now() { date +%s.%N; }

start() {
  rm -rf "$T/st"
  "$B/bin/g16d" --socket "$T/s" --state-dir "$T/st" --allow-dir "$FIX" "$@" >>"$T/log" 2>&1 &
  PID=$!
  for _ in $(seq 100); do [ -S "$T/s" ] && client status >/dev/null 2>&1 && return; sleep 0.1; done
  echo "g16d did not start" >&2; exit 1
}
stop() { kill -TERM "$PID"; wait "$PID" || true; PID=; }
hwm_mib() { awk '/^VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$PID/status"; }

# N proofs as one job each, all submitted at once; seconds from first submit to last result.
through_daemon() {
  local ids=() t0 t1
  t0=$(now)
  for _ in $(seq "$N"); do ids+=("$(client prove --key k "$D/witness.wtns")"); done
  for id in "${ids[@]}"; do client wait "$id" --timeout 600 >/dev/null; done
  t1=$(now)
  echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'
}

echo "### $(date +%F) g16d: $CIRCUIT, $N proofs"
echo
echo "- machine: $(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- command: \`bench/daemon/run.sh $B $CIRCUIT $N\`"
echo
# (1) separate processes
t0=$(now); peak=0
for i in $(seq "$N"); do
  /usr/bin/time -f "%M" -o "$T/rss" "$B/bin/g16" prove "$D/circuit.zkey" "$D/witness.wtns" "$T/p.json" "$T/q.json"
  r=$(cat "$T/rss"); [ "$r" -gt "$peak" ] && peak=$r
done
sep=$(echo "$t0 $(now)" | awk '{printf "%.2f", $2 - $1}')
start --memory-budget 4G
client keys load k "$D/circuit.zkey" >/dev/null
warm=$(through_daemon)
dpeak=$(hwm_mib)
stop
echo "| path | $N proofs, s | s/proof | peak RSS MiB |"
echo "|---|---|---|---|"
echo "| $N x \`g16 prove\` (key reloaded each time) | $sep | $(echo "$sep $N" | awk '{printf "%.3f", $1/$2}') | $((peak / 1024)) (per process) |"
echo "| g16d, key resident, $N jobs queued at once | $warm | $(echo "$warm $N" | awk '{printf "%.3f", $1/$2}') | $dpeak (daemon VmHWM) |"
echo
# (2) sweep: synthesis workers x budgets
start --memory-budget 4G
K=$(client keys load k "$D/circuit.zkey")
stop
num() { echo "$K" | grep -o "\"$1\":[0-9]*" | cut -d: -f2; }   # no node needed on the bench machine
KEYB=$(num bytes)
PART=$(( $(num partition_bytes) + $(stat -c %s "$D/witness.wtns") ))
TIGHT=$(( KEYB + 2 * PART + PART / 2 ))   # the key + two partitions (three never fit)
echo "Sweep ($N proofs each; budget \"tight\" = key + 2.5 partitions = $((TIGHT >> 20)) MiB, \"loose\" = 4 GiB):"
echo
echo "| synth workers | budget | s/proof | peak RSS MiB | max partitions holding memory |"
echo "|---|---|---|---|---|"
for budget in tight loose; do
  for w in ${SWEEP:-1 2 4}; do
    b=$([ $budget = tight ] && echo "$TIGHT" || echo 4G)
    start --memory-budget "$b" --synth-workers "$w" --msm-queue "$w"
    client keys load k "$D/circuit.zkey" >/dev/null
    s=$(through_daemon)
    held=$(client memory | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "held_parts") c = i }
                                     NR > 1 && $c > m { m = $c } END { print m + 0 }')
    echo "| $w | $budget | $(echo "$s $N" | awk '{printf "%.3f", $1/$2}') | $(hwm_mib) | $held |"
    stop
  done
done
