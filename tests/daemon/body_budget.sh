#!/bin/bash
# Request bodies are read and parsed within the memory budget: a body's
# buffer is charged from its Content-Length before it is read (or as a
# chunked one grows), its parse from its tokens before the parse starts,
# and both go back when the request ends.  Under a 64 MiB budget: a body
# whose parse could never fit gets 413 at once, sent with a length or
# chunked; while a slow upload holds most of the budget, one that does
# not fit now gets 507 and, once the upload is gone, the same body is
# parsed and refused for what it says (400); six such bodies at once
# are each refused one way or the other, VmHWM stays within budget +
# overhead (parsing them unreserved took 4-6x the budget), and the
# daemon still proves a well-formed input afterwards.
source "$(dirname "$0")/lib.sh"
M=$FIX/bn128/multiplier
BUDGET=$((64 << 20))
shared_circuits
start_daemon --memory-budget "$BUDGET" --synth-workers 1 --witness-memory 4M
client keys load mul "$M/circuit.zkey" --wasm "$M/circuit.wasm" >/dev/null
IDLE=$(rss_kb) # the circuit's code and first instance are outside the budget

# body N FILE: one input whose signal a has N values (the circuit takes one).
body() {
  node -e 'const n=+process.argv[1];process.stdout.write(`{"key":"mul","inputs":[{"a":[${Array(n).fill(1).join(",")}],"b":"1"}]}`)' "$1" >"$2"
}
body 1000000 "$T/huge.json" # 2 MB of numbers: parsed, more than 64 MiB
body 300000 "$T/big.json"   # 600 KB: parsed, about half the budget
# post FILE [CURL ARGS]: the status; the reply in $T/last.json.
post() {
  local f=$1
  shift
  api -o "$T/last.json" -w '%{http_code}' -X POST --data-binary "@$f" "$@" http://d/v1/proofs
}
requests() { client status | js o.budget.requests; }

got=$(post "$T/huge.json")
[ "$got" = 413 ] || fail "a body whose parse exceeds the budget: $got ($(cat "$T/last.json"))"
grep -q "more than the whole budget" "$T/last.json" || fail "413 without why: $(cat "$T/last.json")"
note "413 $(cat "$T/last.json")"
got=$(post "$T/huge.json" -H "Transfer-Encoding: chunked")
[ "$got" = 413 ] || fail "the same body chunked: $got ($(cat "$T/last.json"))"

# A slow upload of 40 MiB holds its buffer's charge from its headers on.
head -c $((40 << 20)) /dev/zero >"$T/slow.bin"
curl -s --unix-socket "$SOCK" -o /dev/null -X POST --data-binary "@$T/slow.bin" --limit-rate 64K \
  http://d/v1/proofs &
SLOW=$!
for _ in $(seq 50); do [ "$(requests)" -gt $((40 << 20)) ] && break; sleep 0.1; done
[ "$(requests)" -gt $((40 << 20)) ] || fail "a 40 MiB upload is not charged: $(requests) bytes held by requests"
got=$(post "$T/big.json")
[ "$got" = 507 ] || fail "a body that does not fit beside the upload: $got ($(cat "$T/last.json"))"
grep -q "try later" "$T/last.json" || fail "507 without why: $(cat "$T/last.json")"
note "507 $(cat "$T/last.json")"
kill "$SLOW"
wait "$SLOW" 2>/dev/null || true
for _ in $(seq 50); do [ "$(requests)" = 0 ] && break; sleep 0.1; done
[ "$(requests)" = 0 ] || fail "the aborted upload's charge was not given back: $(requests)"
expect 400 "'a' has 300000 values" POST /v1/proofs "@$T/big.json"

# Six at once: each parsed (400) or refused for room (507), within budget.
pids=()
for i in $(seq 6); do
  (post "$T/big.json" >"$T/code$i"; cp "$T/last.json" "$T/reply$i") &
  pids+=($!)
done
wait "${pids[@]}"
n400=0
for i in $(seq 6); do
  c=$(cat "$T/code$i")
  case $c in
    400) n400=$((n400 + 1)) ;;
    507) ;;
    *) fail "concurrent body $i: $c ($(cat "$T/reply$i"))" ;;
  esac
done
note "six concurrent bodies: $n400 parsed (400), $((6 - n400)) refused for room (507)"
[ "$n400" -ge 1 ] || fail "none of the six bodies was parsed"
check_hwm "$BUDGET" "$IDLE"
[ "$(requests)" = 0 ] || fail "requests still hold $(requests) bytes"
[ "$(client status | js o.budget.reserved)" = 0 ] || fail "reservations left after the requests"

# The budget, given back, proves a well-formed input.
id=$(client prove --key mul --input "$M/input.json")
client wait "$id" --timeout 60 --out "$T/out" >/dev/null || fail "the input job failed"
verify_dir "$M/verification_key.json" "$T/out" 1
stop_daemon
