# Helpers of the setup tests (sourced after tests/e2e/lib.sh).

# snarkjs_accepts ZKEY WTNS VK_OUT: snarkjs exports the verification key,
# proves with the witness and verifies its own proof; then g16 proves with
# the same key and snarkjs and g16 verify that proof too.
snarkjs_accepts() {
  local zkey=$1 wtns=$2 vk=$3 w
  w=$(mktemp -d "$T/sj.XXXXXX")
  "$G16_SNARKJS" zkey export verificationkey "$zkey" "$vk" >"$w/export.log" 2>&1 ||
    { cat "$w/export.log" >&2; fail "snarkjs zkey export verificationkey rejected $zkey"; }
  "$G16_SNARKJS" groth16 prove "$zkey" "$wtns" "$w/proof.json" "$w/public.json" >"$w/prove.log" 2>&1 ||
    { cat "$w/prove.log" >&2; fail "snarkjs groth16 prove failed with $zkey"; }
  expect_verify_ok "$vk" "$w/public.json" "$w/proof.json"
  prove "$zkey" "$wtns" "$w/g16proof.json" "$w/g16public.json"
  expect_verify_ok "$vk" "$w/g16public.json" "$w/g16proof.json"
  run_g16 verify "$vk" "$w/g16public.json" "$w/g16proof.json"
  [ "$RC" -eq 0 ] || { show_run; fail "g16 verify rejected a g16 proof made with $zkey"; }
  run_g16 export-vk "$zkey" "$w/g16vk.json"
  [ "$RC" -eq 0 ] || { show_run; fail "g16 export-vk failed on $zkey"; }
  json_same "$vk" "$w/g16vk.json" || fail "g16 export-vk and snarkjs disagree on $zkey"
}

# same_layout OURS THEIRS: two zkeys of the same r1cs have the same section
# order and sizes, identical sections 1 and 4 (coefficients) and the same
# header numbers.  (Where the infinity points are is not compared: the
# fixture keys come from a powers of tau without contributions, tau = 1, so
# most of their points are infinity.)
same_layout() {
  need_node
  node -e '
    const fs = require("fs");
    const secs = f => {
      const d = fs.readFileSync(f), out = [];
      let o = 12;
      for (let i = 0, n = d.readUInt32LE(8); i < n; i++) {
        const id = d.readUInt32LE(o), len = Number(d.readBigUInt64LE(o + 4));
        out.push([id, d.subarray(o + 12, o + 12 + len)]);
        o += 12 + len;
      }
      return out;
    };
    const [a, b] = process.argv.slice(1).map(secs), errs = [];
    const order = s => s.map(([id, x]) => id + ":" + x.length).join(" ");
    if (order(a) !== order(b)) errs.push("sections " + order(a) + " vs " + order(b));
    const A = Object.fromEntries(a), B = Object.fromEntries(b);
    for (const id of [1, 4]) if (!A[id] || !A[id].equals(B[id])) errs.push("section " + id + " differs");
    const n8q = A[2].readUInt32LE(0), head = 4 + n8q + 4 + 32 + 12;
    if (!A[2].subarray(0, head).equals(B[2].subarray(0, head))) errs.push("header numbers differ");
    if (errs.length) { console.error(errs.join("; ")); process.exit(1); }
  ' "$1" "$2"
}
