#!/usr/bin/env bash
# bad_input.sh: g16 setup on bad files and flags: one line on stderr naming
# the problem, non-zero exit, no key left behind.
source "$G16_E2E_LIB"
m=$G16_FIXTURES/bn128/multiplier
mkdir -p "$T/out"
k=$T/out/key.zkey
expect_clean_failure "no --insecure-dev" "--insecure-dev" setup "$m/circuit.r1cs" "$k"
expect_clean_failure "missing r1cs" "$T/none.r1cs" setup --insecure-dev "$T/none.r1cs" "$k"
: >"$T/empty.r1cs"
expect_clean_failure "empty r1cs" "$T/empty.r1cs" setup --insecure-dev "$T/empty.r1cs" "$k"
head -c 200 "$m/circuit.r1cs" >"$T/trunc.r1cs"
expect_clean_failure "truncated r1cs" "$T/trunc.r1cs" setup --insecure-dev "$T/trunc.r1cs" "$k"
cp "$m/circuit.r1cs" "$T/size.r1cs"; chmod u+w "$T/size.r1cs"
read -r _ hdr _ < <(section_at "$T/size.r1cs" 1)
put_u32 "$T/size.r1cs" $((hdr + 4 + 32 + 24)) 99   # nConstraints in the header
expect_clean_failure "wrong constraint count" "$T/size.r1cs" setup --insecure-dev "$T/size.r1cs" "$k"
expect_clean_failure "a wtns instead of an r1cs" "$m/witness.wtns" setup --insecure-dev "$m/witness.wtns" "$k"
expect_clean_failure "bad seed" "--seed" setup --insecure-dev --seed x "$m/circuit.r1cs" "$k"
expect_clean_failure "unknown flag" "--fast" setup --insecure-dev --fast "$m/circuit.r1cs" "$k"
expect_clean_failure "one argument" "KEY.zkey" setup --insecure-dev "$m/circuit.r1cs"
expect_clean_failure "output folder missing" "$T/out/no/key.zkey" setup --insecure-dev "$m/circuit.r1cs" "$T/out/no/key.zkey"
mkdir "$T/out/dir.zkey"
expect_clean_failure "output is a folder" "$T/out/dir.zkey" setup --insecure-dev "$m/circuit.r1cs" "$T/out/dir.zkey"
