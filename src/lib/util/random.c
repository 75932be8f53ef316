/* See random.h. */
#include "util/random.h"

#include <errno.h>
#include <stdint.h>
#include <sys/random.h>

int util_random(void *out, size_t len)
{
    uint8_t *p = out;
    for (size_t got = 0; got < len;) {
        ssize_t n = getrandom(p + got, len - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        got += (size_t)n;
    }
    return 0;
}
