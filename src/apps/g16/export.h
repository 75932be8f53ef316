/* g16 export: what snarkjs's `zkey export solidity*` commands give, for
 * putting Groth16 proofs on an Ethereum chain (export.c).
 *
 *   g16 export solidityverifier VK.json VERIFIER.sol
 *     writes a BN254 verifier contract for the key (atomically), with
 *     snarkjs's external interface verifyProof(uint[2], uint[2][2],
 *     uint[2], uint[N]) returns (bool);
 *   g16 export soliditycalldata PUBLIC.json PROOF.json
 *     prints the arguments of verifyProof exactly as snarkjs prints them.
 *
 * argv[0] is "export".  Returns 0 on success, 1 with one line on stderr
 * naming the file at fault, 2 for wrong usage. */
#ifndef G16_CLI_EXPORT_H
#define G16_CLI_EXPORT_H

int cli_export(int argc, char **argv);

#endif
