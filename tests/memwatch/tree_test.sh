#!/bin/bash
# Descendants are summed: a parent forks two children of 40 MiB each.
. "$(dirname "$0")/lib.sh"
"$MW" record --interval 50ms --per-process --out t.csv -- "${NO_LSAN[@]}" "$HELP/mw_forker" 2 40 1500 \
  || fail "record exited $?"
csv_valid t.csv
nproc=$(awk -F, '$3=="total"{if($7>m)m=$7} END{print m}' t.csv)
[ "$nproc" = 3 ] || fail "at most $nproc processes seen, want 3"
# the largest total holds both children: 80 MiB and some
rss=$(awk -F, '$3=="total" && $7==3 {if($8>m)m=$8} END{print m+0}' t.csv)
[ "$rss" -ge $((80 * 1024)) ] || fail "summed RSS $rss KiB < 80 MiB"
# and equals the sum of its proc rows
awk -F, '$3=="total"{t[$2]=$8} $3=="proc"{s[$2]+=$8} END{for(k in t) if(t[k]!=s[k]) {print k, t[k], s[k]; exit 1}}' t.csv \
  || fail "total rows are not the sum of their proc rows"
"$MW" summarize t.csv --json >s.json || fail "summarize"
grep -q '"max_processes": 3' s.json || fail "summary lacks 3 processes"
grep -q '"peak_kind": "summed"' s.json || fail "several processes must give a summed peak"
ok "3 processes, summed RSS up to $rss KiB"
