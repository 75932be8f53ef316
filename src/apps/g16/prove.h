/* The `g16 prove` subcommand. */
#ifndef G16_CLI_PROVE_H
#define G16_CLI_PROVE_H

int cli_prove(int argc, char **argv);

#endif
