/* Field arithmetic of the four prime fields against GMP, plus Fq2 laws. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "field/field.h"
#include "../common/test.h"

#define TFIELD bn254_fq
#include "field_test_template.h"
#define TFIELD bn254_fr
#include "field_test_template.h"
#define TFIELD bls12_381_fq
#include "field_test_template.h"
#define TFIELD bls12_381_fr
#include "field_test_template.h"

/* Fq2 against the definition (a0 + a1 u)(b0 + b1 u) with u^2 = -1, built
 * from base-field operations GMP has already vouched for. */
#define FQ2_LAWS(F2, B)                                                                            \
    static void test_##F2(int iterations)                                                          \
    {                                                                                              \
        for (int i = 0; i < iterations; i++) {                                                     \
            F2 a, b, r, s;                                                                         \
            B t0, t1;                                                                              \
            for (int k = 0; k < B##_limbs; k++) {                                                  \
                a.c0.v[k] = test_rand64();                                                         \
                a.c1.v[k] = test_rand64();                                                         \
                b.c0.v[k] = test_rand64();                                                         \
                b.c1.v[k] = test_rand64();                                                         \
            }                                                                                      \
            a.c0.v[B##_limbs - 1] >>= 4;                                                           \
            a.c1.v[B##_limbs - 1] >>= 4;                                                           \
            b.c0.v[B##_limbs - 1] >>= 4;                                                           \
            b.c1.v[B##_limbs - 1] >>= 4;                                                           \
            F2##_mul(&r, &a, &b);                                                                  \
            B##_mul(&t0, &a.c0, &b.c0);                                                            \
            B##_mul(&t1, &a.c1, &b.c1);                                                            \
            B##_sub(&s.c0, &t0, &t1);                                                              \
            B##_mul(&t0, &a.c0, &b.c1);                                                            \
            B##_mul(&t1, &a.c1, &b.c0);                                                            \
            B##_add(&s.c1, &t0, &t1);                                                              \
            CHECK(F2##_eq(&r, &s));                                                                \
            F2##_sqr(&r, &a);                                                                      \
            F2##_mul(&s, &a, &a);                                                                  \
            CHECK(F2##_eq(&r, &s));                                                                \
            F2##_inv(&r, &a);                                                                      \
            F2##_mul(&s, &r, &a);                                                                  \
            F2##_one(&r);                                                                          \
            CHECK(F2##_eq(&r, &s));                                                                \
        }                                                                                          \
    }
FQ2_LAWS(bn254_fq2, bn254_fq)
FQ2_LAWS(bls12_381_fq2, bls12_381_fq)

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4000;
    test_bn254_fq_run(n);
    test_bn254_fr_run(n);
    test_bls12_381_fq_run(n);
    test_bls12_381_fr_run(n);
    test_bn254_fq2(n / 10);
    test_bls12_381_fq2(n / 10);
    return test_finish("field");
}
