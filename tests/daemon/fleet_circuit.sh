#!/bin/bash
# A fleet key's circuit is bound to its bytes, as the key is: host a
# registers a key with its wasm (the fleet records the wasm's SHA-256), then
# the file is replaced by another circuit's (same inputs, same witness size,
# another constraint).  Host b never proves with it: a job submitted
# through b is refused (400, naming the file and both digests); a job queued
# through a is not claimed by b, whose GET /v1/fleet entry says why, and a
# (which compiled the registered bytes) proves it once it runs again.  With
# the registered file back, b proves.  A key registered before the fleet
# recorded circuits' digests is refused until it is registered again.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fleet_lib.sh"

D=$T/c
mkdir -p "$D"
cp "$FIX/bn128/multiplier/circuit.zkey" "$FIX/bn128/multiplier/circuit.wasm" "$FIX/bn128/multiplier/input.json" "$D/"
cp "$D/circuit.wasm" "$T/registered.wasm"
# the other circuit: c = a * b + 1 (one constraint over the same four wires)
circom=$(dirname "${G16_SNARKJS:-}")/circom2
[ -x "$circom" ] || fail "circom2 not found at $circom (make deps)"
sed 's/c <== a \* b;/c <== a * b + 1;/' "$FIX/bn128/multiplier/circuit.circom" >"$T/other.circom"
grep -q 'a \* b + 1' "$T/other.circom" || fail "the other circuit was not made"
(cd "$T" && "$circom" other.circom --wasm -o "$T" >"$T/circom.log" 2>&1) || fail "circom2: $(cat "$T/circom.log")"
reg_sha=$(sha256sum "$T/registered.wasm" | cut -d' ' -f1)
other_sha=$(sha256sum "$T/other_js/other.wasm" | cut -d' ' -f1)
[ "$reg_sha" != "$other_sha" ] || fail "the two circuits have the same bytes"

# a polls (no LISTEN): a job it accepts stays queued until its next look
start_host a --lease 5 --memory-budget 1G --no-listen
# b's proofs are not verified: what it would prove with another circuit
# would come out as a proof, as from any host configured so
start_host b --lease 5 --memory-budget 1G --no-self-verify
host_b=$(host_id b)

note "a registers the key with its circuit: the wasm's SHA-256 is recorded"
hc a keys load mult "$D/circuit.zkey" --wasm "$D/circuit.wasm" >"$T/key.json" || fail "a: key load"
[ "$(sql "SELECT wasm_sha256 FROM keys WHERE name = 'mult'")" = "$reg_sha" ] ||
  fail "the circuit's SHA-256 is not registered: $(sql "SELECT * FROM keys")"
[ "$(js o.circuit.sha256 <"$T/key.json")" = "$reg_sha" ] || fail "the listing lacks the circuit's SHA-256: $(cat "$T/key.json")"

note "the wasm is replaced by another circuit's"
cp "$T/other_js/other.wasm" "$D/circuit.wasm"

