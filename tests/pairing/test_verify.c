/* Groth16 verification and verification-key export on every fixture:
 * the reference proof verifies; a changed public signal, swapped pi_a /
 * pi_c, points off the curve or outside the subgroup, wrong counts, wrong
 * curve names and malformed JSON are rejected with the right code; the
 * exported key equals snarkjs's verification_key.json as JSON values.
 *
 * `test_verify json-equal A B` exits 0 iff two JSON files hold equal values
 * (used by cli_verify.sh). */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pairing/pairing.h"
#include "verify/verify.h"
#include "../common/test.h"
#include "../common/verdict.h"

typedef struct {
    char dir[4096];
    int bls;
    char *vk, *pub, *proof; /* texts */
} fixture;

static char *slurp(const char *dir, const char *file)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    json_error_t e;
    json_t *v = json_load_file(path, 0, &e);
    if (!v) return NULL;
    char *s = json_dumps(v, JSON_PRESERVE_ORDER);
    json_decref(v);
    return s;
}

/* Applies edit to a copy of one of the texts (0 vk, 1 public, 2 proof) and
 * returns the verifier's answer. */
typedef void (*edit_fn)(json_t *root, const fixture *f);

static int verify_edited(const fixture *f, int which, edit_fn edit, char *err, size_t errlen)
{
    char *t[3] = {f->vk, f->pub, f->proof};
    json_t *root = json_loads(t[which], 0, NULL);
    edit(root, f);
    char *s = json_dumps(root, 0);
    t[which] = s;
    int rc = test_verdict(t[0], t[1], t[2], err, errlen);
    free(s);
    json_decref(root);
    return rc;
}

/* The first public signal whose IC point is finite, or -1: some fixtures
 * come from a degenerate setup with IC[i] = infinity, where the signals
 * do not enter the equation at all (snarkjs accepts any value there too). */
static int bound_signal(const fixture *f)
{
    json_t *vk = json_loads(f->vk, 0, NULL);
    json_t *ic = json_object_get(vk, "IC");
    int found = -1;
    for (size_t i = 1; i < json_array_size(ic) && found < 0; i++)
        if (strcmp(json_string_value(json_array_get(json_array_get(ic, i), 2)), "0") != 0)
            found = (int)i - 1;
    json_decref(vk);
    return found;
}

static void bump_signal(json_t *pub, const fixture *f)
{
    int i = bound_signal(f);
    const char *s = json_string_value(json_array_get(pub, (size_t)i));
    char buf[200];
    snprintf(buf, sizeof buf, "1%s", s); /* still below r for short signals */
    json_array_set_new(pub, (size_t)i, json_string(buf));
}

static void signal_is_r(json_t *pub, const fixture *f)
{
    char buf[200];
    snprintf(buf, sizeof buf, "%s",
             f->bls
                 ? "52435875175126190479447740508185965837690552500527637822603658699938581184513"
                 : "21888242871839275222246405745257275088548364400416034343698204186575808495617");
    json_array_set_new(pub, 0, json_string(buf));
}

static void signal_not_decimal(json_t *pub, const fixture *f)
{
    (void)f;
    json_array_set_new(pub, 0, json_string("0x21"));
}
static void extra_signal(json_t *pub, const fixture *f)
{
    (void)f;
    json_array_append_new(pub, json_string("1"));
}

static void swap_a_c(json_t *proof, const fixture *f)
{
    (void)f;
    json_t *a = json_incref(json_object_get(proof, "pi_a"));
    json_object_set(proof, "pi_a", json_object_get(proof, "pi_c"));
    json_object_set_new(proof, "pi_c", a);
}

/* pi_a.x -> pi_a.x + 1 (as text: last digit changed, still below p). */
static void a_off_curve(json_t *proof, const fixture *f)
{
    (void)f;
    json_t *a = json_object_get(proof, "pi_a");
    char buf[200];
    snprintf(buf, sizeof buf, "%s", json_string_value(json_array_get(a, 0)));
    size_t n = strlen(buf);
    buf[n - 1] = buf[n - 1] == '9' ? '8' : (char)(buf[n - 1] + 1);
    json_array_set_new(a, 0, json_string(buf));
}

static void b_off_curve(json_t *proof, const fixture *f)
{
    (void)f;
    json_t *x = json_array_get(json_array_get(json_object_get(proof, "pi_b"), 0), 1);
    json_string_set(x, "5");
}

