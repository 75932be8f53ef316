#!/usr/bin/env bash
# random.sh CURVE CIRCUIT: two proofs of the same witness differ (r and s are
# random) and both verify; the second uses --threads 1.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_snarkjs
d=$(fixture "$1" "$2")
mkdir -p "$T/out"
prove "$d/circuit.zkey" "$d/witness.wtns" "$T/out/proof1.json" "$T/out/public1.json"
prove "$d/circuit.zkey" "$d/witness.wtns" "$T/out/proof2.json" "$T/out/public2.json" --threads 1
json_same "$T/out/public1.json" "$T/out/public2.json" || fail "the two runs wrote different public.json"
need_node
node -e '
  const fs = require("fs");
  const [a, b] = process.argv.slice(1).map(f => JSON.parse(fs.readFileSync(f, "utf8")));
  const same = ["pi_a", "pi_b", "pi_c"].filter(k => JSON.stringify(a[k]) === JSON.stringify(b[k]));
  if (same.length) { console.error("identical in two proofs of one witness: " + same.join(", ")); process.exit(1); }
' "$T/out/proof1.json" "$T/out/proof2.json" || fail "two proofs of the same witness are not randomized"
expect_verify_ok "$d/verification_key.json" "$T/out/public1.json" "$T/out/proof1.json"
expect_verify_ok "$d/verification_key.json" "$T/out/public2.json" "$T/out/proof2.json"
note "$1/$2: two proofs differ in pi_a, pi_b and pi_c, both verify"
