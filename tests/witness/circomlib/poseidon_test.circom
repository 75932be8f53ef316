pragma circom 2.0.0;
// circomlib's Poseidon at two widths.  Its constants' functions make the
// wasm 1.6 MB whatever the width (2.0 MB with both, 5.1 MB with widths 1,
// 2, 5 and 16: each width its own copy), a minute of CPU to compile:
// witness.circomlib_large, with EdDSAPoseidonVerifier (width 5) and
// SMTVerifier (2 and 3); witness.circomlib has Poseidon(2) by the merkle
// fixture.
include "poseidon.circom";

template Main() {
  signal input a[1];
  signal input b[2];
  signal output out[2];
  component p1 = Poseidon(1);
  component p2 = Poseidon(2);
  p1.inputs <== a;
  p2.inputs <== b;
  out[0] <== p1.out;
  out[1] <== p2.out;
}
component main = Main();
