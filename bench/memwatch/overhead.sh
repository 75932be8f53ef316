#!/bin/bash
# CPU used by `memwatch record` against a busy target, at 10 ms and 100 ms.
# Target: a shell with 3 children spinning on the CPU (4 processes to walk
# per sample).  memwatch records it with --pid, so /usr/bin/time (Debian
# package "time") measures memwatch alone; it is stopped with SIGTERM after
# SECONDS.  Prints a markdown block; --append adds it to bench/RESULTS.md
# under "## memwatch".
# usage: bench/memwatch/overhead.sh BUILD_DIR [SECONDS] [--append]
set -eu
BUILD=${1:?usage: overhead.sh BUILD_DIR [SECONDS] [--append]}
SECS=${2:-10}
APPEND=${3:-}
MW=$BUILD/bin/memwatch
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
sh -c 'for i in 1 2 3; do (while :; do :; done) & done; wait' & TARGET=$!
trap 'pkill -P $TARGET 2>/dev/null; kill $TARGET 2>/dev/null; rm -rf "$T"' EXIT
sleep 0.5

measure() { # INTERVAL -> "interval cpu_s wall_s samples"
  /usr/bin/time -f '%U %S %e' -o "$T/time" \
    "$MW" record --pid "$TARGET" --interval "$1" --out "$T/t.csv" & local tp=$!
  sleep "$SECS"
  pkill -TERM -P "$tp" -x memwatch
  wait "$tp"
  read -r u s e <"$T/time"
  echo "$1 $(echo "$u + $s" | bc) $e $(grep -c ',total,' "$T/t.csv")"
}

{
  echo
  echo "### $(date -u +%Y-%m-%d) overhead of memwatch record"
  echo
  echo "- machine: $(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- command: \`bench/memwatch/overhead.sh $BUILD $SECS\` (memwatch record --pid TARGET --interval I for ${SECS} s; target: 4 processes, 3 spinning)"
  echo
  echo "| interval | memwatch CPU (user+sys) | wall | CPU share | samples | CPU per sample |"
  echo "|---|---|---|---|---|---|"
  for i in 100ms 10ms; do
    measure $i | awk '{printf "| %s | %.2f s | %.1f s | %.2f%% | %d | %.0f us |\n", $1, $2, $3, 100*$2/$3, $4, $4 ? 1e6*$2/$4 : 0}'
  done
} | tee "$T/block.md"

if [ "$APPEND" = --append ]; then
  f=$ROOT/bench/RESULTS.md
  [ -f "$f" ] || printf '# Benchmark results\n' >"$f"
  grep -q '^## memwatch$' "$f" || printf '\n## memwatch\n' >>"$f"
  # insert at the end of our section: before the next "## " heading, if any
  awk -v blk="$T/block.md" '
    /^## / && insec { while ((getline l < blk) > 0) print l; print ""; insec=0; done=1 }
    { print }
    /^## memwatch$/ { insec=1 }
    END { if (insec && !done) while ((getline l < blk) > 0) print l }' "$f" >"$T/new" && cp "$T/new" "$f"
fi
