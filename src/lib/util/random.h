/* random: the one source of randomness in g16 (the proof's r and s, a
 * setup's toxic waste, batch verification's weights).
 *
 * Contract
 * - util_random(out, len) fills out with len bytes from getrandom() (the
 *   kernel's CSPRNG, blocking only until it is first seeded), retrying
 *   short reads and EINTR; 0, or -1 with errno set when the kernel refuses.
 */
#ifndef G16_RANDOM_H
#define G16_RANDOM_H

#include <stddef.h>

int util_random(void *out, size_t len);

#endif
