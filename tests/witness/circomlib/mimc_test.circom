pragma circom 2.0.0;
// circomlib's MiMC7 (91 rounds) and MiMCSponge (2 inputs, 220 rounds,
// 1 output).
include "mimc.circom";
include "mimcsponge.circom";

template Main() {
  signal input x;
  signal input k;
  signal input ins[2];
  signal output out[2];
  component m7 = MiMC7(91);
  m7.x_in <== x;
  m7.k <== k;
  component sponge = MiMCSponge(2, 220, 1);
  sponge.ins <== ins;
  sponge.k <== k;
  out[0] <== m7.out;
  out[1] <== sponge.outs[0];
}
component main = Main();
