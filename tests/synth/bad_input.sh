#!/usr/bin/env bash
# bad_input.sh: g16 check and g16 synth on bad files and flags: one line on
# stderr naming the problem file, non-zero exit, nothing left behind.
source "$G16_E2E_LIB"
F=$G16_FIXTURES
mkdir -p "$T/out"
m=$F/bn128/multiplier c=$F/bn128/chain b=$F/bls12381/multiplier
expect_clean_failure "check: missing r1cs" "$T/none.r1cs" check "$T/none.r1cs" "$m/witness.wtns"
expect_clean_failure "check: missing wtns" "$T/none.wtns" check "$m/circuit.r1cs" "$T/none.wtns"
head -c 100 "$m/circuit.r1cs" >"$T/trunc.r1cs"
expect_clean_failure "check: truncated r1cs" "$T/trunc.r1cs" check "$T/trunc.r1cs" "$m/witness.wtns"
cp "$m/circuit.r1cs" "$T/magic.r1cs"; chmod u+w "$T/magic.r1cs"; put_bytes "$T/magic.r1cs" 0 7a7a7a7a
expect_clean_failure "check: bad magic" "$T/magic.r1cs" check "$T/magic.r1cs" "$m/witness.wtns"
expect_clean_failure "check: files swapped" "$m/witness.wtns" check "$m/witness.wtns" "$m/circuit.r1cs"
expect_clean_failure "check: witness of another curve" "$b/witness.wtns" check "$m/circuit.r1cs" "$b/witness.wtns"
expect_clean_failure "check: witness of another circuit" "$c/witness.wtns" check "$m/circuit.r1cs" "$c/witness.wtns"
run_g16 check "$m/circuit.r1cs" "$T/none.wtns"
[ "$RC" -eq 2 ] || fail "check: a missing file must exit 2, got $RC"
expect_clean_failure "check: one argument" "CIRCUIT.r1cs" check "$m/circuit.r1cs"
expect_clean_failure "check: unknown flag" "--frobnicate" check --frobnicate "$m/circuit.r1cs" "$m/witness.wtns"

expect_clean_failure "synth: no curve" "--curve" synth --constraints 10 --out "$T/out/s"
expect_clean_failure "synth: bad curve" "secp256k1" synth --constraints 10 --curve secp256k1 --out "$T/out/s"
expect_clean_failure "synth: zero constraints" "--constraints" synth --constraints 0 --curve bn128 --out "$T/out/s"
expect_clean_failure "synth: non-numeric" "abc" synth --constraints abc --curve bn128 --out "$T/out/s"
expect_clean_failure "synth: too big" "--constraints" synth --constraints 2^40 --curve bn128 --out "$T/out/s"
expect_clean_failure "synth: no value" "--seed" synth --constraints 10 --curve bn128 --out "$T/out/s" --seed
touch "$T/out/file"
expect_clean_failure "synth: --out is a file" "$T/out/file" synth --constraints 10 --curve bn128 --out "$T/out/file"
mkdir -p "$T/out/ro"; chmod a-w "$T/out/ro"
if [ "$(id -u)" -ne 0 ]; then
  expect_clean_failure "synth: unwritable folder" "$T/out/ro" synth --constraints 10 --curve bn128 --out "$T/out/ro"
fi
chmod u+w "$T/out/ro"
run_g16 synth --help
[ "$RC" -eq 0 ] && grep -q -- '--constraints' "$T/stdout" || { show_run; fail "synth --help"; }
run_g16 check --help
[ "$RC" -eq 0 ] && grep -q 'WITNESS' "$T/stdout" || { show_run; fail "check --help"; }
