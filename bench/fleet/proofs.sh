#!/bin/bash
# Proofs per second through a fleet (g16d --queue) of 1 host and of 3
# hosts on one throwaway PostgreSQL (tests/daemon/pg_server.sh), against
# one g16d without --queue, in the same run: one job of N partitions of a
# small synthetic circuit (`g16 synth --setup`, domain 2^k, both curves),
# all queued at once through host a, timed from the submission to the last
# result (`g16 client wait`; a fleet host's long-poll looks at the job
# every 0.2 s).  Every host loads the key before the clock starts, and
# every partition must end done.  Then the time from submission to result
# of single proofs on an idle host that polls (--no-listen) and on one
# woken by LISTEN/NOTIFY.  Prints Markdown on stdout.
#
# The 3-host row gives each host --threads 1, the others --threads 2: on a
# machine of 2 cores three hosts share the same cores, so the rows compare
# the fleet's overhead, not its scaling.
#   usage: [SIZES="10 12"] [N=120] bench/fleet/proofs.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: proofs.sh BUILD_DIR}
B=$(cd "$B" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SIZES=${SIZES:-10 12}
N=${N:-120}
G16=$B/bin/g16 G16D=$B/bin/g16d
T=$(mktemp -d /tmp/g16fp.XXXXXX)
source "$root/tests/daemon/pg_server.sh"
declare -A PIDS=()
cleanup() {
  local n
  for n in "${!PIDS[@]}"; do kill -9 "${PIDS[$n]}" 2>/dev/null || true; done
  pg_stop
  rm -rf "$T"
}
trap cleanup EXIT
pg_start
now() { date +%s.%N; }
cl() { local n=$1; shift; "$G16" client --socket "$T/$n.s" "$@"; }

# host NAME ARGS...: a fresh g16d NAME on $T/NAME.s.
host() {
  local n=$1
  shift
  rm -rf "$T/$n.st" "$T/$n.s"
  "$G16D" --socket "$T/$n.s" --state-dir "$T/$n.st" --allow-dir "$T" --device cpu \
    --memory-budget 2G --no-pin-keys "$@" >>"$T/$n.log" 2>&1 &
  PIDS[$n]=$!
  for _ in $(seq 300); do
    [ -S "$T/$n.s" ] && cl "$n" status >/dev/null 2>&1 && return
    kill -0 "${PIDS[$n]}" 2>/dev/null || { echo "g16d $n exited: $(tail -1 "$T/$n.log")" >&2; exit 1; }
    sleep 0.1
  done
  echo "g16d $n did not start" >&2
  exit 1
}

stop_hosts() {
  local n
  for n in "${!PIDS[@]}"; do kill -TERM "${PIDS[$n]}" && wait "${PIDS[$n]}" || true; done
  PIDS=()
}

# rate DIR HOST...: proofs/s of one job of N partitions of DIR's key,
# submitted through the first host, with the key loaded on every host.
rate() {
  local d=$1 n ws=() t0 id key
  shift
  key=$(basename "$d") # one name per circuit: the fleet keeps its registrations
  for n in "$@"; do cl "$n" keys load "$key" "$d/circuit.zkey" >/dev/null; done
  for _ in $(seq "$N"); do ws+=("$d/witness.wtns"); done
  t0=$(now)
  id=$(cl "$1" prove --key "$key" "${ws[@]}")
  cl "$1" wait "$id" --timeout 900 >"$T/job.json"
  echo "$t0 $(now)" | awk -v n="$N" '{printf "%.2f", n / ($2 - $1)}'
  grep -q "\"partitions_done\":$N," "$T/job.json" || { echo "job $id: not $N done" >&2; exit 1; }
  echo "$id" >"$T/last"
}

# shares ID: results of job ID per host, largest first ("41/40/39").
shares() {
  "$pg_bin/psql" -X -tA "$PG_URL" \
    -c "SELECT string_agg(c::text, '/' ORDER BY c DESC) FROM (SELECT count(*) c FROM results WHERE job = '$1' GROUP BY host) s"
}

# latency ARGS...: submit to result of one proof at a time (bn128, 2^10)
# through an idle fleet of one host started with ARGS, on the database's
# clock (the job's row to its result's), 20 jobs a second apart at most:
# "mean / median / worst" in ms.
latency() {
  local d=$T/bn128-10 ids=() id
  [ -d "$d" ] || "$G16" synth --constraints 1022 --curve bn128 --out "$d" --setup >/dev/null
  host a --threads 2 --queue "$PG_URL" "$@"
  cl a keys load bn128-10 "$d/circuit.zkey" >/dev/null
  for i in $(seq 20); do
    id=$(cl a prove --key bn128-10 "$d/witness.wtns")
    cl a wait "$id" --timeout 60 >/dev/null
    ids+=("'$id'")
    sleep "0.$((RANDOM % 10))" # the next submission lands anywhere in the poll's period
  done
  stop_hosts
  "$pg_bin/psql" -X -tA -F' / ' "$PG_URL" -c "SELECT round(avg(ms)), round(percentile_cont(0.5)
    WITHIN GROUP (ORDER BY ms)), round(max(ms)) FROM (SELECT 1e3 * extract(epoch FROM
    r.finished - j.created) ms FROM jobs j JOIN results r ON r.job = j.id
    WHERE j.id IN ($(IFS=,; echo "${ids[*]}"))) s"
}

echo "### $(date +%F) fleet: proofs per second, 1 vs 3 hosts, $N proofs a row"
echo
echo "- machine: $(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), load before: $(cut -d' ' -f1-3 /proc/loadavg); PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') (pg_server.sh: Unix socket, fsync off)"
echo "- command: \`SIZES=\"$SIZES\" N=$N bench/fleet/proofs.sh $B\`"
echo
echo "| curve | domain | g16d alone, --threads 2 | fleet of 1, --threads 2 | fleet of 3, --threads 1 each | 3 hosts / 1 host | results by host (3 hosts) |"
echo "|---|---|---|---|---|---|---|"
for curve in bn128 bls12381; do
  for k in $SIZES; do
    d=$T/$curve-$k
    "$G16" synth --constraints $(((1 << k) - 2)) --curve "$curve" --out "$d" --setup >/dev/null
    host a --threads 2
    alone=$(rate "$d" a)
    stop_hosts
    host a --threads 2 --queue "$PG_URL"
    one=$(rate "$d" a)
    stop_hosts
    for n in a b c; do host "$n" --threads 1 --queue "$PG_URL"; done
    three=$(rate "$d" a b c)
    stop_hosts
    ratio=$(echo "$three $one" | awk '{printf "%.2f", $1 / $2}')
    echo "| $curve | 2^$k | $alone | $one | $three | $ratio | $(shares "$(cat "$T/last")") |"
  done
done
echo
echo "Submit to result of one proof (bn128, 2^10) on an idle fleet of one host (--threads 2), 20 jobs one at a time, on the database's clock (ms, mean / median / worst):"
echo
echo "| idle host | submit to result, ms |"
echo "|---|---|"
echo "| polls every 100 ms (--no-listen) | $(latency --no-listen) |"
echo "| woken by LISTEN/NOTIFY | $(latency) |"
