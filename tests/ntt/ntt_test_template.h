/* One field's NTT tests, stamped out by test_ntt.c.  Expects TFR,
 * TFR_MAX_LOG (its 2-adicity) and TFR_KNOWN_ROOT (decimal root(max)). */
#define T_(name) G16_CAT(TFR, _##name)

static void T_(random)(TFR *x)
{
    TFR t;
    for (int i = 0; i < T_(limbs); i++) t.v[i] = test_rand64();
    t.v[T_(limbs) - 1] >>= 4; /* below 2^252 < r for both fields */
    T_(from_plain)(x, &t);
}

static TFR *T_(random_vec)(size_t n)
{
    TFR *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++) T_(random)(&v[i]);
    return v;
}

static void T_(pow_u64)(TFR *r, const TFR *a, uint64_t e) { T_(pow)(r, a, &e, 1); }

static int T_(vec_eq)(const TFR *a, const TFR *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!T_(eq)(&a[i], &b[i])) return 0;
    return 1;
}

/* sum_i a_i x^i by Horner. */
static void T_(poly_eval)(TFR *r, const TFR *a, size_t n, const TFR *x)
{
    T_(zero)(r);
    for (size_t i = n; i-- > 0;) {
        T_(mul)(r, r, x);
        T_(add)(r, r, &a[i]);
    }
}

/* out_j = scale · sum_i a_i (shift·w^j)^i, the definition of every transform. */
static void T_(naive_eval)(TFR *out, const TFR *a, unsigned log_n, const TFR *w, const TFR *shift,
                           const TFR *scale)
{
    size_t n = (size_t)1 << log_n;
    TFR x = *shift;
    for (size_t j = 0; j < n; j++) {
        T_(poly_eval)(&out[j], a, n, &x);
        T_(mul)(&out[j], &out[j], scale);
        T_(mul)(&x, &x, w);
    }
}

static void T_(test_roots)(void)
{
    TFR one, minus_one, w, w_next, t;
    T_(one)(&one);
    T_(neg)(&minus_one, &one);
    CHECK(T_(ntt_max_log)() == TFR_MAX_LOG);
    for (unsigned log_n = 0; log_n <= TFR_MAX_LOG; log_n++) {
        CHECK(T_(ntt_root)(&w, log_n));
        t = w;
        for (unsigned k = 0; k + 1 < log_n; k++) T_(sqr)(&t, &t);
        if (log_n > 0) CHECK(T_(eq)(&t, &minus_one)); /* so w is primitive */
        if (log_n > 0) T_(sqr)(&t, &t);
        CHECK(T_(eq)(&t, &one));
        if (log_n < TFR_MAX_LOG) {
            CHECK(T_(ntt_root)(&w_next, log_n + 1));
            T_(sqr)(&t, &w_next);
            CHECK(T_(eq)(&t, &w));
            CHECK(T_(coset_shift)(&t, log_n) && T_(eq)(&t, &w_next));
        }
    }
    TFR known, nqr_sq;
    CHECK(T_(from_dec)(&known, TFR_KNOWN_ROOT, strlen(TFR_KNOWN_ROOT)));
    CHECK(T_(ntt_root)(&w, TFR_MAX_LOG) && T_(eq)(&w, &known));
    T_(from_u64)(&nqr_sq, 25); /* nqr = 5 for both fields: snarkjs' Fr.shift */
    CHECK(T_(coset_shift)(&t, TFR_MAX_LOG) && T_(eq)(&t, &nqr_sq));
    CHECK(!T_(ntt_root)(&w, TFR_MAX_LOG + 1) && T_(is_zero)(&w));
    CHECK(!T_(coset_shift)(&t, TFR_MAX_LOG + 1));
    TFR dummy = one;
    CHECK(!T_(ntt)(&dummy, TFR_MAX_LOG + 1, 1) && T_(eq)(&dummy, &one));
}

