pragma circom 2.0.0;
// circomlib's SMTVerifier over 10 levels (inputs: smtverifier.json, proofs
// made by make_valid_inputs.js).
include "smt/smtverifier.circom";
component main = SMTVerifier(10);
