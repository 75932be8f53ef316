/* field: arithmetic in the four prime fields of g16 and in Fq2.
 *
 * Contract
 * - Fields: bn254_fq, bn254_fr, bls12_381_fq, bls12_381_fr (prime fields)
 *   and bn254_fq2, bls12_381_fq2 (Fq[u]/(u^2 + 1), the same non-residue
 *   for both curves).  Each is a struct of little-endian 64-bit limbs,
 *   `v[N]`, so a field element and its little-endian byte image coincide
 *   on the (little-endian) hosts we support.
 * - Every element held in one of these types is in Montgomery form
 *   (x·R mod p, R = 2^(64·N)) and fully reduced (< p), unless a function
 *   name says "plain" (to_plain / from_plain) or "bytes" / "dec".
 * - For each field F the functions are named F_op (bn254_fr_mul, ...):
 *   zero, one, copy, is_zero, eq, add, sub, neg, dbl, mul, sqr, inv (0 -> 0),
 *   pow, sqrt (returns 0 when there is none), from_u64, from_plain,
 *   to_plain, from_bytes / to_bytes (canonical little-endian, plain value),
 *   from_dec / to_dec (decimal text of the plain value), is_canonical.
 * - Nothing here allocates or fails except the parsers, which return 0 on
 *   bad input and never read past the given length.
 * - Multiplication uses mulx/adcx/adox assembly on x86-64 CPUs that have
 *   BMI2 and ADX, the portable unsigned __int128 code elsewhere.
 * - Timing: add/sub/mul/sqr run in time independent of the values except
 *   the final conditional subtraction; inv and sqrt use fixed exponents,
 *   so they run in time independent of their input.
 *
 * Why templates through #include: the hot loops (MSM, NTT) need fixed limb
 * counts the compiler can unroll, so each field is stamped out from one
 * source with its constants rather than dispatched at run time.
 */
#ifndef G16_FIELD_H
#define G16_FIELD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "field/field_params.h"

/* G16_SANITIZED: built with AddressSanitizer (GCC's macro, clang's
 * feature test). */
#if defined(__SANITIZE_ADDRESS__)
#define G16_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define G16_SANITIZED 1
#endif
#endif

/* The MSM and NTT loops are mostly field operations; a call per operation
 * cost a measured third of the prover's time when the compiler declined
 * to inline them, so the hot ones are forced inline in the modules built
 * with G16_HOT_PATH (msm, ntt, groth16); elsewhere (pairing, setup) forced
 * inlining only made the build slower.  Not under AddressSanitizer, which
 * checks correctness, not speed: there it made msm.c alone a 250-second
 * compile (6 s without), most of CI's sanitizer build. */
#if defined(__GNUC__) && defined(__OPTIMIZE__) && defined(G16_HOT_PATH) && !defined(G16_SANITIZED)
#define G16_HOT_INLINE static inline __attribute__((always_inline))
#else
#define G16_HOT_INLINE static inline
#endif

/* Optimized x86-64 builds on CPUs with BMI2/ADX get the mulx/adcx/adox
 * multiplication (chosen at run time; -O0 and -Os cannot allocate its
 * registers).
 * Everything else, and builds with -DG16_NO_ASM, use the portable
 * unsigned __int128 code below.  Both are tested against GMP. */
#if defined(__x86_64__) && defined(__OPTIMIZE__) && !defined(__OPTIMIZE_SIZE__) &&                 \
    !defined(G16_NO_ASM)
#define G16_FIELD_ASM 1
#include "field/field_asm_x86.h"
#else
#define G16_FIELD_ASM 0
#endif
/* The 6-limb product needs 13 registers; AddressSanitizer's instrumentation
 * at -O1 leaves fewer, so sanitizer builds take the portable 6-limb path. */
#define G16_FIELD_ASM_LIMBS_4 G16_FIELD_ASM
#if defined(G16_SANITIZED)
#define G16_FIELD_ASM_LIMBS_6 0
#else
#define G16_FIELD_ASM_LIMBS_6 G16_FIELD_ASM
#endif

