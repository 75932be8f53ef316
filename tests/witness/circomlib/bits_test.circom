pragma circom 2.0.0;
// circomlib's bit operations: Num2Bits, Bits2Num, Num2Bits_strict (with
// its AliasCheck against BN254's prime) and the gates.
include "bitify.circom";
include "gates.circom";

template Main() {
  signal input x;
  signal input bits[64];
  signal input y;
  signal input a;
  signal input b;
  signal output xb[64];
  signal output n;
  signal output yb[254];
  signal output g[6];
  component n2b = Num2Bits(64);
  n2b.in <== x;
  xb <== n2b.out;
  component b2n = Bits2Num(64);
  b2n.in <== bits;
  n <== b2n.out;
  component strict = Num2Bits_strict();
  strict.in <== y;
  yb <== strict.out;
  component and = AND();
  component or = OR();
  component xor = XOR();
  component not = NOT();
  component nand = NAND();
  component nor = NOR();
  and.a <== a; and.b <== b;
  or.a <== a; or.b <== b;
  xor.a <== a; xor.b <== b;
  not.in <== a;
  nand.a <== a; nand.b <== b;
  nor.a <== a; nor.b <== b;
  g[0] <== and.out;
  g[1] <== or.out;
  g[2] <== xor.out;
  g[3] <== not.out;
  g[4] <== nand.out;
  g[5] <== nor.out;
}
component main = Main();
