/* g16_status.h: what kind of failure a libg16 call returned, shared by every g16 header
 * (included by g16.h; see its head comment for the contract). */
#ifndef G16_PUBLIC_STATUS_H
#define G16_PUBLIC_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/* What kind of failure a call returned.  Values are stable (an ABI). */
typedef enum {
    G16_OK = 0,
    G16_ERR_ARG = 1,         /* a bad argument or option from the caller */
    G16_ERR_IO = 2,          /* a file could not be read or written */
    G16_ERR_NOT_FOUND = 3,   /* a file (or a named object) does not exist */
    G16_ERR_FORMAT = 4,      /* malformed input: truncated, corrupt, wrong magic */
    G16_ERR_MISMATCH = 5,    /* inputs that do not belong together (curve, sizes) */
    G16_ERR_UNSUPPORTED = 6, /* well-formed but not provable here (PLONK key, no GPU) */
    G16_ERR_TOO_LARGE = 7,   /* beyond a size or memory limit */
    G16_ERR_NOMEM = 8,       /* out of host or device memory */
    G16_ERR_DEVICE = 9,      /* the GPU failed */
    G16_ERR_INTERNAL = 10,   /* a bug: please report it */
    G16_ERR_TIMEOUT = 11     /* ran past a time limit */
} g16_status;

/* A short lower-case name of the code ("format", "mismatch", ...). */
const char *g16_status_name(int status);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
