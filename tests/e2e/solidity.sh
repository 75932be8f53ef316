#!/usr/bin/env bash
# solidity.sh MODE: `g16 export solidityverifier` and `soliditycalldata`.
#   evm       for every BN254 fixture: a g16 proof, the verifier contract
#             compiled with solc and run in @ethereumjs/evm (solidity_evm.mjs):
#             g16's and snarkjs's proofs accepted, tampered ones rejected;
#             prints the gas of verifyProof.
#   calldata  on every fixture (both curves) and on g16's own proofs, the
#             text is byte for byte what `snarkjs zkey export soliditycalldata`
#             prints (snarkjs's function in one process for all, the
#             command itself once).
#   errors    bad input: exit 1, one line naming the file, no output written
#             (an existing file is kept); usage errors exit 2; --help.
# Needs tools/node_modules (npm ci in tools/: solc, @ethereumjs/evm).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
: "${G16_TOOLS:?G16_TOOLS (the tools/ folder) is not set}"
need_g16
need_snarkjs
bn128_fixtures=("$G16_FIXTURES"/bn128/*/)
all_fixtures=("$G16_FIXTURES"/*/*/)
[ -f "${bn128_fixtures[0]}/circuit.zkey" ] || fail "no BN254 fixtures under $G16_FIXTURES/bn128"

# g16_proof DIR OUT: a g16 proof of fixture DIR in OUT/{proof,public}.json.
g16_proof() {
  mkdir -p "$2"
  "$G16" prove "$1/circuit.zkey" "$1/witness.wtns" "$2/proof.json" "$2/public.json" >/dev/null ||
    fail "g16 prove failed on $1"
}

