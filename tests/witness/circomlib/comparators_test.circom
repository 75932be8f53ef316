pragma circom 2.0.0;
// circomlib's comparators on 32-bit values: LessThan, LessEqThan,
// GreaterThan, GreaterEqThan (each a Num2Bits of a difference).
include "comparators.circom";

template Main() {
  signal input in[2];
  signal output out[4];
  component lt = LessThan(32);
  component le = LessEqThan(32);
  component gt = GreaterThan(32);
  component ge = GreaterEqThan(32);
  lt.in <== in;
  le.in <== in;
  gt.in <== in;
  ge.in <== in;
  out[0] <== lt.out;
  out[1] <== le.out;
  out[2] <== gt.out;
  out[3] <== ge.out;
}
component main = Main();