static void wrong_curve(json_t *proof, const fixture *f)
{
    json_object_set_new(proof, "curve", json_string(f->bls ? "bn128" : "bls12381"));
}

static void unknown_curve(json_t *vk, const fixture *f)
{
    (void)f;
    json_object_set_new(vk, "curve", json_string("secp256k1"));
}
static void no_ic(json_t *vk, const fixture *f)
{
    (void)f;
    json_object_del(vk, "IC");
}
static void coord_too_big(json_t *proof, const fixture *f)
{
    (void)f;
    json_array_set_new(json_object_get(proof, "pi_c"), 1,
                       json_string("999999999999999999999999999999999999999999999999999999999999999"
                                   "99999999999999999999999999999999999999999999999999999999"));
}

/* A point of E(Fq) outside G1: BLS12-381's G1 has cofactor > 1, so a
 * random curve point is (almost surely) not of order r. */
static void a_not_in_subgroup(json_t *proof, const fixture *f)
{
    (void)f;
    bls12_381_fq x, y, four;
    char sx[160], sy[160];
    bls12_381_fq_from_u64(&four, 4);
    for (uint64_t k = 1;; k++) {
        bls12_381_fq_from_u64(&x, k);
        bls12_381_fq_sqr(&y, &x);
        bls12_381_fq_mul(&y, &y, &x);
        bls12_381_fq_add(&y, &y, &four);
        if (bls12_381_fq_sqrt(&y, &y)) break;
    }
    bls12_381_fq_to_dec(sx, &x);
    bls12_381_fq_to_dec(sy, &y);
    json_object_set_new(proof, "pi_a", json_pack("[sss]", sx, sy, "1"));
}

/* Square root in Fq2 for p = 3 mod 4 (Adj and Rodriguez-Henriquez, alg. 9);
 * 0 when a has none; r must not alias a.  Only the tests need it, to make
 * a point of the twist E'(Fq2) outside G2 (both twists have huge
 * cofactors). */
