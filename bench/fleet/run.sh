#!/usr/bin/env bash
# Claims per second and submit-to-claim latency of the fleet's queue with
# 1, 3 and 10 hosts (connections, one thread each), idle ones polling or
# woken by LISTEN/NOTIFY, against one throwaway
# PostgreSQL (tests/daemon/pg_server.sh): a markdown table on stdout.
#   bench/fleet/run.sh BUILD_DIR [ITEMS] [BATCH]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${1:?usage: run.sh BUILD_DIR [ITEMS] [BATCH]}/bin/bench_fleet_claims
items=${2:-3000}
batch=${3:-1}
[ -x "$bin" ] || { echo "run.sh: $bin not built (cmake --build BUILD_DIR --target bench_fleet_claims)" >&2; exit 1; }
source "$root/tests/daemon/pg_server.sh"
trap pg_stop EXIT
pg_start
echo "- machine: $(nproc) CPUs, $(uname -sr), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- $items empty work items per row, each claim followed by its result; latency: 20 single submissions, idle hosts polling every 100 ms, or woken by LISTEN/NOTIFY (and polling)"
echo
echo "| hosts | idle | batch | claimed | claims/s | ms per claim call | submit to claim, mean ms | worst ms |"
echo "|---|---|---|---|---|---|---|---|"
for idle in poll listen; do
  for h in 1 3 10; do "$bin" "$PG_URL" "$h" "$items" "$batch" "$idle"; done
done
