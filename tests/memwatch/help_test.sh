#!/bin/bash
# --help of each subcommand exits 0 and documents every flag it accepts.
. "$(dirname "$0")/lib.sh"
"$MW" --help | grep -q 'memwatch record' || fail "top-level help"
"$MW" record --help >r.txt || fail "record --help"
for f in --interval --out --per-process --pss --mark-file --mark-regex --mark-log \
         --no-reset --no-gpu --live --pid --pgrep MEMWATCH_MARK_FILE; do
  grep -q -- "$f" r.txt || fail "record --help lacks $f"
done
"$MW" summarize --help >s.txt || fail "summarize --help"
for f in --phases --thresholds --json exact summed sampled; do grep -q -- "$f" s.txt || fail "summarize --help lacks $f"; done
"$MW" plot --help >p.txt || fail "plot --help"
grep -q -- "-o OUT.svg" p.txt || fail "plot --help lacks -o"
expect_error "unknown subcommand 'frobnicate'" sh -c "\"$MW\" frobnicate 2>&1 >/dev/null | tail -1 >&2; exit 2"
ok "help"
