/* g16_verify_json's answer as one number, for tests that compare many
 * verdicts: 1 valid, 0 invalid (both G16_OK), -1 malformed
 * (G16_ERR_FORMAT), -2 any other code. */
#ifndef G16_TEST_VERDICT_H
#define G16_TEST_VERDICT_H

#include <stdbool.h>

#include "g16.h"

static inline int test_verdict(const char *vk, const char *pub, const char *proof, char *err,
                               size_t errlen)
{
    bool valid = true;
    g16_status rc = g16_verify_json(vk, pub, proof, &valid, err, errlen);
    if (rc == G16_OK) return valid ? 1 : 0;
    return rc == G16_ERR_FORMAT && !valid ? -1 : -2;
}

#endif