# The calldata comparisons: "PUBLIC PROOF OUT" triples, g16's text in OUT,
# snarkjs's in OUT.snarkjs (solidity_calldata.mjs, one process for all).
calldata_cases=()
add_calldata() {
  "$G16" export soliditycalldata "$1" "$2" >"$3" || fail "g16 export soliditycalldata $1 $2 failed"
  calldata_cases+=("$1" "$2" "$3.snarkjs")
}
compare_calldata() {
  node "$(dirname "${BASH_SOURCE[0]}")/solidity_calldata.mjs" "$G16_TOOLS" "${calldata_cases[@]}" ||
    fail "snarkjs's exportSolidityCallData failed"
  local i
  for ((i = 0; i < ${#calldata_cases[@]}; i += 3)); do
    local out=${calldata_cases[i + 2]}
    cmp "${out%.snarkjs}" "$out" >&2 || {
      diff "${out%.snarkjs}" "$out" >&2 || true
      fail "g16's calldata for ${calldata_cases[i + 1]} differs from snarkjs's"
    }
  done
}

mode_evm() {
  local d name args=()
  for d in "${bn128_fixtures[@]}"; do
    d=${d%/}
    name=$(basename "$d")
    g16_proof "$d" "$T/$name"
    "$G16" export soliditycalldata "$T/$name/public.json" "$T/$name/proof.json" \
      >"$T/$name/g16.calldata" || fail "g16 export soliditycalldata failed on $name"
    "$G16" export soliditycalldata "$d/public.json" "$d/proof.json" >"$T/$name/ref.calldata" ||
      fail "g16 export soliditycalldata failed on the $name fixture's proof"
    "$G16" export solidityverifier "$d/verification_key.json" "$T/$name/Verifier.sol" ||
      fail "g16 export solidityverifier failed on $name"
    args+=("$name=$T/$name")
  done
  node "$(dirname "${BASH_SOURCE[0]}")/solidity_evm.mjs" "$G16_TOOLS" "${args[@]}" ||
    fail "the EVM test failed"
}

mode_calldata() {
  local d name m=$G16_FIXTURES/bn128/multiplier
  for d in "${all_fixtures[@]}"; do
    d=${d%/}
    name=$(basename "$(dirname "$d")").$(basename "$d")
    add_calldata "$d/public.json" "$d/proof.json" "$T/$name.ref"
  done
  for d in "${bn128_fixtures[@]}" "$G16_FIXTURES/bls12381/multiplier"; do
    d=${d%/}
    name=$(basename "$(dirname "$d")").$(basename "$d")
    g16_proof "$d" "$T/$name"
    add_calldata "$T/$name/public.json" "$T/$name/proof.json" "$T/$name.g16"
  done
  compare_calldata
  # the command itself, once: the same text as the function
  "$G16_SNARKJS" zkey export soliditycalldata "$m/public.json" "$m/proof.json" >"$T/cli.snarkjs" ||
    fail "snarkjs zkey export soliditycalldata failed"
  cmp "$T/cli.snarkjs" "$T/bn128.multiplier.ref" >&2 ||
    fail "g16's calldata differs from the snarkjs command's output"
  note "calldata identical to snarkjs's on $((${#calldata_cases[@]} / 3 + 1)) proofs"
}

# expect_fail RC WHAT PATTERN ARGS...: g16 exits RC with one stderr line
# matching PATTERN and nothing on stdout.
expect_fail() {
  local want=$1 what=$2 pattern=$3
  shift 3
  run_g16 "$@"
  [ "$RC" -eq "$want" ] || { show_run; fail "$what: exit $RC, expected $want"; }
  [ "$(wc -l <"$T/stderr")" -eq 1 ] || { show_run; fail "$what: not one line on stderr"; }
  grep -Eq -- "$pattern" "$T/stderr" || { show_run; fail "$what: stderr does not match $pattern"; }
  [ ! -s "$T/stdout" ] || { show_run; fail "$what: printed to stdout"; }
  note "$what: ok"
}

# bad_vk NAME NODE-EXPR PATTERN: a BN254 key changed by NODE-EXPR (on v)
# is refused with PATTERN, and the existing output file is kept.
bad_vk() {
  local vk="$T/$1.json" out="$T/kept.sol"
  node -e '
    const fs = require("fs");
    const v = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    '"$2"';
    fs.writeFileSync(process.argv[2], JSON.stringify(v, null, 1));
  ' "$G16_FIXTURES/bn128/multiplier/verification_key.json" "$vk"
  echo old >"$out"
  expect_fail 1 "key $1" "$vk: $3" export solidityverifier "$vk" "$out"
  [ "$(cat "$out")" = old ] || fail "key $1: the existing $out was overwritten"
  [ -z "$(find "$T" -name 'kept.sol.tmp*')" ] || fail "key $1: a temporary file was left behind"
}

mode_errors() {
  local m=$G16_FIXTURES/bn128/multiplier bls=$G16_FIXTURES/bls12381/multiplier
  export BLS_VK=$bls/verification_key.json
  expect_fail 1 "BLS12-381 key" "$bls/verification_key.json: .*BN254" \
    export solidityverifier "$bls/verification_key.json" "$T/bls.sol"
  [ ! -e "$T/bls.sol" ] || fail "a contract was written for a BLS12-381 key"
  expect_fail 1 "missing key" "$T/none.json" export solidityverifier "$T/none.json" "$T/x.sol"
  expect_fail 1 "key not JSON" "$m/circuit.zkey" export solidityverifier "$m/circuit.zkey" "$T/x.sol"
  expect_fail 1 "output folder missing" "$T/nodir/x.sol" \
    export solidityverifier "$m/verification_key.json" "$T/nodir/x.sol"
  # The key's checks are the library's (g16_vk_check_json), its words.
  bad_vk alpha_off_curve 'v.vk_alpha_1[1] = (BigInt(v.vk_alpha_1[1]) ^ 1n).toString()' \
    'vk_alpha_1 is not on the curve'
  bad_vk delta_off_curve 'v.vk_delta_2[1][0] = (BigInt(v.vk_delta_2[1][0]) ^ 1n).toString()' \
    'vk_delta_2 is not on the curve'
  bad_vk ic_unreduced 'v.IC[1][0] = (BigInt(v.IC[1][0]) + 21888242871839275222246405745257275088696311157297823662689037894645226208583n).toString()' \
    'IC\[1\]\[0\] is not a decimal string below the field modulus'
  bad_vk ic_projective 'v.IC[0][2] = "2"' 'IC\[0\] is not on the curve'
  bad_vk beta_outside_g2 'v.vk_beta_2 = [["2", "1"], ["7292567877523311580221095596750716176434782432868683424513645834767876293070", "19659275751359636165940301690575149581329631496732780143538578556285923319774"], ["1", "0"]]' \
    'vk_beta_2 is not in the order-r subgroup'
  bad_vk npublic 'v.nPublic = 2' '"IC" does not hold nPublic \+ 1 = 3 points'
  bad_vk no_public 'v.nPublic = 0; v.IC = v.IC.slice(0, 1)' 'the key has no public signals'
  bad_vk plonk 'v.protocol = "plonk"' 'protocol "plonk" is not groth16'
  # BLS12-381 coordinates under BN254's name: too large for its field
  bad_vk wrong_curve 'const b = JSON.parse(fs.readFileSync(process.env.BLS_VK, "utf8")); Object.assign(v, b, { curve: "bn128" })' \
    'vk_alpha_1\[0\] is not a decimal string below the field modulus'
  local cut="$T/truncated.json" out="$T/kept.sol"
  head -c 300 "$m/verification_key.json" >"$cut"
  echo old >"$out"
  expect_fail 1 "truncated key" "^g16 export solidityverifier: $cut: invalid JSON" \
    export solidityverifier "$cut" "$out"
  [ "$(cat "$out")" = old ] || fail "truncated key: the existing $out was overwritten"

  local p="$T/plonk.json"
  sed 's/"groth16"/"plonk"/' "$m/proof.json" >"$p"
  expect_fail 1 "plonk proof" "$p: protocol is plonk" export soliditycalldata "$m/public.json" "$p"
  echo '{"a": 1}' >"$T/pub.json"
  expect_fail 1 "public not an array" "$T/pub.json: not an array" \
    export soliditycalldata "$T/pub.json" "$m/proof.json"
  echo '["12", "x7"]' >"$T/pub.json"
  expect_fail 1 "public signal not a number" "$T/pub.json: signal 1 " \
    export soliditycalldata "$T/pub.json" "$m/proof.json"
  sed 's/"pi_c"/"pi_x"/' "$m/proof.json" >"$T/noc.json"
  expect_fail 1 "proof without pi_c" "$T/noc.json: pi_c\[0\] is missing" \
    export soliditycalldata "$m/public.json" "$T/noc.json"

  # stdout that cannot be written: an error, not a silent exit 0
  local rc=0
  "$G16" export soliditycalldata "$m/public.json" "$m/proof.json" >/dev/full 2>"$T/full.err" || rc=$?
  [ "$rc" -eq 1 ] && grep -q 'standard output' "$T/full.err" ||
    fail "calldata to /dev/full: exit $rc, $(cat "$T/full.err")"

  # an IC point at infinity (snarkjs writes [0, 1, 0]) becomes the
  # precompiles' (0, 0)
  node -e '
    const fs = require("fs");
    const v = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    v.IC[1] = ["0", "1", "0"];
    fs.writeFileSync(process.argv[2], JSON.stringify(v));
  ' "$m/verification_key.json" "$T/inf.json"
  "$G16" export solidityverifier "$T/inf.json" "$T/inf.sol" || fail "a key with IC[1] at infinity was refused"
  grep -q 'IC1_X = 0;' "$T/inf.sol" && grep -q 'IC1_Y = 0;' "$T/inf.sol" ||
    fail "IC[1] at infinity is not (0, 0) in the contract"

  # A key in other forms ffjavascript reads (vk_alpha_1 Jacobian with
  # z = 5, IC[0] as [x, y], a leading zero) gives the same contract.
  node -e '
    const fs = require("fs");
    const v = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const q = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
    const [x, y] = v.vk_alpha_1.map(BigInt);
    v.vk_alpha_1 = [(x * 25n) % q, (y * 125n) % q, 5n].map(String);
    v.IC[0] = v.IC[0].slice(0, 2);
    v.IC[1][0] = "0" + v.IC[1][0];
    fs.writeFileSync(process.argv[2], JSON.stringify(v));
  ' "$m/verification_key.json" "$T/forms.json"
  "$G16" export solidityverifier "$m/verification_key.json" "$T/plain.sol" || fail "the multiplier key was refused"
  "$G16" export solidityverifier "$T/forms.json" "$T/forms.sol" || fail "a key in other point forms was refused"
  cmp "$T/plain.sol" "$T/forms.sol" >&2 || fail "a key in other point forms gives another contract"

  expect_fail 2 "no subcommand" "expected solidityverifier or soliditycalldata" export
  expect_fail 2 "unknown subcommand" "expected solidityverifier or soliditycalldata" export abi x y
  expect_fail 2 "one argument" "expected VK.json VERIFIER.sol" export solidityverifier "$m/x"

  run_g16 export --help
  [ "$RC" -eq 0 ] || { show_run; fail "g16 export --help exited $RC"; }
  local want
  for want in 'solidityverifier VK.json VERIFIER.sol' 'soliditycalldata PUBLIC.json PROOF.json' \
    'zkey verify.*' 'out of scope' 'BN254' 'never reverts'; do
    grep -q -- "$want" "$T/stdout" || { show_run; fail "g16 export --help does not say '$want'"; }
  done
  note "g16 export --help: ok"
}

case "${1:-}" in
evm) mode_evm ;;
calldata) mode_calldata ;;
errors) mode_errors ;;
*) fail "usage: solidity.sh evm|calldata|errors" ;;
esac
