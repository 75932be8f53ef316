/* Tests of one prime field against GMP, stamped out per field (see
 * test_field.c).  Expects TFIELD (the field prefix). */

#define T_(name)    G16_CAT(TFIELD, _##name)
#define TEST_(name) G16_CAT(test_, G16_CAT(TFIELD, _##name))

static void TEST_(mpz_of)(mpz_t out, const TFIELD *a) /* plain value of a */
{
    TFIELD t;
    T_(to_plain)(&t, a);
    mpz_import(out, T_(limbs), -1, 8, 0, 0, t.v);
}

static void TEST_(of_mpz)(TFIELD *r, const mpz_t x, const mpz_t p)
{
    mpz_t t;
    TFIELD plain;
    mpz_init(t);
    mpz_mod(t, x, p);
    memset(plain.v, 0, sizeof plain.v);
    mpz_export(plain.v, NULL, -1, 8, 0, 0, t);
    T_(from_plain)(r, &plain);
    mpz_clear(t);
}

/* Random values, with edge cases mixed in: 0, 1, p-1, p-2, 2^k ± 1. */
static void TEST_(sample)(mpz_t x, const mpz_t p, int i)
{
    int bits = (int)mpz_sizeinbase(p, 2);
    switch (i % 8) {
    case 0: mpz_set_ui(x, (unsigned)(i / 8) % 3); break;
    case 1: mpz_sub_ui(x, p, 1 + (unsigned)(i / 8) % 3); break;
    case 2:
        mpz_set_ui(x, 1);
        mpz_mul_2exp(x, x, (mp_bitcnt_t)(test_rand64() % (uint64_t)bits));
        if (i & 16)
            mpz_sub_ui(x, x, 1);
        else
            mpz_add_ui(x, x, 1);
        break;
    default: {
        uint64_t w[8];
        for (int k = 0; k < 8; k++) w[k] = test_rand64();
        mpz_import(x, T_(limbs), -1, 8, 0, 0, w);
    }
    }
    mpz_mod(x, x, p);
}

static void TEST_(run)(int iterations)
{
    mpz_t p, a, b, want, got;
    mpz_inits(p, a, b, want, got, NULL);
    mpz_import(p, T_(limbs), -1, 8, 0, 0, T_(modulus).v);
    for (int i = 0; i < iterations; i++) {
        TFIELD x, y, r;
        TEST_(sample)(a, p, i);
        TEST_(sample)(b, p, i / 3 + 7);
        TEST_(of_mpz)(&x, a, p);
        TEST_(of_mpz)(&y, b, p);
        CHECK(T_(is_canonical)(&x));

        T_(add)(&r, &x, &y);
        mpz_add(want, a, b);
        mpz_mod(want, want, p);
        TEST_(mpz_of)(got, &r);
        CHECK(mpz_cmp(got, want) == 0);
        T_(sub)(&r, &x, &y);
        mpz_sub(want, a, b);
        mpz_mod(want, want, p);
        TEST_(mpz_of)(got, &r);
        CHECK(mpz_cmp(got, want) == 0);
        T_(mul)(&r, &x, &y);
        mpz_mul(want, a, b);
        mpz_mod(want, want, p);
        TEST_(mpz_of)(got, &r);
        CHECK(mpz_cmp(got, want) == 0);
        T_(sqr)(&r, &x);
        mpz_mul(want, a, a);
        mpz_mod(want, want, p);
        TEST_(mpz_of)(got, &r);
        CHECK(mpz_cmp(got, want) == 0);
        T_(neg)(&r, &x);
        mpz_neg(want, a);
        mpz_mod(want, want, p);
        TEST_(mpz_of)(got, &r);
        CHECK(mpz_cmp(got, want) == 0);
        CHECK(T_(is_canonical)(&r));

        if (i % 16 == 0) { /* the exponentiations are slow; fewer of them */
            T_(inv)(&r, &x);
            if (mpz_sgn(a) == 0)
                mpz_set_ui(want, 0);
            else
                mpz_invert(want, a, p);
            TEST_(mpz_of)(got, &r);
            CHECK(mpz_cmp(got, want) == 0);
            int has_root = T_(sqrt)(&r, &x);
            CHECK(has_root == (mpz_sgn(a) == 0 || mpz_legendre(a, p) == 1));
            if (has_root) {
                T_(sqr)(&r, &r);
                CHECK(T_(eq)(&r, &x));
            }
            /* pow_public against GMP: exponent 0, 1, one limb, every limb
             * (its windows read every nibble, including leading zeros). */
            uint64_t e[T_(limbs)];
            for (int k = 0; k < T_(limbs); k++) e[k] = (i / 16) % 4 < 2 ? 0 : test_rand64();
            if ((i / 16) % 4 == 1) e[0] = 1;
            if ((i / 16) % 4 == 2) e[0] = test_rand64() | 1;
            int e_limbs = (i / 16) % 4 == 2 ? 1 : T_(limbs);
            mpz_t ez;
            mpz_init(ez);
            mpz_import(ez, (size_t)e_limbs, -1, 8, 0, 0, e);
            T_(pow_public)(&r, &x, e, e_limbs);
            mpz_powm(want, a, ez, p);
            TEST_(mpz_of)(got, &r);
            CHECK(mpz_cmp(got, want) == 0);
            mpz_clear(ez);
        }

        char dec[200], *gmp_dec = mpz_get_str(NULL, 10, a);
        T_(to_dec)(dec, &x);
        CHECK(strcmp(dec, gmp_dec) == 0);
        CHECK(T_(from_dec)(&r, gmp_dec, strlen(gmp_dec)) && T_(eq)(&r, &x));
        free(gmp_dec);

        uint8_t bytes[T_(bytes)];
        T_(to_bytes)(bytes, &x);
        CHECK(T_(from_bytes)(&r, bytes) && T_(eq)(&r, &x));
    }
    /* p itself and p+1 are not canonical; the parsers must refuse them. */
    char *p_dec = mpz_get_str(NULL, 10, p);
    TFIELD r;
    CHECK(!T_(from_dec)(&r, p_dec, strlen(p_dec)));
    CHECK(!T_(from_dec)(&r, "", 0) && !T_(from_dec)(&r, "12a", 3));
    uint8_t pbytes[T_(bytes)];
    memcpy(pbytes, T_(modulus).v, sizeof pbytes);
    CHECK(!T_(from_bytes)(&r, pbytes));
    free(p_dec);
    mpz_clears(p, a, b, want, got, NULL);
}

#undef T_
#undef TEST_
#undef TFIELD
