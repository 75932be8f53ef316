/* msm: multi-scalar multiplication sum_i s_i·P_i on the CPU.
 *
 * Contract
 * - Groups: bn254_g1, bn254_g2, bls12_381_g1, bls12_381_g2.  For each G:
 *     void G_msm(G *out, const uint8_t *points, const uint8_t *scalars,
 *                size_t n, int threads);
 *     void G_msm_naive(G *out, const uint8_t *points,
 *                      const uint8_t *scalars, size_t n);
 * - points: n affine points back to back, sizeof(G_affine) bytes each, laid
 *   out exactly as a snarkjs .zkey stores them: x then y, every coordinate
 *   Montgomery-form little-endian (G2: x.c0, x.c1, y.c0, y.c1); all zeros
 *   is the point at infinity.  Points are trusted (on the curve), as they
 *   come from a key whose loader checked them.
 * - scalars: n plain (non-Montgomery) little-endian 32-byte integers, the
 *   .wtns layout.  Any value below 2^256 is accepted; values >= r simply
 *   multiply as integers (so they act as s mod r on the subgroup).
 * - Neither buffer needs any alignment (they are usually an mmap of a key
 *   or witness); both are only read.
 * - threads <= 0 means all online CPUs.  The result does not depend on the
 *   thread count: out is normalised (Z = 1, or the canonical infinity from
 *   G_set_infinity), so it is bit-for-bit reproducible.
 * - n = 0 gives infinity.  G_msm allocates scratch: 4 bytes per scalar,
 *   plus per thread its buckets (at most ~32 MiB, ~6 MiB for a BN254 G1
 *   MSM of 2^20) and ~0.4 MiB for the 1-scalar sum; where it uses GLV
 *   (below), 40 bytes plus one coordinate per scalar that is neither 0
 *   nor 1.  If memory runs out it splits the input and retries (and GLV
 *   is simply left out), so it never fails.
 * - G_msm_scratch_bytes(n, threads) is the most G_msm(n, threads)
 *   allocates at once (the scratch above), from the same plan G_msm
 *   makes, over every mix of 0, 1 and other scalars: an upper bound a
 *   caller can budget with (g16_key_job_bytes does).  It allocates
 *   nothing; it costs ~2 plans per half octave of n (milliseconds).
 * - G_msm_naive is a slow reference (one scalar multiplication per point)
 *   for tests.
 *
 * Algorithm: Pippenger with signed window digits; scalars 0 are skipped
 * and scalars 1 are summed directly, since real witnesses are mostly bits.
 * Where its cost model says it pays (small and medium inputs), each other
 * scalar is split by the GLV endomorphism into two of 128 bits
 * (msm_internal.h).
 * See msm_template.h.
 */
#ifndef G16_MSM_H
#define G16_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "curve/curve.h"

enum { G16_MSM_SCALAR_BYTES = 32 };

#define G16_MSM_DECLARE(G)                                                                         \
    void G##_msm(G *out, const uint8_t *points, const uint8_t *scalars, size_t n, int threads);    \
    void G##_msm_naive(G *out, const uint8_t *points, const uint8_t *scalars, size_t n);           \
    size_t G##_msm_scratch_bytes(size_t n, int threads);

G16_MSM_DECLARE(bn254_g1)
G16_MSM_DECLARE(bn254_g2)
G16_MSM_DECLARE(bls12_381_g1)
G16_MSM_DECLARE(bls12_381_g2)

#undef G16_MSM_DECLARE

#endif
