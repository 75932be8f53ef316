/* g16_status.h: what kind of failure a call returned, shared by every g16
 * header (libg16's, libg16_memwatch's, libg16_client's); declarations
 * only, so it needs no library (g16_status_name is libg16's, in g16.h). */
#ifndef G16_PUBLIC_STATUS_H
#define G16_PUBLIC_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/* Every public call that can fail returns a g16_status, which the caller
 * must look at (G16_MUST_USE: the compiler warns when it is dropped), and
 * says which of its pointers may not be NULL (G16_NONNULL: the compiler
 * warns when NULL is passed where it sees it). */
#if defined(__GNUC__) || defined(__clang__)
#define G16_MUST_USE     __attribute__((warn_unused_result))
#define G16_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#define G16_MUST_USE
#define G16_NONNULL(...)
#endif

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

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
