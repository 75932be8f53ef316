/* g16 setup / synth / check: the commands of the setup module.  Each takes
 * argv[0] = the subcommand name and returns the process exit status. */
#ifndef G16_CLI_SETUP_H
#define G16_CLI_SETUP_H

/* g16 setup --insecure-dev [--seed N] [--threads N] CIRCUIT.r1cs KEY.zkey */
int cli_setup(int argc, char **argv);
/* g16 synth --constraints N --curve bn128|bls12381 [--public K] [--seed S]
 *           --out DIR [--setup] */
int cli_synth(int argc, char **argv);
/* g16 check CIRCUIT.r1cs WITNESS.wtns: 0 satisfied, 1 not, 2 bad input. */
int cli_check(int argc, char **argv);

#endif
