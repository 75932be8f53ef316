#!/bin/bash
# A fleet's uploaded witnesses and inputs travel as bytes, never through a
# file: once both hosts run, the state directories' wtns/ and inputs/ are
# replaced by regular files (nothing can be written under them, root or
# not), and a job of base64 witnesses and one of inputs submitted through
# a are still accepted, claimed by either host and proven, and the
# proofs verify.  (Before, the submitting host wrote each upload and
# input there and read it back, and the claiming host wrote the payload
# there again: 500 at submission, every lease failed.)
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fleet_lib.sh"

M=$FIX/bn128/multiplier
start_host a --lease 5 --memory-budget 1G
start_host b --lease 5 --memory-budget 1G
for n in a b; do
  for dir in wtns inputs; do
    rm -rf "${T:?}/$n.st/$dir"
    : >"$T/$n.st/$dir"
  done
done
hc a keys load mult "$M/circuit.zkey" --wasm "$M/circuit.wasm" >/dev/null || fail "a: key load"

note "four uploaded witnesses and four inputs through a"
w64=$(base64 -w0 "$M/witness.wtns")
st=$(hapi a -o "$T/w.json" -w '%{http_code}' -X POST \
  --data-binary "{\"key\":\"mult\",\"witnesses\":[\"$w64\",\"$w64\",\"$w64\",\"$w64\"]}" http://d/v1/proofs)
[ "$st" = 202 ] || fail "uploads refused: $st $(cat "$T/w.json")"
in=$(cat "$M/input.json")
st=$(hapi a -o "$T/i.json" -w '%{http_code}' -X POST \
  --data-binary "{\"key\":\"mult\",\"inputs\":[$in,$in,$in,$in]}" http://d/v1/proofs)
[ "$st" = 202 ] || fail "inputs refused: $st $(cat "$T/i.json")"

for j in w i; do
  id=$(js o.id <"$T/$j.json")
  hc b wait "$id" --timeout 120 --out "$T/o$j" >"$T/j$j.json" || fail "job $j did not finish"
  [ "$(js o.partitions_done <"$T/j$j.json")" = 4 ] || fail "job $j: $(head -c 600 "$T/j$j.json")"
  verify_dir "$M/verification_key.json" "$T/o$j" 4
done
cmp -s <(js 'JSON.stringify(o)' <"$M/public.json") <(js 'JSON.stringify(o)' <"$T/oi/public-3.json") ||
  fail "the witness computed from the input gives other public signals"
[ "$(sql "SELECT count(*) FROM results")" = 8 ] || fail "not one result a partition: $(sql "SELECT job, idx FROM results")"
