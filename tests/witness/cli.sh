#!/usr/bin/env bash
# cli.sh CURVE CIRCUIT: through the real CLI, `g16 wtns calculate` writes
# the fixture's witness.wtns byte for byte, and `g16 fullprove` (snarkjs's
# argument order) writes a proof that `snarkjs groth16 verify` accepts,
# with public.json equal to the fixture's.
. "$(dirname "$0")/lib.sh"
dir=$G16_FIXTURES/$1/$2
"$G16" wtns calculate --cache-dir "$WITNESS_CACHE" "$dir/circuit.wasm" "$dir/input.json" "$tmp/w.wtns" >/dev/null
cmp "$tmp/w.wtns" "$dir/witness.wtns" || fail "wtns calculate: differs from the fixture's witness.wtns"
"$G16" fullprove --cache-dir "$WITNESS_CACHE" --device cpu --threads 2 "$dir/input.json" \
  "$dir/circuit.wasm" "$dir/circuit.zkey" "$tmp/proof.json" "$tmp/public.json" >/dev/null
"$G16_SNARKJS" groth16 verify "$dir/verification_key.json" "$tmp/public.json" "$tmp/proof.json" \
  | grep -q "OK" || fail "fullprove: snarkjs does not verify the proof"
node -e 'const fs = require("fs"), a = JSON.parse(fs.readFileSync(process.argv[1])),
  b = JSON.parse(fs.readFileSync(process.argv[2]));
  process.exit(JSON.stringify(a) === JSON.stringify(b) ? 0 : 1)' "$tmp/public.json" "$dir/public.json" \
  || fail "fullprove: public.json differs from the fixture's"
finish
