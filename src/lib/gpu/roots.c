/* Host-side constants for the device NTT, from the CPU field and NTT code
 * (plain C, so the CUDA files need not compile the CPU templates as C++). */
#include <string.h>

#include "field/field.h"
#include "gpu/gpu.h"
#include "ntt/ntt.h"
#include "gpu/internal.h"

/* The roots come from the CPU NTT library (ntt.h), so both paths use the
 * same omega and coset shift by construction. */
int gpu_host_root(int curve, int log_n, int inverse, uint8_t *out)
{
    if (curve == FORMATS_CURVE_BN128) {
        bn254_fr r;
        if (!bn254_fr_ntt_root(&r, (unsigned)log_n)) return -1;
        if (inverse) bn254_fr_inv(&r, &r);
        memcpy(out, r.v, 32);
    } else {
        bls12_381_fr r;
        if (!bls12_381_fr_ntt_root(&r, (unsigned)log_n)) return -1;
        if (inverse) bls12_381_fr_inv(&r, &r);
        memcpy(out, r.v, 32);
    }
    return 0;
}

int gpu_host_coset(int curve, int log_n, int inverse, uint8_t *out)
{
    if (curve == FORMATS_CURVE_BN128) {
        bn254_fr r;
        if (!bn254_fr_coset_shift(&r, (unsigned)log_n)) return -1;
        if (inverse) bn254_fr_inv(&r, &r);
        memcpy(out, r.v, 32);
    } else {
        bls12_381_fr r;
        if (!bls12_381_fr_coset_shift(&r, (unsigned)log_n)) return -1;
        if (inverse) bls12_381_fr_inv(&r, &r);
        memcpy(out, r.v, 32);
    }
    return 0;
}

void gpu_host_inv_n(int curve, int log_n, uint8_t *out)
{
    if (curve == FORMATS_CURVE_BN128) {
        bn254_fr r;
        bn254_fr_from_u64(&r, (uint64_t)1 << log_n);
        bn254_fr_inv(&r, &r);
        memcpy(out, r.v, 32);
    } else {
        bls12_381_fr r;
        bls12_381_fr_from_u64(&r, (uint64_t)1 << log_n);
        bls12_381_fr_inv(&r, &r);
        memcpy(out, r.v, 32);
    }
}

void gpu_host_mul(int curve, const uint8_t *a, const uint8_t *b, uint8_t *out)
{
    if (curve == FORMATS_CURVE_BN128) {
        bn254_fr x, y;
        memcpy(x.v, a, 32);
        memcpy(y.v, b, 32);
        bn254_fr_mul(&x, &x, &y);
        memcpy(out, x.v, 32);
    } else {
        bls12_381_fr x, y;
        memcpy(x.v, a, 32);
        memcpy(y.v, b, 32);
        bls12_381_fr_mul(&x, &x, &y);
        memcpy(out, x.v, 32);
    }
}

void gpu_host_powers(int curve, const uint8_t *base, size_t count, uint8_t *out)
{
    uint8_t one[32];
    if (curve == FORMATS_CURVE_BN128) {
        bn254_fr o;
        bn254_fr_one(&o);
        memcpy(one, o.v, 32);
    } else {
        bls12_381_fr o;
        bls12_381_fr_one(&o);
        memcpy(one, o.v, 32);
    }
    for (size_t i = 0; i < count; i++) {
        if (i == 0)
            memcpy(out, one, 32);
        else
            gpu_host_mul(curve, out + 32 * (i - 1), base, out + 32 * i);
    }
}
