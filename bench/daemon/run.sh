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
G16=$B/bin/g16 G16D=$B/bin/g16d ALLOW=$FIX
source "$(dirname "$0")/lib.sh"
trap '[ -n "$PID" ] && kill -9 $PID 2>/dev/null; rm -rf "$T"' EXIT

echo "### $(date +%F) g16d: $CIRCUIT, $N proofs"
echo
echo "- machine: $(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- command: \`bench/daemon/run.sh $B $CIRCUIT $N\`"
echo
# (1) separate processes
t0=$(now); peak=0
for i in $(seq "$N"); do
  peak_run "$T/rss" "$G16" prove "$D/circuit.zkey" "$D/witness.wtns" "$T/p.json" "$T/q.json"
  r=$(cat "$T/rss"); [ "$r" -gt "$peak" ] && peak=$r
done
sep=$(since "$t0")
start_daemon --memory-budget 4G
client keys load k "$D/circuit.zkey" >/dev/null
warm=$(through_daemon k "$D/witness.wtns" "$N")
dpeak=$(hwm_mib)
stop_daemon
echo "| path | $N proofs, s | s/proof | peak RSS MiB |"
echo "|---|---|---|---|"
echo "| $N x \`g16 prove\` (key reloaded each time) | $sep | $(per "$sep" "$N") | $((peak / 1024)) (per process) |"
echo "| g16d, key resident, $N jobs queued at once | $warm | $(per "$warm" "$N") | $dpeak (daemon VmHWM) |"
echo
# (2) sweep: synthesis workers x budgets
start_daemon --memory-budget 4G
K=$(client keys load k "$D/circuit.zkey")
stop_daemon
KEYB=$(num bytes <<<"$K")
PART=$(( $(num partition_bytes <<<"$K") + $(stat -c %s "$D/witness.wtns") ))
TIGHT=$(( KEYB + 2 * PART + PART / 2 ))   # the key + two partitions (three never fit)
echo "Sweep ($N proofs each; budget \"tight\" = key + 2.5 partitions = $((TIGHT >> 20)) MiB, \"loose\" = 4 GiB):"
echo
echo "| synth workers | budget | s/proof | peak RSS MiB | max partitions holding memory |"
echo "|---|---|---|---|---|"
for budget in tight loose; do
  for w in ${SWEEP:-1 2 4}; do
    b=$([ $budget = tight ] && echo "$TIGHT" || echo 4G)
    start_daemon --memory-budget "$b" --synth-workers "$w" --msm-queue "$w"
    client keys load k "$D/circuit.zkey" >/dev/null
    s=$(through_daemon k "$D/witness.wtns" "$N")
    echo "| $w | $budget | $(per "$s" "$N") | $(hwm_mib) | $(max_held) |"
    stop_daemon
  done
done
