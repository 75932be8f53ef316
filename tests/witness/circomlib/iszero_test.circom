pragma circom 2.0.0;
// circomlib's IsZero and IsEqual: each computes an inverse only when its
// value is not zero (a branch on the input).
include "comparators.circom";

template Main() {
  signal input x;
  signal input in[2];
  signal output out[2];
  component z = IsZero();
  component e = IsEqual();
  z.in <== x;
  e.in <== in;
  out[0] <== z.out;
  out[1] <== e.out;
}
component main = Main();
