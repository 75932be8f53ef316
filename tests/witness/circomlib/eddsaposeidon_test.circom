pragma circom 2.0.0;
// circomlib's EdDSAPoseidonVerifier (inputs: eddsaposeidon.json, signed by
// make_valid_inputs.js).
include "eddsaposeidon.circom";
component main = EdDSAPoseidonVerifier();
