#!/usr/bin/env bash
# bench/setup/merge.sh SECTION.md: replaces the "## setup" section of
# bench/RESULTS.md (up to the next "## " heading) with SECTION.md, or
# appends it; other sections are left as they are.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
results=$root/bench/RESULTS.md
[ -f "$results" ] || printf '# Benchmark results\n' >"$results"
tmp=$(mktemp "$results.XXXXXX")
awk -v section="$1" '
  function emit() { while ((getline line < section) > 0) print line; close(section); print ""; done = 1 }
  /^## / { if (skipping) skipping = 0; if ($0 == "## setup") { emit(); skipping = 1; next } }
  !skipping { print }
  END { if (!done) { print ""; emit() } }
' "$results" >"$tmp"
mv "$tmp" "$results"
