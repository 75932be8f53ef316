#!/bin/bash
# Through the socket: load every fixture key (both curves), prove every
# fixture (the bn128 chain circuit as one job of 10 witnesses, one fixture
# uploaded as base64), every proof verifies; public.json matches the
# fixture's and a sample is checked with snarkjs too.
source "$(dirname "$0")/lib.sh"
start_daemon --memory-budget 2G
ids=()
names=()
for d in "$FIX"/*/*/; do
  d=${d%/}
  name=$(basename "$(dirname "$d")")-$(basename "$d")
  client keys load "$name" "$d/circuit.zkey" >/dev/null || fail "cannot load $d/circuit.zkey"
  if [ "$name" = bn128-chain ]; then
    ws=(); for i in $(seq 10); do ws+=("$d/witness.wtns"); done
    ids+=("$(client prove --key "$name" "${ws[@]}")")
  elif [ "$name" = bls12381-pubmany ]; then
    ids+=("$(client prove --key "$name" --upload "$d/witness.wtns")")
  else
    ids+=("$(client prove --key "$name" "$d/witness.wtns")")
  fi
  names+=("$name")
done
[ "$(client keys list | js o.keys.length)" = "${#names[@]}" ] || fail "keys list is incomplete"
for i in "${!ids[@]}"; do
  name=${names[$i]}
  d=$FIX/${name%%-*}/${name#*-}
  client wait "${ids[$i]}" --timeout 300 --out "$T/$name" >"$T/$name.json" || fail "$name: job failed"
  n=$(js o.partitions_total <"$T/$name.json")
  verify_dir "$d/verification_key.json" "$T/$name" "$n"
  node -e 'const f=require("fs");const a=JSON.parse(f.readFileSync(process.argv[1]));const b=JSON.parse(f.readFileSync(process.argv[2]));process.exit(JSON.stringify(a)===JSON.stringify(b)?0:1)' \
    "$d/public.json" "$T/$name/public-0.json" || fail "$name: public signals differ from the fixture's"
  note "$name: $n proof(s) verified"
done
snarkjs_ok "$FIX/bn128/chain/verification_key.json" "$T/bn128-chain/public-9.json" "$T/bn128-chain/proof-9.json"
snarkjs_ok "$FIX/bls12381/pubmany/verification_key.json" "$T/bls12381-pubmany/public-0.json" "$T/bls12381-pubmany/proof-0.json"
[ "$(client status | js o.proofs.done)" = $(( ${#names[@]} + 9 )) ] || fail "status does not count every proof"
client metrics >"$T/metrics.txt"
grep -q '^g16d_proofs_total{outcome="done"}' "$T/metrics.txt" || fail "metrics lack g16d_proofs_total"
stop_daemon
