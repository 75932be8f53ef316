/* The NTT for both scalar fields: field-independent planning and index
 * helpers here, the arithmetic stamped out per field from ntt_template.h.
 *
 * Layout of the transforms (n = 2^L, all in place):
 *   ntt       = bit-reverse permutation, then decimation-in-time (DIT)
 *   intt      = inverse decimation-in-frequency (DIF), 1/n, bit-reverse
 *   coset_odd = inverse DIF, scale by g^i/n, DIT: the DIF leaves the
 *               coefficients in bit-reversed order, which is exactly the
 *               order the DIT wants, so the coset needs no permutation.
 * The small-span stages run block by block on contiguous cache-sized
 * blocks (for coset_odd the DIF tail, the scaling and the DIT head all run
 * on a block while it is in cache); the large-span stages run in passes of
 * a few stages on sub-transforms whose elements are 2^s0 apart, taking
 * several neighbouring columns at once so whole cache lines are used.
 * Only twiddles w^k, k < n/2, are stored; the inverse reads w^-k as
 * -w^(n/2-k) from the same table. */
#include "ntt/ntt_internal.h"

#include <pthread.h>
#include <stdlib.h>

#include "util/parallel.h"

/* 2^12 elements = 128 KiB: a block plus its twiddles stays in L2. */
const struct ntt_shape ntt_default_shape = {12, 8, 4};

#define NTT_MAX_PASSES 64

struct ntt_pass {
    unsigned s0, g, chunk_log; /* stages [s0, s0 + g), 2^chunk_log columns */
};

struct ntt_plan {
    unsigned log_n, block_log, n_passes;
    struct ntt_pass pass[NTT_MAX_PASSES];
};

static unsigned ntt_min(unsigned a, unsigned b) { return a < b ? a : b; }

/* Splits the stages above the block into passes of balanced size. */
static void ntt_plan_make(struct ntt_plan *plan, unsigned log_n, const struct ntt_shape *shape)
{
    unsigned pass_log = shape->pass_log ? shape->pass_log : 1;
    plan->log_n = log_n;
    plan->block_log = ntt_min(log_n, shape->block_log);
    unsigned rest = log_n - plan->block_log;
    plan->n_passes = (rest + pass_log - 1) / pass_log;
    unsigned s0 = plan->block_log;
    for (unsigned i = 0; i < plan->n_passes; i++) {
        unsigned g = rest * (i + 1) / plan->n_passes - rest * i / plan->n_passes;
        plan->pass[i] = (struct ntt_pass){s0, g, ntt_min(s0, shape->chunk_log)};
        s0 += g;
    }
}

static size_t ntt_bitrev(size_t x, unsigned bits)
{
    if (bits == 0) return 0;
    uint64_t v = x;
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((v & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return (size_t)(__builtin_bswap64(v) >> (64 - bits));
}

/* 64-byte aligned, size rounded up as aligned_alloc requires. */
static void *ntt_alloc(size_t bytes)
{
    if (bytes == 0) bytes = 1;
    return aligned_alloc(64, (bytes + 63) & ~(size_t)63);
}

/* Bit-reverse permutation tiles: index = x·2^(L-T) + y·2^T + z with T tile
 * bits; reversal maps tile y (rows x, columns z) onto tile rev(y), so a
 * worker swapping two tiles touches 2·2^T short contiguous runs. */
#define NTT_TILE_LOG 4

#define NTT_FR bn254_fr
#include "ntt/ntt_template.h"

#define NTT_FR bls12_381_fr
#include "ntt/ntt_template.h"