note "a job through b: refused, naming the file and both digests"
st=$(hapi b -o "$T/e.json" -w '%{http_code}' -X POST \
  --data-binary "{\"key\":\"mult\",\"inputs\":[$(cat "$D/input.json")]}" http://d/v1/proofs)
e=$(cat "$T/e.json")
[ "$st" = 400 ] || fail "b accepted a job for a key whose circuit changed: $st $e"
[[ "$e" == *"$D/circuit.wasm"* && "$e" == *"$other_sha"* && "$e" == *"$reg_sha"* ]] ||
  fail "the error does not name the file and both digests: $e"
note "400 $e"
[ "$(sql "SELECT count(*) FROM jobs")" = 0 ] || fail "a refused job reached the queue"
hc b keys list | js 'o.keys.length' | grep -qx 0 || fail "b kept the other circuit loaded"

note "a job through a that b would claim: b refuses the key, never proves it"
in=(); for _ in $(seq 20); do in+=("$D/input.json"); done
id=$(hc a prove --key mult --input "${in[@]}") || fail "a: submit"
kill -STOP "${HPID[a]}"
LOG=$T/b.log
for _ in $(seq 100); do grep -q "not the file registered" "$T/b.log" && break; sleep 0.1; done
grep -q "fleet_key_refused key=mult skip_s=10 error=\"key mult: its circuit is not the file registered in the fleet: $D/circuit.wasm: SHA-256 $other_sha, but $reg_sha was expected" "$T/b.log" ||
  fail "b does not say why it refuses the key"
refused="o.hosts.find(h => h.id === '$host_b').info.keys_refused.mult || ''"
for _ in $(seq 100); do
  hapi b http://d/v1/fleet | js "$refused" | grep -qF "$other_sha" && break
  sleep 0.1
done
hapi b http://d/v1/fleet | js "$refused" | grep -qF "$D/circuit.wasm: SHA-256 $other_sha" ||
  fail "GET /v1/fleet does not say why b refuses the key: $(hapi b http://d/v1/fleet)"
[ "$(sql "SELECT count(*) FROM partitions WHERE job = '$id' AND state = 'queued'")" -gt 0 ] ||
  fail "a took every partition before it was stopped: nothing was left for b"
sleep 1 # b polls ten times meanwhile
[ "$(sql "SELECT count(*) FROM results WHERE host = '$host_b'")" = 0 ] || fail "b proved with the other circuit"
[ "$(sql "SELECT count(*) FROM partitions WHERE lease_owner = '$host_b'")" = 0 ] || fail "b claimed a partition"

note "a, which compiled the registered bytes, proves the job"
kill -CONT "${HPID[a]}"
LOG=$T/a.log
hc b wait "$id" --timeout 60 --out "$T/o" >"$T/j.json" || fail "the job did not finish"
[ "$(js o.partitions_done <"$T/j.json")" = 20 ] || fail "job: $(head -c 400 "$T/j.json")"
verify_dir "$FIX/bn128/multiplier/verification_key.json" "$T/o" 20
for i in 0 19; do
  cmp -s <(js 'JSON.stringify(o)' <"$FIX/bn128/multiplier/public.json") <(js 'JSON.stringify(o)' <"$T/o/public-$i.json") ||
    fail "proof $i has other public signals: $(cat "$T/o/public-$i.json")"
done
[ "$(sql "SELECT count(*) FROM results WHERE host = '$host_b'")" = 0 ] || fail "b proved with the other circuit"

note "the registered file back: b loads the key and proves"
cp "$T/registered.wasm" "$D/circuit.wasm"
kill -STOP "${HPID[a]}"
LOG=$T/b.log
id2=$(hc b prove --key mult --input "$D/input.json" "$D/input.json") || fail "b: submit with the registered file"
hc b wait "$id2" --timeout 60 --out "$T/o2" >"$T/j2.json" || fail "b's job did not finish"
verify_dir "$FIX/bn128/multiplier/verification_key.json" "$T/o2" 2
[ "$(sql "SELECT count(*) FROM results WHERE host = '$host_b' AND job = '$id2'")" = 2 ] || fail "b did not prove its job"
hc b keys list | js 'o.keys[0].circuit.sha256' | grep -qx "$reg_sha" || fail "b's listing lacks the circuit's SHA-256"
kill -CONT "${HPID[a]}"

# evict_b: b unloads the key (once its last partition has let go of it)
evict_b() {
  for _ in $(seq 50); do hc b keys evict mult >/dev/null 2>&1 && return 0; sleep 0.1; done
  fail "b: evict"
}

note "a key registered without its circuit's digest (an older g16d) is refused until registered again"
evict_b
sql "UPDATE keys SET wasm_sha256 = NULL WHERE name = 'mult'" >/dev/null
st=$(hapi b -o "$T/e.json" -w '%{http_code}' -X POST \
  --data-binary "{\"key\":\"mult\",\"inputs\":[$(cat "$D/input.json")]}" http://d/v1/proofs)
[ "$st" = 409 ] && grep -q "registered without its SHA-256" "$T/e.json" ||
  fail "a key without its circuit's digest: $st $(cat "$T/e.json")"
hc a keys load mult "$D/circuit.zkey" --wasm "$D/circuit.wasm" >/dev/null || fail "a: register again"
[ "$(sql "SELECT wasm_sha256 FROM keys WHERE name = 'mult'")" = "$reg_sha" ] || fail "registered again without the digest"
id3=$(hc b prove --key mult --input "$D/input.json") || fail "b: submit after the key was registered again"
hc b wait "$id3" --timeout 60 >/dev/null || fail "the job after the key was registered again did not finish"

note "another circuit registered under the key's name is refused, and not kept loaded"
evict_b
cp "$T/other_js/other.wasm" "$T/other.wasm"
st=$(hapi b -o "$T/e.json" -w '%{http_code}' -X POST \
  --data-binary "{\"name\":\"mult\",\"path\":\"$D/circuit.zkey\",\"wasm\":\"$T/other.wasm\"}" http://d/v1/keys)
[ "$st" = 409 ] && grep -q "registered in the fleet with another circuit.*$reg_sha" "$T/e.json" ||
  fail "another circuit under the name: $st $(cat "$T/e.json")"
[ "$(sql "SELECT wasm_sha256 FROM keys WHERE name = 'mult'")" = "$reg_sha" ] || fail "the registration changed"
hc b keys list | js 'o.keys.length' | grep -qx 0 || fail "b kept the refused circuit loaded"

stop_host a
stop_host b
! grep -qE "Sanitizer|runtime error:" "$T/a.log" "$T/b.log" || fail "sanitizer report in a log"
note "ok"
