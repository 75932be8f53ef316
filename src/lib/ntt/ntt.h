/* ntt: number-theoretic transforms over the scalar fields, laid out the way
 * snarkjs (ffjavascript / wasmcurves) lays them out.
 *
 * Contract, for FR in {bn254_fr, bls12_381_fr} (functions FR_ntt_root, ...):
 * - Roots: nqr is the smallest integer >= 2 with nqr^((r-1)/2) = -1;
 *   r - 1 = 2^s·t with t odd; root(s) = nqr^t and root(k-1) = root(k)^2.
 *   This is the choice of ffjavascript's WasmField1 (w[]) and wasmcurves'
 *   build_fft.js; s = FR_ntt_max_log() is 28 for BN254 and 32 for
 *   BLS12-381.  FR_ntt_root returns 0 (and sets *w to 0) when log_n > s.
 * - All vectors hold n = 2^log_n elements in Montgomery form, natural order
 *   in and out, and are transformed in place.  w = FR_ntt_root(log_n).
 *   FR_ntt:   a_j <- sum_i a_i w^(ij).
 *   FR_intt:  the inverse, 1/n included.
 *   FR_coset_odd: evaluations on {w^j} -> evaluations on {g·w^j}, where
 *   g = FR_coset_shift(log_n): root(log_n + 1), except that at
 *   log_n = s, where no 2n-th root exists, it is nqr^2 (snarkjs'
 *   Fr.shift, which groth16_prove.js uses in that case).  This is the
 *   coset snarkjs' H points are laid out for.
 * - threads <= 0 means all online CPUs; the result does not depend on the
 *   thread count.
 * - Transforms allocate a twiddle table of n/2 elements (plus, for
 *   coset_odd, at most 4096 more) per call and nothing per element.  They
 *   return 1, or 0 with `a` untouched when that allocation fails or
 *   log_n > s.  log_n = 0 (n = 1) is valid: every transform is the identity.
 * - Functions are reentrant: no global state.
 */
#ifndef G16_NTT_H
#define G16_NTT_H

#include "field/field.h"

#define G16_NTT_DECLARE(FR)                                                                        \
    unsigned FR##_ntt_max_log(void);                                                               \
    int FR##_ntt_root(FR *w, unsigned log_n);                                                      \
    int FR##_coset_shift(FR *g, unsigned log_n);                                                   \
    int FR##_ntt(FR *a, unsigned log_n, int threads);                                              \
    int FR##_intt(FR *a, unsigned log_n, int threads);                                             \
    int FR##_coset_odd(FR *a, unsigned log_n, int threads);

G16_NTT_DECLARE(bn254_fr)
G16_NTT_DECLARE(bls12_381_fr)

#endif
