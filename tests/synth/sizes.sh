#!/usr/bin/env bash
# sizes.sh: synthetic circuits of several sizes on both curves satisfy
# `g16 check` and snarkjs's `wtns check`; the files are a function of the
# seed (byte-identical for the same one, different for another).
source "$G16_E2E_LIB"
need_snarkjs
for curve in bn128 bls12381; do
  for spec in "1 0" "2 1" "100 3" "5000 1" "2^14 8"; do
    set -- $spec
    out="$T/$curve-$1-$2"
    run_g16 synth --constraints "$1" --public "$2" --curve "$curve" --seed 42 --out "$out"
    [ "$RC" -eq 0 ] || { show_run; fail "g16 synth $curve $1 failed"; }
    run_g16 check "$out/circuit.r1cs" "$out/witness.wtns"
    [ "$RC" -eq 0 ] || { show_run; fail "g16 check rejected synth $curve $1 public $2"; }
    run_g16 info "$out/circuit.r1cs"
    [ "$RC" -eq 0 ] || { show_run; fail "g16 info cannot read synth $curve $1"; }
  done
  # snarkjs's own checker agrees (one mid-size circuit per curve).
  "$G16_SNARKJS" wtns check "$T/$curve-5000-1/circuit.r1cs" "$T/$curve-5000-1/witness.wtns" >"$T/wc.log" 2>&1 ||
    { cat "$T/wc.log" >&2; fail "snarkjs wtns check rejected synth $curve 5000"; }
  grep -q 'WITNESS IS CORRECT' "$T/wc.log" || { cat "$T/wc.log" >&2; fail "snarkjs wtns check: no verdict"; }
  run_g16 synth --constraints 5000 --public 1 --curve "$curve" --seed 42 --out "$T/again"
  [ "$RC" -eq 0 ] || { show_run; fail "g16 synth (again) failed"; }
  for f in circuit.r1cs witness.wtns; do
    cmp -s "$T/again/$f" "$T/$curve-5000-1/$f" || fail "$curve $f differs between two runs with seed 42"
  done
  run_g16 synth --constraints 5000 --public 1 --curve "$curve" --seed 43 --out "$T/other"
  cmp -s "$T/other/witness.wtns" "$T/again/witness.wtns" && fail "$curve: seeds 42 and 43 gave the same witness"
  # Shaped like real circuits: most witness values are 0 or 1.
  small=$(od -An -v -t x1 -w32 -j 76 "$T/again/witness.wtns" |
    grep -Ec '^ 0[01]( 00){31}$' || true)
  [ "$small" -gt 2500 ] || fail "$curve: only $small of 5000 witness values are 0 or 1"
  note "$curve: sizes ok, deterministic, $small/5000 values in {0,1}"
done