/* Carry chains: the x86-64 intrinsics compile to adc/sbb, which compilers
 * do not reliably find in the unsigned __int128 formulation (measured: 4x
 * on a 4-limb addition).  The fallback is the same arithmetic, portably. */
#if defined(__x86_64__)
#include <x86intrin.h>
static inline unsigned char g16_addc(unsigned char c, uint64_t a, uint64_t b, uint64_t *out)
{
    unsigned long long o;
    c = _addcarry_u64(c, a, b, &o);
    *out = o;
    return c;
}
static inline unsigned char g16_subb(unsigned char c, uint64_t a, uint64_t b, uint64_t *out)
{
    unsigned long long o;
    c = _subborrow_u64(c, a, b, &o);
    *out = o;
    return c;
}
/* r = c ? a : b without a branch.  Written as cmov because GCC turns the
 * portable mask-and-or select into SSE code that reads the limbs back
 * through memory right after they were stored one by one, a store-forwarding
 * stall that made add and the end of mul 2-3x slower (measured). */
static inline uint64_t g16_select(unsigned char c, uint64_t a, uint64_t b)
{
    __asm__("testb %[c], %[c]\n\tcmovnzq %[a], %[b]"
            : [b] "+r"(b)
            : [c] "q"(c), [a] "rm"(a)
            : "cc");
    return b;
}
#else
static inline uint64_t g16_select(unsigned char c, uint64_t a, uint64_t b)
{
    uint64_t mask = (uint64_t)0 - c;
    return (a & mask) | (b & ~mask);
}
static inline unsigned char g16_addc(unsigned char c, uint64_t a, uint64_t b, uint64_t *out)
{
    unsigned __int128 t = (unsigned __int128)a + b + c;
    *out = (uint64_t)t;
    return (unsigned char)(t >> 64);
}
static inline unsigned char g16_subb(unsigned char c, uint64_t a, uint64_t b, uint64_t *out)
{
    unsigned __int128 t = (unsigned __int128)a - b - c;
    *out = (uint64_t)t;
    return (unsigned char)((t >> 64) & 1);
}
#endif

#define G16_CAT_(a, b) a##b
#define G16_CAT(a, b)  G16_CAT_(a, b)

typedef unsigned __int128 g16_u128;

#define FIELD     bn254_fq
#define FIELD_N   BN254_FQ_LIMBS
#define FIELD_P   BN254_FQ_P
#define FIELD_R2  BN254_FQ_R2
#define FIELD_ONE BN254_FQ_ONE
#define FIELD_INV BN254_FQ_INV
#include "field/field_template.h"

#define FIELD     bn254_fr
#define FIELD_N   BN254_FR_LIMBS
#define FIELD_P   BN254_FR_P
#define FIELD_R2  BN254_FR_R2
#define FIELD_ONE BN254_FR_ONE
#define FIELD_INV BN254_FR_INV
#include "field/field_template.h"

#define FIELD     bls12_381_fq
#define FIELD_N   BLS12_381_FQ_LIMBS
#define FIELD_P   BLS12_381_FQ_P
#define FIELD_R2  BLS12_381_FQ_R2
#define FIELD_ONE BLS12_381_FQ_ONE
#define FIELD_INV BLS12_381_FQ_INV
#include "field/field_template.h"

#define FIELD     bls12_381_fr
#define FIELD_N   BLS12_381_FR_LIMBS
#define FIELD_P   BLS12_381_FR_P
#define FIELD_R2  BLS12_381_FR_R2
#define FIELD_ONE BLS12_381_FR_ONE
#define FIELD_INV BLS12_381_FR_INV
#include "field/field_template.h"

#define FQ2      bn254_fq2
#define FQ2_BASE bn254_fq
#include "field/fq2_template.h"

#define FQ2      bls12_381_fq2
#define FQ2_BASE bls12_381_fq
#include "field/fq2_template.h"

#endif
