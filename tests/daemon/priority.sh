#!/bin/bash
# Priorities: a high-priority job submitted behind a queue of low ones
# finishes first; equal priorities run in submission order.
source "$(dirname "$0")/lib.sh"
D=$FIX/bn128/chain
start_daemon --memory-budget 1G --synth-workers 1 --msm-queue 1
client keys load chain "$D/circuit.zkey" >/dev/null
ws=(); for i in $(seq 10); do ws+=("$D/witness.wtns"); done
low1=$(client prove --key chain --priority 0 "${ws[@]}")
low2=$(client prove --key chain --priority 0 "${ws[@]}")
low3=$(client prove --key chain --priority 0 "${ws[@]}")
high=$(client prove --key chain --priority 10 "$D/witness.wtns" "$D/witness.wtns")
for j in $high $low1 $low2 $low3; do client wait "$j" --timeout 120 >"$T/$j.json" || fail "job $j failed"; done
fin() { js o.finished <"$T/$1.json"; }
note "finished: high $(fin "$high"), low1 $(fin "$low1"), low2 $(fin "$low2"), low3 $(fin "$low3")"
node -e 'const [h,a,b,c]=process.argv.slice(1).map(Number);process.exit(h<b&&h<c&&a<b&&b<c?0:1)' \
  "$(fin "$high")" "$(fin "$low1")" "$(fin "$low2")" "$(fin "$low3")" ||
  fail "the high-priority job did not overtake the queue (or FIFO among equals broke)"
stop_daemon
