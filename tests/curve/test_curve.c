/* Group laws, generator order and on-curve checks for the four groups. */
#include <stdlib.h>

#include "curve/curve.h"
#include "../common/test.h"

static void random_scalar(uint64_t s[4])
{
    for (int i = 0; i < 4; i++) s[i] = test_rand64();
}

/* One stamped-out test per group: G names the group. */
#define GROUP_LAWS(G)                                                                              \
    static void test_##G(int iterations)                                                           \
    {                                                                                              \
        G g, p, q, r, s, t, inf;                                                                   \
        G##_affine pa, qa, batch_in_out[3];                                                        \
        G##_generator(&g);                                                                         \
        G##_set_infinity(&inf);                                                                    \
        CHECK(G##_affine_on_curve(&G##_generator_affine));                                         \
        CHECK(G##_in_subgroup(&G##_generator_affine));                                             \
        G##_mul(&r, &g, G##_order, 4);                                                             \
        CHECK(G##_is_infinity(&r));                                                                \
        for (int i = 0; i < iterations; i++) {                                                     \
            uint64_t a[4], b[4], sum[5];                                                           \
            random_scalar(a);                                                                      \
            random_scalar(b);                                                                      \
            G##_mul(&p, &g, a, 4);                                                                 \
            G##_mul(&q, &g, b, 4);                                                                 \
            G##_to_affine(&pa, &p);                                                                \
            G##_to_affine(&qa, &q);                                                                \
            CHECK(G##_affine_on_curve(&pa) && G##_affine_on_curve(&qa));                           \
            /* (a + b)G = aG + bG, computed three ways */                                          \
            unsigned __int128 c = 0;                                                               \
            for (int k = 0; k < 4; k++) {                                                          \
                c += (unsigned __int128)a[k] + b[k];                                               \
                sum[k] = (uint64_t)c;                                                              \
                c >>= 64;                                                                          \
            }                                                                                      \
            sum[4] = (uint64_t)c;                                                                  \
            G##_mul(&r, &g, sum, 5);                                                               \
            G##_add(&s, &p, &q);                                                                   \
            CHECK(G##_eq(&r, &s));                                                                 \
            G##_add_affine(&t, &p, &qa);                                                           \
            CHECK(G##_eq(&t, &s));                                                                 \
            G##_add(&t, &q, &p);                                                                   \
            CHECK(G##_eq(&t, &s));                                                                 \
            /* doubling through add, add_affine and dbl agree */                                   \
            G##_dbl(&r, &p);                                                                       \
            G##_add(&s, &p, &p);                                                                   \
            G##_add_affine(&t, &p, &pa);                                                           \
            CHECK(G##_eq(&r, &s) && G##_eq(&r, &t));                                               \
            /* P + (-P) = O, P + O = P, associativity */                                           \
            G##_neg(&r, &p);                                                                       \
            G##_add(&s, &p, &r);                                                                   \
            CHECK(G##_is_infinity(&s));                                                            \
            G##_add(&s, &p, &inf);                                                                 \
            CHECK(G##_eq(&s, &p));                                                                 \
            G##_add(&s, &inf, &p);                                                                 \
            CHECK(G##_eq(&s, &p));                                                                 \
            G##_add(&r, &p, &q);                                                                   \
            G##_add(&r, &r, &g);                                                                   \
            G##_add(&s, &q, &g);                                                                   \
            G##_add(&s, &p, &s);                                                                   \
            CHECK(G##_eq(&r, &s));                                                                 \
            CHECK(!G##_eq(&p, &q));                                                                \
            /* batch affine conversion, with infinity in the middle */                             \
            G pts[3] = {p, inf, q};                                                                \
            __typeof__(p.z) scratch[3];                                                            \
            G##_batch_to_affine(batch_in_out, pts, 3, scratch);                                    \
            CHECK(memcmp(&batch_in_out[0], &pa, sizeof pa) == 0);                                  \
            CHECK(G##_affine_is_infinity(&batch_in_out[1]));                                       \
            CHECK(memcmp(&batch_in_out[2], &qa, sizeof qa) == 0);                                  \
        }                                                                                          \
        /* a point off the curve is refused */                                                     \
        pa = G##_generator_affine;                                                                 \
        pa.y = pa.x;                                                                               \
        CHECK(!G##_affine_on_curve(&pa));                                                          \
    }

GROUP_LAWS(bn254_g1)
GROUP_LAWS(bn254_g2)
GROUP_LAWS(bls12_381_g1)
GROUP_LAWS(bls12_381_g2)

/* BLS12-381 G1 has a cofactor: a point on the curve outside the subgroup
 * must fail the subgroup check.  Find one by lifting small x values. */
static void test_bls12_381_g1_cofactor(void)
{
    for (uint64_t x = 1; x < 100; x++) {
        bls12_381_g1_affine p;
        bls12_381_fq rhs;
        bls12_381_fq_from_u64(&p.x, x);
        bls12_381_fq_sqr(&rhs, &p.x);
        bls12_381_fq_mul(&rhs, &rhs, &p.x);
        bls12_381_fq_add(&rhs, &rhs, &bls12_381_g1_b);
        if (!bls12_381_fq_sqrt(&p.y, &rhs)) continue;
        CHECK(bls12_381_g1_affine_on_curve(&p));
        CHECK(!bls12_381_g1_in_subgroup(&p));
        return;
    }
    CHECK(!"no point found");
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20;
    test_bn254_g1(n);
    test_bn254_g2(n);
    test_bls12_381_g1(n);
    test_bls12_381_g2(n);
    test_bls12_381_g1_cofactor();
    return test_finish("curve");
}
