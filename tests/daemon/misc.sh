#!/bin/bash
# Help, config file, socket mode, the TCP listener's bearer token (its file
# private to its owner, as ssh wants private keys), LRU
# eviction of idle keys under the budget, cancellation, metrics and the
# memory endpoint.
source "$(dirname "$0")/lib.sh"
"$G16D" --help >"$T/help.txt"
for o in config socket state-dir allow-dir tcp-port token-file memory-budget budget-margin synth-workers \
         msm-workers finalize-workers msm-queue finalize-queue threads domain-per-thread max-body result-ttl fetched-ttl \
         sample-interval self-verify no-self-verify max-connections device device-memory-budget g2-on-cpu pin-keys no-pin-keys help; do
  grep -q -- "--$o" "$T/help.txt" || fail "g16d --help does not document --$o"
done
"$G16D" --bogus 2>"$T/err" && fail "unknown option accepted"
grep -q "unknown option" "$T/err" || fail "unclear message for an unknown option"
# (grep reads files here: grep -q on a pipe can kill the writer, and pipefail)
"$G16" client --help >"$T/chelp.txt"
grep -q "keys load" "$T/chelp.txt" || fail "g16 client --help"
# Config file, overridden by a flag; TCP needs a token.
printf 'abcdefghijklmnopqrstuvwxyz012345\n' >"$T/token"
chmod 0644 "$T/token"
"$G16D" --tcp-port 1 --token-file "$T/token" --socket "$T/x" 2>"$T/err" && fail "a token file others may read accepted"
grep -q "chmod 600" "$T/err" || fail "unclear error for a token file others may read: $(cat "$T/err")"
chmod 0600 "$T/token"
PORT=$(( 20000 + RANDOM % 20000 ))
cat >"$T/g16d.conf" <<CONF
# g16d test config
memory-budget = "64M"
tcp-port = $PORT
token-file = $T/token
synth-workers = 3
CONF
"$G16D" --tcp-port 1 --socket "$T/x" 2>"$T/err" && fail "--tcp-port without a token accepted"
# Budget: two merkle keys and one partition fit, three keys do not.  One
# thread per stage call: a partition's MSM scratch grows with the threads
# (per-thread buckets), and the premise that a partition is smaller than
# a key must not depend on the machine's cores.
M=$FIX/bn128/merkle
start_daemon --memory-budget 1G --threads 1      # probe: what the daemon charges a key and a partition
client keys load p "$M/circuit.zkey" >"$T/probe.json"
# A key on a GPU also holds a pinned host buffer for its witness, and its
# upload holds the coefficients sorted by row while it runs (less than a
# second copy of the file, the bound used here): a resident key costs
# KEYB, loading one at most LOADB at its peak.
KEYB=$(js 'o.bytes + o.host_pinned_bytes' <"$T/probe.json")
LOADB=$(js 'o.device === "gpu" ? 2 * o.bytes : o.bytes' <"$T/probe.json")
PART=$(( $(js o.partition_bytes <"$T/probe.json") + $(stat -c %s "$M/witness.wtns") ))
stop_daemon
rm -rf "$STATE"
BUDGET=$((KEYB + (LOADB > KEYB ? LOADB : KEYB) + PART + 50000))
note "key $KEYB B (loading $LOADB B), partition $PART B, budget $BUDGET B"
[ "$PART" -lt "$KEYB" ] || fail "premise: a partition ($PART B) is not smaller than the key ($KEYB B)"
start_daemon --config "$T/g16d.conf" --memory-budget "$BUDGET" --threads 1
[ $((KEYB * 3)) -gt "$BUDGET" ] || fail "premise: the test budget admits three keys"
[ "$(stat -c %a "$SOCK")" = 600 ] || fail "socket mode is $(stat -c %a "$SOCK"), not 600"
[ "$(client status | js o.stages.synthesis.workers)" = 3 ] || fail "config file ignored"
c=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/v1/status")
[ "$c" = 401 ] || fail "TCP without token: $c, wanted 401"
c=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer wrongwrongwrongwrong" "http://127.0.0.1:$PORT/v1/status")
[ "$c" = 401 ] || fail "TCP with a wrong token: $c, wanted 401"
c=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary "{\"name\": \"t\", \"path\": \"$M/circuit.zkey\"}" \
    "http://127.0.0.1:$PORT/v1/keys")
[ "$c" = 401 ] || fail "TCP POST without token: $c, wanted 401"
[ "$(client keys list | js 'o.keys.length')" = 0 ] || fail "a POST refused with 401 loaded its key anyway"
"$G16" client --tcp "$PORT" --token-file "$T/token" status >/dev/null || fail "TCP with the token refused"
# LRU: room for two keys; loading a third evicts the least recently used.
client keys load a "$M/circuit.zkey" >/dev/null
client keys load b "$M/circuit.zkey" >/dev/null
id=$(client prove --key a "$M/witness.wtns")   # a is now the more recent
client wait "$id" --timeout 60 >/dev/null || fail "proof with key a failed"
client keys load c "$M/circuit.zkey" >/dev/null || fail "no room made for key c"
names=$(client keys list | js 'o.keys.map(k=>k.name).sort().join(",")')
[ "$names" = "a,c" ] || fail "after LRU eviction keys are $names, wanted a,c"
client keys evict c >/dev/null || fail "evict failed"
client keys evict c 2>"$T/err" && fail "evicting twice succeeded"
# Cancel a long job.
ws=(); for i in $(seq 40); do ws+=("$M/witness.wtns"); done
id=$(client prove --key a "${ws[@]}")
client cancel "$id" >/dev/null || fail "cancel failed"
client wait "$id" --timeout 60 >"$T/c.json" && fail "a cancelled job reported success"
[ "$(js o.state <"$T/c.json")" = cancelled ] || fail "state after cancel: $(js o.state <"$T/c.json")"
client status | js 'o.budget.reserved' >"$T/r"
sleep 0.5
[ "$(client status | js o.budget.reserved)" = 0 ] || fail "cancelled partitions still hold budget"
api http://d/metrics >"$T/metrics.txt"
grep -q '^g16d_budget_bytes{kind="total"}' "$T/metrics.txt" || fail "metrics lack the budget"
grep -q '^g16d_memory_peak_since_scrape_bytes' "$T/metrics.txt" || fail "metrics lack the scrape peak"
now=$(date +%s)
api "http://d/v1/memory?since=$now" >"$T/mem.csv"
head -1 "$T/mem.csv" | grep '^unix_s,.*,q_synth,busy_synth' >/dev/null || fail "memory CSV header"
[ "$(api "http://d/v1/memory?format=json&since=$now" | js 'o.samples.every(s=>s.t>='"$now"')')" = true ] || fail "since= ignored"
stop_daemon
