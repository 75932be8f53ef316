#!/usr/bin/env bash
# synth_no_r1cs.sh CURVE: g16 synth --setup --no-r1cs keeps the circuit in
# memory: no circuit.r1cs on disk, and the witness, key and verification
# key are byte-identical to those made through the written .r1cs; a failed
# setup leaves neither output (nor removes an older circuit.r1cs beside
# them); --no-r1cs without --setup is a usage error.
source "$G16_E2E_LIB"
curve=$1
args=(--constraints 3000 --public 3 --curve "$curve" --seed 5)
run_g16 synth "${args[@]}" --out "$T/disk" --setup
[ "$RC" -eq 0 ] || { show_run; fail "g16 synth --setup failed for $curve"; }
run_g16 synth "${args[@]}" --out "$T/mem" --setup --no-r1cs
[ "$RC" -eq 0 ] || { show_run; fail "g16 synth --setup --no-r1cs failed for $curve"; }
[ ! -e "$T/mem/circuit.r1cs" ] || fail "--no-r1cs wrote circuit.r1cs"
for f in witness.wtns circuit.zkey verification_key.json; do
  cmp "$T/disk/$f" "$T/mem/$f" || fail "$f differs between --no-r1cs and the written circuit"
done
[ "$(ls "$T/mem" | wc -l)" -eq 3 ] || { ls -la "$T/mem" >&2; fail "--no-r1cs left other files"; }

# The key's rename fails (a folder in its place): no witness is left, and
# the circuit.r1cs already there stays.
mkdir -p "$T/bad/circuit.zkey"
echo old >"$T/bad/circuit.r1cs"
run_g16 synth "${args[@]}" --out "$T/bad" --setup --no-r1cs
[ "$RC" -eq 1 ] || { show_run; fail "a failed --no-r1cs setup exited $RC, not 1"; }
[ ! -e "$T/bad/witness.wtns" ] || fail "a failed --no-r1cs setup left witness.wtns"
[ "$(cat "$T/bad/circuit.r1cs")" = old ] || fail "a failed --no-r1cs setup touched circuit.r1cs"

run_g16 synth "${args[@]}" --out "$T/usage" --no-r1cs
[ "$RC" -eq 2 ] || { show_run; fail "--no-r1cs without --setup exited $RC, not 2"; }
grep -q -- "--no-r1cs needs --setup" "$T/stderr" || { show_run; fail "no usage message"; }
[ ! -e "$T/usage" ] || fail "--no-r1cs without --setup made the output folder"
note "$curve: synth --setup --no-r1cs gives the same key with no circuit on disk"
