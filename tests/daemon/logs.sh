#!/bin/bash
# The log: --log-format json writes one JSON object a line, each with ts,
# level, event and the event's fields: the start, a key loaded and
# evicted, a job accepted, each partition done, a budget wait, the stop;
# text (the default) writes "g16d: LEVEL EVENT name=value ..."; and
# --log-level warning keeps the info lines out.
source "$(dirname "$0")/lib.sh"
D=$FIX/bn128/chain
KEY=$(stat -c %s "$D/circuit.zkey")
WT=$(stat -c %s "$D/witness.wtns")
start_daemon --memory-budget 1G
client keys load chain "$D/circuit.zkey" >"$T/key.json"
PART=$(($(js o.partition_bytes <"$T/key.json") + WT))
stop_daemon
grep -q "^g16d: info key_loaded key=chain path=$(realpath "$D")/circuit.zkey bytes=$KEY " "$LOG" ||
  fail "no text line for the key: $(grep key_loaded "$LOG")"
rm -rf "$STATE"
: >"$LOG"

note "json: room for one partition beside the key, four submitted"
start_daemon --log-format json --log-level debug --memory-budget $((KEY + PART + PART / 2)) --synth-workers 2
client keys load chain "$D/circuit.zkey" >/dev/null
id=$(client prove --key chain "$D/witness.wtns" "$D/witness.wtns" "$D/witness.wtns" "$D/witness.wtns")
client wait "$id" --timeout 120 --out "$T/o" >/dev/null || fail "the job did not finish"
[ "$(code DELETE /v1/keys/chain)" = 200 ] || fail "evict: $(cat "$T/last.json")"
stop_daemon
node - "$LOG" "$id" "$KEY" <<'JS' || fail "the json log: $(head -c 2000 "$LOG")"
const [file, id, keyBytes] = process.argv.slice(2);
const lines = require("fs").readFileSync(file, "utf8").split("\n").filter(l => l);
const ev = lines.map((l, i) => {
  try { return JSON.parse(l); } catch (e) { throw new Error(`line ${i + 1} is no JSON: ${l}`); }
});
for (const e of ev)
  if (typeof e.ts !== "number" || !["debug", "info", "notice", "warning", "error"].includes(e.level) || !e.event)
    throw new Error(`a line without ts, level or event: ${JSON.stringify(e)}`);
const of = name => ev.filter(e => e.event === name);
const one = (name, test) => {
  if (!of(name).some(test)) throw new Error(`no ${name} line with its fields: ${JSON.stringify(of(name))}`);
};
one("listening", e => e.socket && e.budget > 0 && e.synth_workers === 2);
one("key_loaded", e => e.key === "chain" && e.bytes === Number(keyBytes) && e.device === "cpu");
one("job_accepted", e => e.id === id && e.key === "chain" && e.partitions === 4 && e.priority === 0);
const done = of("partition_done").filter(e => e.job === id);
if (done.map(e => e.index).sort().join() !== "0,1,2,3" || !done.every(e => e.seconds > 0 && e.level === "info"))
  throw new Error(`partition_done lines: ${JSON.stringify(done)}`);
one("budget_wait", e => e.job === id && e.need > 0 && e.free >= 0);
one("key_evicted", e => e.key === "chain" && e.bytes === Number(keyBytes));
one("stopping", e => e.signal && e.left === 0 && e.level === "notice");
one("stopped", e => e.partitions_queued === 0);
console.log(`-- ${lines.length} json lines, events: ${[...new Set(ev.map(e => e.event))].join(" ")}`);
JS
rm -rf "$STATE"
: >"$LOG"

note "--log-level warning: no info lines"
start_daemon --log-level warning --memory-budget 1G
client keys load chain "$D/circuit.zkey" >/dev/null
client wait "$(client prove --key chain "$D/witness.wtns")" --timeout 60 >/dev/null || fail "job"
stop_daemon
! grep -q "info\|notice" "$LOG" || fail "info lines at --log-level warning: $(cat "$LOG")"
"$G16D" --log-format xml >"$T/bad.log" 2>&1 && fail "--log-format xml accepted"
grep -q "log-format" "$T/bad.log" || fail "no word of the bad --log-format: $(cat "$T/bad.log")"
