/* ntt internals shared with the tests: the cache-blocking shape is a
 * parameter so that small transforms can be run through every code path
 * (several passes, partial chunks) and checked against a naive DFT. */
#ifndef G16_NTT_INTERNAL_H
#define G16_NTT_INTERNAL_H

#include "ntt/ntt.h"

/* A transform of 2^log_n runs its first (DIT) or last (DIF) min(log_n,
 * block_log) stages block by block on contiguous blocks, then the other
 * stages in passes of at most pass_log stages; a pass works on 2^chunk_log
 * neighbouring butterfly columns at once so every cache line it loads is
 * used whole. */
struct ntt_shape {
    unsigned block_log, pass_log, chunk_log;
};

extern const struct ntt_shape ntt_default_shape;

#define G16_NTT_DECLARE_SHAPED(FR)                                                                 \
    int FR##_ntt_shaped(FR *a, unsigned log_n, int threads, const struct ntt_shape *);             \
    int FR##_intt_shaped(FR *a, unsigned log_n, int threads, const struct ntt_shape *);            \
    int FR##_coset_odd_shaped(FR *a, unsigned log_n, int threads, const struct ntt_shape *);

G16_NTT_DECLARE_SHAPED(bn254_fr)
G16_NTT_DECLARE_SHAPED(bls12_381_fr)

#endif
