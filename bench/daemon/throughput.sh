#!/bin/bash
# Small-proof throughput: proofs per second through g16d (one job of N
# partitions, all queued at once) against the machine's capacity for the
# same key in the same run, the better of `g16 prove --repeat N --jobs J`
# for J = 1 and J = nproc (J proofs in flight in one process, the threads
# shared out).  Synthetic circuits of 2^k - 2 constraints (domain 2^k) from
# `g16 synth --setup`, both curves.  Prints Markdown on stdout.
#   usage: [SIZES="10 14"] [N=40] bench/daemon/throughput.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: throughput.sh BUILD_DIR}
B=$(cd "$B" && pwd)
SIZES=${SIZES:-10 14}
N=${N:-40}
T=$(mktemp -d /tmp/g16tp.XXXXXX)
G16=$B/bin/g16 G16D=$B/bin/g16d ALLOW=$T
source "$(dirname "$0")/lib.sh"
trap '[ -n "$PID" ] && kill -9 $PID 2>/dev/null; rm -rf "$T"' EXIT
CPUS=$(nproc)

# capacity DIR J: proofs/s of `g16 prove --repeat N --jobs J`
capacity() {
  "$G16" prove --device cpu --repeat "$N" --jobs "$2" "$1/circuit.zkey" "$1/witness.wtns" \
    "$T/p.json" "$T/q.json" 2>&1 | grep -o '[0-9.]* proofs/s' | cut -d' ' -f1
}

# daemon_rate DIR: "RATE HWM": proofs/s of one job of N partitions through
# g16d, and the daemon's VmHWM in MiB
daemon_rate() {
  start_daemon --memory-budget 4G --device cpu
  client keys load k "$1/circuit.zkey" >/dev/null
  local ws=() t0 id
  for _ in $(seq "$N"); do ws+=("$1/witness.wtns"); done
  t0=$(now)
  id=$(client prove --key k "${ws[@]}")
  client wait "$id" --timeout 900 >/dev/null
  local s
  s=$(since "$t0")
  local hwm
  hwm=$(hwm_mib)
  stop_daemon
  echo "$N $s $hwm" | awk '{printf "%.2f %s\n", $1 / $2, $3}'
}

echo "### $(date +%F) g16d throughput of small proofs, $N proofs a row"
echo
echo "- machine: $(uname -srm), $CPUS CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- command: \`SIZES=\"$SIZES\" N=$N bench/daemon/throughput.sh $B\`"
echo
echo "| curve | domain | prove --jobs 1, proofs/s | prove --jobs $CPUS, proofs/s | g16d, proofs/s | g16d / capacity | g16d VmHWM MiB |"
echo "|---|---|---|---|---|---|---|"
for curve in bn128 bls12381; do
  for k in $SIZES; do
    d=$T/$curve-$k
    "$G16" synth --constraints $(((1 << k) - 2)) --curve "$curve" --out "$d" --setup >/dev/null
    c1=$(capacity "$d" 1)
    cj=$(capacity "$d" "$CPUS")
    best=$(echo "$c1 $cj" | awk '{print ($1 > $2) ? $1 : $2}')
    read -r dr hwm < <(daemon_rate "$d")
    ratio=$(echo "$dr $best" | awk '{printf "%.2f", $1 / $2}')
    echo "| $curve | 2^$k | $c1 | $cj | $dr | $ratio | $hwm |"
  done
done
