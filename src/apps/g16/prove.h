/* The `g16 prove` subcommand. */
#ifndef G16_CLI_PROVE_H
#define G16_CLI_PROVE_H

#include <stddef.h>
#include <stdint.h>

#include "g16.h"

int cli_prove(int argc, char **argv);

/* How cli_prove_repeated proves: repeat proofs, jobs of them at a time,
 * each checked against vk_json (the verification key of the key at
 * key_path, the file a failed check names) unless NULL. */
typedef struct {
    int repeat, jobs;
    const char *vk_json, *key_path;
} cli_repeat_plan;

/* plan->repeat proofs of one witness, plan->jobs of them at a time (each
 * with opt->threads / jobs threads), each verified when plan->vk_json:
 * prints the times and the rate when repeat > 1; *proof and *pub get the
 * texts of one of them (the last to finish).  0, or -1 with the first
 * failure's message in err (a proof that does not verify is one). */
int cli_prove_repeated(const g16_key *key, const uint8_t *wtns, size_t wtns_len, const char *name,
                       const g16_options *opt, const cli_repeat_plan *plan, char **proof,
                       char **pub, char *err, size_t errlen);

#endif
