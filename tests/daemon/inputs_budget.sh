#!/bin/bash
# The budget holds for input partitions: their reservation counts the
# witness calculation (the calculator's memory cap, the witness values
# and the .wtns) on top of the proof's.  With room for two and a half
# partitions beside the key, one job of 20 inputs finishes with every
# proof verifying, reservations never exceed the budget, the budget (not
# the workers) holds work back, and VmHWM stays under budget + overhead.
source "$(dirname "$0")/lib.sh"
D=$FIX/bn128/chain
KEY=$(stat -c %s "$D/circuit.zkey")
WMEM=$((2 << 20))   # the calculator's cap: chain starts with 13 pages (832 KiB)
# The sizes as the daemon computes them, read back from a probe daemon.
shared_circuits
start_daemon --memory-budget 1G --witness-memory "$WMEM"
client keys load chain "$D/circuit.zkey" --wasm "$D/circuit.wasm" >"$T/key.json"
PART=$(js o.partition_bytes <"$T/key.json")
WT=$(js o.circuit.wtns_bytes <"$T/key.json")
LIMIT=$(js o.circuit.memory_limit <"$T/key.json")
[ "$LIMIT" = "$WMEM" ] || fail "--witness-memory $WMEM: the circuit's cap is $LIMIT"
stop_daemon
rm -rf "$STATE" && shared_circuits
# A partition: the proof's bytes, the .wtns, and the calculation (cap,
# witness values, the few bytes of parsed input: 4 KiB is plenty).
ONE=$((PART + 2 * WT + LIMIT + 4096))
BUDGET=$((KEY + 2 * ONE + ONE / 2))
note "key $KEY B, input partition about $ONE B, budget $BUDGET B"
start_daemon --memory-budget "$BUDGET" --witness-memory "$WMEM" --synth-workers 4 --msm-queue 8 \
  --sample-interval 20
IDLE=$(rss_kb)
client keys load chain "$D/circuit.zkey" --wasm "$D/circuit.wasm" >/dev/null
ins=()
for i in $(seq 20); do
  printf '{"x": "%d"}' "$i" >"$T/in$i.json"
  ins+=("$T/in$i.json")
done
client prove --key chain --wait --out "$T/out" --input "${ins[@]}" >"$T/job.json" || fail "the job of 20 inputs failed"
[ "$(js o.partitions_done <"$T/job.json")" = 20 ] || fail "not all 20 partitions done"
verify_dir "$D/verification_key.json" "$T/out" 20
snarkjs_ok "$D/verification_key.json" "$T/out/public-19.json" "$T/out/proof-19.json"
check_hwm "$BUDGET" "$IDLE"
timeline 4
[ $((MAXRES * 1024 + KEY)) -le "$BUDGET" ] || fail "reservations ($MAXRES KiB) + key exceed the budget"
[ $((MAXRES * 1024)) -ge "$ONE" ] || fail "a reservation ($MAXRES KiB) smaller than one input partition"
[ "$MAXHELD" -le 4 ] || fail "$MAXHELD partitions held memory at once: pile-up"
# Two whole reservations fit, three do not: were the calculation left out
# of the reservation, all four workers would compute at once.
[ "$MAXSYN" -le 2 ] || fail "$MAXSYN partitions in synthesis at once: the calculation is not reserved"
[ "$HELDBACK" -ge 1 ] || fail "the timeline never shows the budget holding work back"
stop_daemon
