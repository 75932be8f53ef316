/* The last step of every GPU MSM, on the host: the window sums S_w come
 * back from the device as XYZZ points and are combined by Horner,
 * sum_w 2^(c w) S_w, plus the slot of scalars equal to 1, then made affine.
 *
 * Why the CPU: Horner is a chain of ~c (W - 1) ~ 250 dependent doublings.
 * One GPU thread does one in ~10 us (G1) to ~30 us (G2), so the device's
 * one-thread finish took 2 ms (BN254 G1) to ~7 ms (G2) while the GPU idled;
 * the CPU's Jacobian doubling takes 0.3-1.5 us.  Plain C over the CPU curve
 * code (src/curve), which shares the device's byte layout: little-endian
 * limbs in Montgomery form with the same R, Fq2 as (c0, c1). */
#include <string.h>

#include "curve/curve.h"
#include "gpu/gpu.h"
#include "gpu/internal.h"

/* XYZZ (x = X/ZZ, y = Y/ZZZ) to Jacobian without an inversion:
 * Z = ZZ ZZZ, X = X ZZ ZZZ^2, Y = Y ZZ^3 ZZZ^2 (then X/Z^2 = X/ZZ and
 * Y/Z^3 = Y/ZZZ); ZZ = 0 (infinity) gives Z = 0. */
#define GPU_HORNER(G, FE)                                                                          \
    static void G##_from_xyzz(G *r, const uint8_t *src)                                            \
    {                                                                                              \
        FE x, y, zz, zzz, t, u;                                                                    \
        memcpy(&x, src, sizeof(FE));                                                               \
        memcpy(&y, src + sizeof(FE), sizeof(FE));                                                  \
        memcpy(&zz, src + 2 * sizeof(FE), sizeof(FE));                                             \
        memcpy(&zzz, src + 3 * sizeof(FE), sizeof(FE));                                            \
        FE##_mul(&r->z, &zz, &zzz);                                                                \
        FE##_mul(&t, &r->z, &zzz); /* ZZ ZZZ^2 */                                                  \
        FE##_mul(&r->x, &x, &t);                                                                   \
        FE##_sqr(&u, &zz);                                                                         \
        FE##_mul(&u, &u, &t); /* ZZ^3 ZZZ^2 */                                                     \
        FE##_mul(&r->y, &y, &u);                                                                   \
    }                                                                                              \
    static void G##_horner(const uint8_t *xyzz, int nw, int c, uint8_t *out)                       \
    {                                                                                              \
        const size_t step = 4 * sizeof(FE);                                                        \
        G r, s;                                                                                    \
        G##_affine a;                                                                              \
        G##_set_infinity(&r);                                                                      \
        for (int w = nw - 1; w >= 0; w--) {                                                        \
            for (int k = 0; k < c && w < nw - 1; k++) G##_dbl(&r, &r);                             \
            G##_from_xyzz(&s, xyzz + (size_t)w * step);                                            \
            G##_add(&r, &r, &s);                                                                   \
        }                                                                                          \
        G##_from_xyzz(&s, xyzz + (size_t)nw * step);                                               \
        G##_add(&r, &r, &s);                                                                       \
        G##_to_affine(&a, &r);                                                                     \
        memcpy(out, &a.x, sizeof(FE));                                                             \
        memcpy(out + sizeof(FE), &a.y, sizeof(FE));                                                \
    }

GPU_HORNER(bn254_g1, bn254_fq)
GPU_HORNER(bn254_g2, bn254_fq2)
GPU_HORNER(bls12_381_g1, bls12_381_fq)
GPU_HORNER(bls12_381_g2, bls12_381_fq2)

void gpu_msm_horner(int curve, int g2, const uint8_t *xyzz, int nw, int c, uint8_t *out)
{
    if (nw == 0) { /* an empty MSM: infinity, all zero bytes */
        memset(out, 0, g2 ? gpu_g2_bytes(curve) : gpu_g1_bytes(curve));
        return;
    }
    if (curve == FORMATS_CURVE_BN128) {
        if (g2)
            bn254_g2_horner(xyzz, nw, c, out);
        else
            bn254_g1_horner(xyzz, nw, c, out);
    } else {
        if (g2)
            bls12_381_g2_horner(xyzz, nw, c, out);
        else
            bls12_381_g1_horner(xyzz, nw, c, out);
    }
}
