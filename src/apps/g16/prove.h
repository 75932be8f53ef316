/* The `g16 prove` subcommand. */
#ifndef G16_CLI_PROVE_H
#define G16_CLI_PROVE_H

#include <stddef.h>
#include <stdint.h>

#include "g16.h"

int cli_prove(int argc, char **argv);

/* repeat proofs of one witness, jobs of them at a time (each with
 * opt->threads / jobs threads): prints the times and the rate when
 * repeat > 1; *proof and *pub get the texts of one of them (the last to
 * finish).  0, or -1 with the first failure's message in err. */
int cli_prove_repeated(const g16_key *key, const uint8_t *wtns, size_t wtns_len, const char *name,
                       const g16_options *opt, int repeat, int jobs, char **proof, char **pub,
                       char *err, size_t errlen);

#endif
