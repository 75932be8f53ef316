pragma circom 2.0.0;
// bits.circom without Num2Bits_strict (its AliasCheck is BN254's), for
// BLS12-381's field.
include "bitify.circom";
include "gates.circom";

template Main() {
  signal input x;
  signal input bits[64];
  signal input a;
  signal input b;
  signal output xb[64];
  signal output n;
  signal output g[4];
  component n2b = Num2Bits(64);
  n2b.in <== x;
  xb <== n2b.out;
  component b2n = Bits2Num(64);
  b2n.in <== bits;
  n <== b2n.out;
  component and = AND();
  component or = OR();
  component xor = XOR();
  component not = NOT();
  and.a <== a; and.b <== b;
  or.a <== a; or.b <== b;
  xor.a <== a; xor.b <== b;
  not.in <== a;
  g[0] <== and.out;
  g[1] <== or.out;
  g[2] <== xor.out;
  g[3] <== not.out;
}
component main = Main();
