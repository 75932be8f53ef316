#!/bin/bash
# A key loaded with a circuit whose start code never ends
# (tests/witness/data/start_forever.wat: the start function runs as the
# circuit is opened) fails its load at --witness-timeout: POST /v1/keys
# answers 400 naming the wasm and the limit, the key is not left listed as
# loading (DELETE finds no key rather than a 409), no core keeps
# spinning, and the name loads again with its real circuit.
source "$(dirname "$0")/lib.sh"
M=$FIX/bn128/multiplier
command -v wat2wasm >/dev/null || fail "wat2wasm not found (Debian: wabt)"
wat2wasm "$(dirname "$0")/../witness/data/start_forever.wat" -o "$T/start_forever.wasm"
shared_circuits
start_daemon --memory-budget 1G --witness-timeout 1

t0=$SECONDS
got=$(api --max-time 60 -o "$T/last.json" -w '%{http_code}' -X POST \
  --data-binary "{\"name\": \"s\", \"path\": \"$M/circuit.zkey\", \"wasm\": \"$T/start_forever.wasm\"}" \
  http://d/v1/keys || true)
note "load with a start that never ends: $got after $((SECONDS - t0)) s: $(cat "$T/last.json" 2>/dev/null || true)"
[ "$got" = 400 ] || fail "POST /v1/keys: status $got, wanted 400 (000: no answer)"
grep -qF "$T/start_forever.wasm: its start code ran past the time limit of 1 s" "$T/last.json" ||
  fail "POST /v1/keys: unclear error: $(cat "$T/last.json")"
[ "$(api http://d/v1/keys | js o.keys.length)" = 0 ] || fail "the key is listed: $(api http://d/v1/keys)"
expect 404 "no key named s" DELETE /v1/keys/s
# The start code's thread stopped: the daemon idles (under a second of CPU
# time over 2 s; a spinning core takes 2).
read -r u1 s1 < <(awk '{print $14, $15}' "/proc/$PID/stat")
sleep 2
read -r u2 s2 < <(awk '{print $14, $15}' "/proc/$PID/stat")
ticks=$((u2 + s2 - u1 - s1)) hz=$(getconf CLK_TCK)
[ "$ticks" -lt "$hz" ] || fail "g16d used $ticks/$hz s of CPU in 2 s after the failed load"
# The name is free: it loads with the circuit that goes with the key.
client keys load s "$M/circuit.zkey" --wasm "$M/circuit.wasm" >/dev/null || fail "loading s again"
client prove --key s --wait --out "$T/out" --input "$M/input.json" >/dev/null || fail "a proof with s"
verify_dir "$M/verification_key.json" "$T/out" 1
stop_daemon
