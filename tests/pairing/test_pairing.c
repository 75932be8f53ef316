/* Pairing tests for BN254 and BLS12-381: tower identities, bilinearity,
 * e(P, Q)^r = 1, non-degeneracy, the product check, and known answers:
 * every fixture's vk_alphabeta_12 (written by snarkjs) must equal
 * e(vk_alpha_1, vk_beta_2) computed here, coefficient for coefficient. */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pairing/pairing.h"
#include "../common/test.h"

#define C bn254
#include "pairing_test_template.h"
#define C bls12_381
#include "pairing_test_template.h"

static const char *str_at(json_t *v, size_t i) { return json_string_value(json_array_get(v, i)); }

/* Fq element from a JSON decimal string (0 on failure). */
#define FROM_JSON(curve)                                                                           \
    static int curve##_fq_json(curve##_fq *r, json_t *s)                                           \
    {                                                                                              \
        const char *t = json_string_value(s);                                                      \
        return t && curve##_fq_from_dec(r, t, strlen(t));                                          \
    }                                                                                              \
    static int curve##_fq2_json(curve##_fq2 *r, json_t *a)                                         \
    {                                                                                              \
        return curve##_fq_json(&r->c0, json_array_get(a, 0)) &&                                    \
               curve##_fq_json(&r->c1, json_array_get(a, 1));                                      \
    }                                                                                              \
    /* e(alpha1, beta2) against vk_alphabeta_12 of one verification key. */                        \
    static int curve##_kat(json_t *vk)                                                             \
    {                                                                                              \
        curve##_g1_affine a;                                                                       \
        curve##_g2_affine b;                                                                       \
        curve##_fq12 want, got;                                                                    \
        json_t *a1 = json_object_get(vk, "vk_alpha_1");                                            \
        json_t *b2 = json_object_get(vk, "vk_beta_2");                                             \
        json_t *ab = json_object_get(vk, "vk_alphabeta_12");                                       \
        if (!curve##_fq_json(&a.x, json_array_get(a1, 0)) ||                                       \
            !curve##_fq_json(&a.y, json_array_get(a1, 1)) ||                                       \
            !curve##_fq2_json(&b.x, json_array_get(b2, 0)) ||                                      \
            !curve##_fq2_json(&b.y, json_array_get(b2, 1)))                                        \
            return 0;                                                                              \
        curve##_fq2 *w = (curve##_fq2 *)&want;                                                     \
        for (int i = 0; i < 6; i++)                                                                \
            if (!curve##_fq2_json(&w[i], json_array_get(json_array_get(ab, i / 3), i % 3)))        \
                return 0;                                                                          \
        curve##_pairing(&got, &a, &b);                                                             \
        return curve##_fq12_eq(&got, &want);                                                       \
    }
FROM_JSON(bn254)
FROM_JSON(bls12_381)

/* Every <fixtures>/<curve>/<circuit>/verification_key.json. */
static int test_fixture_kat(const char *curve)
{
    char dir[4096], path[8192];
    int n = 0;
    snprintf(dir, sizeof dir, "%s/%s", G16_FIXTURES, curve);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s/verification_key.json", dir, e->d_name);
        json_error_t jerr;
        json_t *vk = json_load_file(path, 0, &jerr);
        if (!vk) continue;
        int ok = strcmp(curve, "bn128") == 0 ? bn254_kat(vk) : bls12_381_kat(vk);
        if (!ok) fprintf(stderr, "known answer mismatch: %s\n", path);
        CHECK(ok);
        CHECK(strcmp(str_at(json_object_get(vk, "vk_alpha_1"), 2), "1") == 0);
        json_decref(vk);
        n++;
    }
    closedir(d);
    CHECK(n > 0);
    return n;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int iterations = argc > 1 ? atoi(argv[1]) : 3;
    bn254_test_tower();
    bls12_381_test_tower();
    double t0 = now();
    bn254_test_bilinear(iterations);
    double t1 = now();
    bls12_381_test_bilinear(iterations);
    double t2 = now();
    bn254_test_check();
    bls12_381_test_check();
    int kat = test_fixture_kat("bn128") + test_fixture_kat("bls12381");
    printf("bilinearity: %d rounds, bn254 %.1f ms, bls12_381 %.1f ms; %d known answers\n",
           iterations, (t1 - t0) * 1e3, (t2 - t1) * 1e3, kat);
    return test_finish("pairing");
}
