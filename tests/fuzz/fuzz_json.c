/* libFuzzer target for the snarkjs JSON inputs of verification: the input
 * is up to three NUL-separated texts, the verification key, the public
 * signals and the proof (missing ones empty), given to
 * g16_verify_json_named as `g16 verify` gives them, and to
 * g16_verify_batch_json in a batch of three (that proof twice, then empty
 * texts), as g16d's self-verification gives them; the first text (its
 * bytes, no NUL) also to g16_vk_check_json as `g16 export
 * solidityverifier` gives it. */
#include <stdlib.h>
#include <string.h>

#include "g16.h"

static volatile int sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 3), *part[3], err[512];
    if (!copy) return 0;
    memcpy(copy, data, size);
    memset(copy + size, 0, 3); /* every part ends in a NUL, the last ones empty */
    part[0] = copy;
    part[1] = part[0] + strlen(part[0]) + (part[0] + strlen(part[0]) < copy + size);
    part[2] = part[1] + strlen(part[1]) + (part[1] + strlen(part[1]) < copy + size);
    bool valid_one;
    sink ^= g16_verify_json_named(part[0], part[1], part[2], "vk.json", "public.json", "proof.json",
                                  &valid_one, err, sizeof err);
    sink ^= valid_one;
    const char *pubs[3] = {part[1], part[1], ""}, *proofs[3] = {part[2], part[2], ""};
    int valid[3];
    sink ^= g16_verify_batch_json(part[0], 3, pubs, proofs, valid, err, sizeof err);
    char *canonical = NULL;
    sink ^=
        g16_vk_check_json(part[0], strlen(part[0]), "vk.json", NULL, &canonical, err, sizeof err);
    free(canonical);
    free(copy);
    return 0;
}
