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
