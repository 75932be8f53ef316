#!/bin/bash
# The budget holds: with room for only two partitions beside the key, 40
# partitions submitted at once all finish and verify, the daemon's VmHWM
# stays under budget + a fixed overhead, and the timeline shows partitions
# waiting in the queue (never more than two holding memory).
source "$(dirname "$0")/lib.sh"
D=$FIX/bn128/chain
KEY=$(stat -c %s "$D/circuit.zkey")
WT=$(stat -c %s "$D/witness.wtns")
# One partition's footprint as the daemon computes it (g16_key_job_bytes +
# the witness file): read back from the key listing of a probe daemon.
start_daemon --memory-budget 1G
client keys load chain "$D/circuit.zkey" >"$T/key.json"
PART=$(js o.partition_bytes <"$T/key.json")
stop_daemon
rm -rf "$STATE"
BUDGET=$((KEY + 2 * (PART + WT) + (PART + WT) / 2))   # 2.5 partitions: two fit, never three
note "key $KEY B, partition $((PART + WT)) B, budget $BUDGET B"
start_daemon --memory-budget "$BUDGET" --synth-workers 4 --msm-queue 8 --sample-interval 20
IDLE=$(rss_kb)
client keys load chain "$D/circuit.zkey" >/dev/null
ws=()
for i in $(seq 10); do ws+=("$D/witness.wtns"); done
ids=()
for j in 1 2 3 4; do ids+=("$(client prove --key chain "${ws[@]}")"); done
for j in 0 1 2 3; do
  client wait "${ids[$j]}" --timeout 300 --out "$T/out$j" >"$T/job$j.json" || fail "job $j did not finish"
  [ "$(js o.partitions_done <"$T/job$j.json")" = 10 ] || fail "job $j: not all partitions done"
  verify_dir "$D/verification_key.json" "$T/out$j" 10
done
snarkjs_ok "$D/verification_key.json" "$T/out3/public-9.json" "$T/out3/proof-9.json"
check_hwm "$BUDGET" "$IDLE"
timeline 4
[ $((MAXRES * 1024 + KEY)) -le "$BUDGET" ] || fail "reservations ($MAXRES KiB) + key exceed the budget"
[ "$MAXHELD" -le 4 ] || fail "$MAXHELD partitions held memory at once: pile-up"
[ "$MAXQ" -ge 20 ] || fail "the timeline never shows work waiting (max queue $MAXQ)"
[ "$HELDBACK" -ge 1 ] || fail "the timeline never shows the budget holding work back"
client memory --plot "$T/mem.svg" && grep -q "<svg" "$T/mem.svg" || fail "memory --plot wrote no SVG"
stop_daemon
