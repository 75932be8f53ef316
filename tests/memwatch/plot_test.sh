#!/bin/bash
# The SVG renders in a browser: headless Chromium to PNG, then the PNG must
# be the window's size, colorful and far from blank.
. "$(dirname "$0")/lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser) \
  || fail "chromium not found: apt-get install -y chromium"
"$MW" record --interval 20ms --mark-file marks --out t.csv -- \
  "$HELP/mw_spike" --slot 300 load:40:100 spike:120:30 rest:0:0 || fail "record"
"$MW" plot t.csv -o t.svg || fail "plot"
grep -q '<svg' t.svg && grep -q 'peak' t.svg || fail "not an SVG with a peak"
grep -Eq 'href|<script' t.svg && fail "SVG is not self-contained"
for ph in load spike; do grep -q ">$ph<" t.svg || fail "phase band '$ph' missing"; done
"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$T/profile" \
  --screenshot="$T/t.png" --window-size=1200,800 "file://$T/t.svg" >chromium.log 2>&1
[ -s t.png ] || { tail -5 chromium.log; fail "chromium wrote no PNG"; }
"$HELP/png_check" t.png 1200 800 20 || fail "rendering looks wrong"
ok "SVG rendered"
