#!/usr/bin/env bash
# vk_infinity.sh CURVE CIRCUIT: a verification key whose alpha, beta, gamma
# or delta is the point at infinity is degenerate (with alpha1 = 0 the proof
# pi_a = vk_x, pi_b = gamma2, pi_c = 0 passes for any public signals): `g16
# verify` refuses it as malformed (exit 2, one line naming the field),
# `g16 export solidityverifier` writes no contract from it, and `g16
# export-vk` writes no such key from a .zkey.  They used to accept it: the
# contract exported from it accepted forged proofs.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_g16
need_node
curve=$1 circuit=$2
d=$(fixture "$curve" "$circuit")
n8q=$([ "$curve" = bls12381 ] && echo 48 || echo 32)

# at_infinity FIELD OUT: the fixture's key with FIELD as snarkjs writes
# infinity (projective z = 0).
at_infinity() {
  node -e '
    const fs = require("fs");
    const [src, field, dst] = process.argv.slice(1);
    const vk = JSON.parse(fs.readFileSync(src, "utf8"));
    vk[field] = field.endsWith("_1") ? ["0", "1", "0"] : [["0", "0"], ["1", "0"], ["0", "0"]];
    fs.writeFileSync(dst, JSON.stringify(vk, null, 1));
  ' "$d/verification_key.json" "$1" "$2"
}

for field in vk_alpha_1 vk_beta_2 vk_gamma_2 vk_delta_2; do
  vk=$T/$field.json
  at_infinity "$field" "$vk"
  run_g16 verify "$vk" "$d/public.json" "$d/proof.json"
  [ "$RC" = 2 ] || { show_run; fail "verify, $field at infinity: exit $RC, not 2 (malformed key)"; }
  [ "$(wc -l <"$T/stderr")" = 1 ] && grep -qF "$vk: $field is the point at infinity" "$T/stderr" ||
    { show_run; fail "verify, $field at infinity: expected '$vk: $field is the point at infinity'"; }
  note "verify: $(cat "$T/stderr")"
  if [ "$curve" = bn128 ]; then # Solidity verifiers are BN254's only
    expect_clean_failure "export solidityverifier, $field at infinity" "$vk" \
      export solidityverifier "$vk" "$T/out/verifier.sol"
    grep -qF "$field is the point at infinity" "$T/stderr" ||
      { show_run; fail "export solidityverifier, $field at infinity: the error does not say so"; }
  fi
done

# the untouched key still verifies (the checks refuse only infinity)
run_g16 verify "$d/verification_key.json" "$d/public.json" "$d/proof.json"
[ "$RC" = 0 ] || { show_run; fail "the fixture's own key: exit $RC"; }

# export-vk: a .zkey whose alpha1 (the header's first point, after n8q, q,
# n8r, r and three u32 counts) is zero, the zkey's infinity
key=$T/alpha0.zkey
cp "$d/circuit.zkey" "$key"
read -r _ data _ < <(section_at "$key" 2)
put_bytes "$key" $((data + 4 + n8q + 4 + 32 + 12)) "$(printf '%0*d' $((4 * n8q)) 0)"
expect_clean_failure "export-vk, alpha1 at infinity" "$key" export-vk "$key" "$T/out/vk.json"
grep -qF "$key: vk_alpha_1 is the point at infinity" "$T/stderr" ||
  { show_run; fail "export-vk, alpha1 at infinity: expected '$key: vk_alpha_1 is the point at infinity'"; }