#define FQ2_SQRT(C)                                                                                \
    static int C##_fq2_sqrt_test(C##_fq2 *r, const C##_fq2 *a)                                     \
    {                                                                                              \
        uint64_t e[C##_fq_limbs];                                                                  \
        C##_fq2 a1, alpha, x0, one, t;                                                             \
        C##_fq_modulus_minus(e, 3);                                                                \
        C##_fq_shift_right(e, 2);                                                                  \
        C##_fq2_pow(&a1, a, e, C##_fq_limbs);                                                      \
        C##_fq2_mul(&x0, &a1, a);                                                                  \
        C##_fq2_mul(&alpha, &a1, &x0);                                                             \
        C##_fq2_one(&one);                                                                         \
        C##_fq2_add(&t, &alpha, &one);                                                             \
        if (C##_fq2_is_zero(&t)) { /* alpha = -1: x = u x0 */                                      \
            C##_fq_neg(&r->c0, &x0.c1);                                                            \
            r->c1 = x0.c0;                                                                         \
        } else {                                                                                   \
            C##_fq_modulus_minus(e, 1);                                                            \
            C##_fq_shift_right(e, 1);                                                              \
            C##_fq2_pow(&t, &t, e, C##_fq_limbs);                                                  \
            C##_fq2_mul(r, &t, &x0);                                                               \
        }                                                                                          \
        C##_fq2_sqr(&t, r);                                                                        \
        return C##_fq2_eq(&t, a);                                                                  \
    }                                                                                              \
    /* The first twist point with x = k + u, k = 1, 2, ... (not in G2). */                         \
    static json_t *C##_twist_point_json(void)                                                      \
    {                                                                                              \
        C##_g2_affine q;                                                                           \
        C##_fq2 rhs;                                                                               \
        char s[4][160];                                                                            \
        for (uint64_t k = 1;; k++) {                                                               \
            C##_fq_from_u64(&q.x.c0, k);                                                           \
            C##_fq_from_u64(&q.x.c1, 1);                                                           \
            C##_fq2_sqr(&q.y, &q.x);                                                               \
            C##_fq2_mul(&q.y, &q.y, &q.x);                                                         \
            C##_fq2_add(&rhs, &q.y, &C##_g2_b);                                                    \
            if (C##_fq2_sqrt_test(&q.y, &rhs)) break;                                              \
        }                                                                                          \
        CHECK(C##_g2_affine_on_curve(&q) && !C##_g2_in_subgroup(&q));                              \
        C##_fq2_to_dec(s[0], s[1], &q.x);                                                          \
        C##_fq2_to_dec(s[2], s[3], &q.y);                                                          \
        return json_pack("[[ss][ss][ss]]", s[0], s[1], s[2], s[3], "1", "0");                      \
    }
FQ2_SQRT(bn254)
FQ2_SQRT(bls12_381)

static void b_not_in_subgroup(json_t *proof, const fixture *f)
{
    json_object_set_new(proof, "pi_b",
                        f->bls ? bls12_381_twist_point_json() : bn254_twist_point_json());
}

static void expect(const fixture *f, const char *what, int which, edit_fn edit, int want)
{
    char err[512] = "";
    int rc = verify_edited(f, which, edit, err, sizeof err);
    if (rc != want) fprintf(stderr, "%s: %s: got %d, want %d (%s)\n", f->dir, what, rc, want, err);
    CHECK(rc == want);
    CHECK(rc == 1 || err[0] != 0); /* every rejection says why */
}

static void no_edit(json_t *root, const fixture *f)
{
    (void)root;
    (void)f;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Malformed texts: truncated JSON, wrong top-level types, no text. */
static void test_malformed(const fixture *f)
{
    char err[512];
    size_t n = strlen(f->proof);
    char *cut = strdup(f->proof);
    cut[n / 2] = 0;
    CHECK(test_verdict(f->vk, f->pub, cut, err, sizeof err) == -1);
    CHECK(strncmp(err, "proof: invalid JSON", 19) == 0);
    CHECK(test_verdict(f->vk, f->proof, f->proof, err, sizeof err) == -1);
    CHECK(test_verdict(f->pub, f->pub, f->proof, err, sizeof err) == -1);
    CHECK(test_verdict("", f->pub, f->proof, err, sizeof err) == -1);
    CHECK(test_verdict(f->vk, f->pub, NULL, err, sizeof err) == -1);
    free(cut);
}

/* vk_export_json of the fixture's zkey equals its verification_key.json. */
static void test_export(const fixture *f)
{
    char path[8192], err[512];
    zkey z;
    char *text = NULL;
    memset(&z, 0, sizeof z);
    snprintf(path, sizeof path, "%s/circuit.zkey", f->dir);
    int rc = zkey_open(path, &z, err, sizeof err);
    CHECK(rc == 0);
    if (rc == 0) CHECK(vk_export_json(&z, path, &text, err, sizeof err) == 0);
    json_t *got = text ? json_loads(text, 0, NULL) : NULL, *want = json_loads(f->vk, 0, NULL);
    CHECK(got && want && json_equal(got, want));
    json_decref(got);
    json_decref(want);
    free(text);
    zkey_close(&z);
}

/* A copy of one of the texts (0 vk, 1 public, 2 proof) with edit applied
 * (malloc'd). */
static char *edited_text(const fixture *f, int which, edit_fn edit)
{
    const char *t[3] = {f->vk, f->pub, f->proof};
    json_t *root = json_loads(t[which], 0, NULL);
    edit(root, f);
    char *s = json_dumps(root, 0);
    json_decref(root);
    return s;
}

/* g16_verify_batch_json: a batch of valid proofs passes as one; a batch
 * with invalid and malformed ones among them gives each its own answer,
 * the same as g16_verify_json's (the combined check fails, then each is
 * checked alone); a malformed key fails the call. */
static void test_batch(const fixture *f)
{
    enum { N = 8 };
    const char *pub[N], *proof[N];
    int valid[N], want[N];
    char err[512];
    for (int i = 0; i < N; i++) pub[i] = f->pub, proof[i] = f->proof, want[i] = 1;
    double t0 = now();
    CHECK(g16_verify_batch_json(f->vk, N, pub, proof, valid, err, sizeof err) == G16_OK);
    printf("  %-48s batch of %d: %.2f ms a proof\n", "", N, (now() - t0) * 1e3 / N);
    for (int i = 0; i < N; i++) CHECK(valid[i] == 1);

    char *swapped = edited_text(f, 2, swap_a_c), *b_off = edited_text(f, 2, b_off_curve);
    char *bumped = edited_text(f, 1, bump_signal), *cut = strdup(f->proof);
    cut[strlen(cut) / 2] = 0;
    proof[1] = swapped, want[1] = 0;
    proof[3] = cut, want[3] = -1;
    proof[4] = b_off, want[4] = 0;
    if (bound_signal(f) >= 0) pub[6] = bumped, want[6] = 0;
    CHECK(g16_verify_batch_json(f->vk, N, pub, proof, valid, err, sizeof err) == G16_OK);
    for (int i = 0; i < N; i++) {
        int one = test_verdict(f->vk, pub[i], proof[i], err, sizeof err);
        if (valid[i] != want[i] || one != want[i])
            fprintf(stderr, "%s: batch item %d: %d, alone %d, want %d\n", f->dir, i, valid[i], one,
                    want[i]);
        CHECK(valid[i] == want[i] && one == want[i]);
    }
    CHECK(g16_verify_batch_json(f->vk, 0, pub, proof, valid, err, sizeof err) == G16_OK);
    CHECK(g16_verify_batch_json(f->pub, N, pub, proof, valid, err, sizeof err) == G16_ERR_FORMAT);
    CHECK(err[0] != 0);
    free(swapped);
    free(b_off);
    free(bumped);
    free(cut);
}

static void test_fixture(const fixture *f)
{
    char err[512];
    double t0 = now();
    int rc = test_verdict(f->vk, f->pub, f->proof, err, sizeof err);
    double t1 = now();
    if (rc != 1) fprintf(stderr, "%s: reference proof: %d (%s)\n", f->dir, rc, err);
    CHECK(rc == 1);
    printf("  %-48s verify %.2f ms\n", f->dir, (t1 - t0) * 1e3);
    expect(f, "unchanged", 2, no_edit, 1);
    if (bound_signal(f) >= 0)
        expect(f, "changed public signal", 1, bump_signal, 0);
    else
        printf("  (every IC point past IC[0] is infinity: signals are not bound)\n");
    expect(f, "public signal = r", 1, signal_is_r, 0);
    expect(f, "public signal not decimal", 1, signal_not_decimal, -1);
    expect(f, "one signal too many", 1, extra_signal, -1);
    expect(f, "swapped pi_a / pi_c", 2, swap_a_c, 0);
    expect(f, "pi_a off the curve", 2, a_off_curve, 0);
    expect(f, "pi_b off the curve", 2, b_off_curve, 0);
    expect(f, "pi_c coordinate >= p", 2, coord_too_big, -1);
    expect(f, "proof on the other curve", 2, wrong_curve, -1);
    expect(f, "unknown curve in the key", 0, unknown_curve, -1);
    expect(f, "key without IC", 0, no_ic, -1);
    if (f->bls) expect(f, "pi_a outside G1", 2, a_not_in_subgroup, 0);
    expect(f, "pi_b outside G2", 2, b_not_in_subgroup, 0);
    test_malformed(f);
    test_batch(f);
    test_export(f);
}

static int run_curve(const char *curve)
{
    char dir[4096];
    int n = 0;
    snprintf(dir, sizeof dir, "%s/%s", G16_FIXTURES, curve);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        fixture f;
        if (e->d_name[0] == '.') continue;
        snprintf(f.dir, sizeof f.dir, "%.3000s/%.200s", dir, e->d_name);
        f.bls = strcmp(curve, "bls12381") == 0;
        f.vk = slurp(f.dir, "verification_key.json");
        f.pub = slurp(f.dir, "public.json");
        f.proof = slurp(f.dir, "proof.json");
        if (f.vk && f.pub && f.proof) {
            test_fixture(&f);
            n++;
        }
        free(f.vk);
        free(f.pub);
        free(f.proof);
    }
    closedir(d);
    CHECK(n > 0);
    return n;
}

static int json_equal_files(const char *a, const char *b)
{
    json_t *x = json_load_file(a, 0, NULL), *y = json_load_file(b, 0, NULL);
    int eq = x && y && json_equal(x, y);
    json_decref(x);
    json_decref(y);
    return eq ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "json-equal")) return json_equal_files(argv[2], argv[3]);
    int n = run_curve("bn128") + run_curve("bls12381");
    printf("%d fixtures\n", n);
    return test_finish("verify");
}