/* Every shape and a few thread counts against the definitions, n <= 2^8. */
static void T_(test_naive)(void)
{
    for (unsigned log_n = 0; log_n <= 8; log_n++) {
        size_t n = (size_t)1 << log_n;
        TFR *x = T_(random_vec)(n), *want_ntt = T_(random_vec)(n), *want_intt = T_(random_vec)(n),
            *want_coset = T_(random_vec)(n), *coeffs = T_(random_vec)(n), *got = T_(random_vec)(n);
        TFR w, w_inv, one, inv_n, g;
        T_(ntt_root)(&w, log_n);
        T_(inv)(&w_inv, &w);
        T_(one)(&one);
        T_(from_u64)(&inv_n, n);
        T_(inv)(&inv_n, &inv_n);
        T_(coset_shift)(&g, log_n);
        T_(naive_eval)(want_ntt, x, log_n, &w, &one, &one);
        T_(naive_eval)(want_intt, x, log_n, &w_inv, &one, &inv_n);
        memcpy(coeffs, want_intt, n * sizeof *coeffs);
        T_(naive_eval)(want_coset, coeffs, log_n, &w, &g, &one);
        for (int s = 0; s < test_shape_count; s++) {
            int threads = test_thread_counts[s % 4];
            memcpy(got, x, n * sizeof *got);
            CHECK(T_(ntt_shaped)(got, log_n, threads, &test_shapes[s]));
            CHECK(T_(vec_eq)(got, want_ntt, n));
            memcpy(got, x, n * sizeof *got);
            CHECK(T_(intt_shaped)(got, log_n, threads, &test_shapes[s]));
            CHECK(T_(vec_eq)(got, want_intt, n));
            memcpy(got, x, n * sizeof *got);
            CHECK(T_(coset_odd_shaped)(got, log_n, threads, &test_shapes[s]));
            CHECK(T_(vec_eq)(got, want_coset, n));
        }
        free(x);
        free(want_ntt);
        free(want_intt);
        free(want_coset);
        free(coeffs);
        free(got);
    }
}

/* Large n: outputs at a few indices against the definition, O(n) each.
 * coeffs must be intt(input) for the coset check. */
static void T_(spot_check)(const TFR *in, const TFR *out, const TFR *coeffs, const TFR *coset,
                           unsigned log_n)
{
    size_t n = (size_t)1 << log_n;
    TFR w, g, x, v;
    T_(ntt_root)(&w, log_n);
    T_(coset_shift)(&g, log_n);
    for (int probe = 0; probe < 4; probe++) {
        size_t j = probe == 0 ? n - 1 : test_rand64() % n;
        T_(pow_u64)(&x, &w, j);
        T_(poly_eval)(&v, in, n, &x);
        CHECK(T_(eq)(&v, &out[j]));
        T_(mul)(&x, &x, &g);
        T_(poly_eval)(&v, coeffs, n, &x);
        CHECK(T_(eq)(&v, &coset[j]));
    }
}

/* Round trips and identical results for every thread count, n <= 2^16. */
static void T_(test_large)(void)
{
    static const unsigned sizes[] = {9, 12, 13, 16};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        unsigned log_n = sizes[si];
        size_t n = (size_t)1 << log_n, bytes = n * sizeof(TFR);
        TFR *x = T_(random_vec)(n), *fwd = malloc(bytes), *coeffs = malloc(bytes),
            *coset = malloc(bytes), *got = malloc(bytes);
        for (size_t ti = 0; ti < sizeof test_thread_counts / sizeof test_thread_counts[0]; ti++) {
            int threads = test_thread_counts[ti];
            memcpy(got, x, bytes);
            CHECK(T_(ntt)(got, log_n, threads));
            if (ti == 0) memcpy(fwd, got, bytes);
            CHECK(T_(vec_eq)(got, fwd, n));
            CHECK(T_(intt)(got, log_n, threads));
            CHECK(T_(vec_eq)(got, x, n));
            memcpy(got, x, bytes);
            CHECK(T_(coset_odd)(got, log_n, threads));
            if (ti == 0) memcpy(coset, got, bytes);
            CHECK(T_(vec_eq)(got, coset, n));
        }
        memcpy(coeffs, x, bytes);
        CHECK(T_(intt)(coeffs, log_n, 1));
        T_(spot_check)(x, fwd, coeffs, coset, log_n);
        free(x);
        free(fwd);
        free(coeffs);
        free(coset);
        free(got);
    }
}

static void T_(test_all)(void)
{
    T_(test_roots)();
    T_(test_naive)();
    T_(test_large)();
}

#undef T_
#undef TFR
#undef TFR_MAX_LOG
#undef TFR_KNOWN_ROOT
