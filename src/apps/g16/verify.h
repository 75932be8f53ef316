/* g16 verify and g16 export-vk (src/cli/verify.c). */
#ifndef G16_CLI_VERIFY_H
#define G16_CLI_VERIFY_H

/* argv[0] is "verify": VK.json PUBLIC.json PROOF.json.  Prints OK and
 * returns 0 for a valid proof, prints INVALID (the reason on stderr) and
 * returns 1 for an invalid one, returns 2 with one line on stderr for
 * unreadable or malformed input or wrong usage. */
int cli_verify(int argc, char **argv);

/* argv[0] is "export-vk": KEY.zkey VK.json.  Writes the verification key
 * as `snarkjs zkey export verificationkey` does (temporary file + rename);
 * returns 0, or 1 with one line on stderr. */
int cli_export_vk(int argc, char **argv);

#endif
