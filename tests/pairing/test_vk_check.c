/* g16_vk_check_json through libg16.so, as a program uses it (public header
 * only): every fixture's verification key is accepted with its curve and
 * nPublic and given back unchanged (snarkjs's keys are canonical already),
 * and the canonical text still verifies the fixture's proof; a Jacobian or
 * two-coordinate point comes back affine; a point off its curve, one
 * outside its subgroup, alpha, beta, gamma or delta at infinity (also
 * refused by g16_verify_json and g16_verify_batch_json), a key of the
 * other curve, truncated JSON and bad shapes fail with G16_ERR_FORMAT and
 * one line naming the key. */
#include <dirent.h>
#include <gmp.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16.h"
#include "../common/test.h"
#include "../common/verdict.h"

#define NAME "dir/vk.json"

/* Points on their curves outside the order-r subgroups (the cofactors are
 * large), found by tests/pairing/test_verify.c's search: the first point
 * of BN254's twist with x = k + u (k = 2), and BLS12-381's G1 point with
 * x = 4.  main checks them through g16_verify_json before use. */
static const char *const bn254_twist_point[4] = {
    "2", "1", "7292567877523311580221095596750716176434782432868683424513645834767876293070",
    "19659275751359636165940301690575149581329631496732780143538578556285923319774"};
static const char *const bls12_381_g1_point[2] = {
    "4", "163089297482801453772925985809711396965087126098065693404959019020194178248722487649658"
         "2135785777461178964897591404"};

typedef struct {
    const char *curve;
    char dir[4096];
    char *vk, *pub, *proof; /* the fixture's texts */
} fixture;

static char *read_text(const char *dir, const char *file)
{
    char path[8192], err[512];
    char *text = NULL;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (g16_file_read_text(path, (size_t)64 << 20, &text, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
    }
    return text;
}

/* The key after edit, as a text (caller frees). */
typedef void (*edit_fn)(json_t *vk);

static char *edited(const char *vk_text, edit_fn edit)
{
    json_t *vk = json_loads(vk_text, 0, NULL);
    CHECK(vk != NULL);
    if (edit) edit(vk);
    char *s = json_dumps(vk, JSON_PRESERVE_ORDER);
    json_decref(vk);
    return s;
}

/* The edited key is refused with G16_ERR_FORMAT and one line
 * "dir/vk.json: ...<want>...". */
static void expect_refused(const fixture *f, const char *what, edit_fn edit, const char *want)
{
    char err[512] = "", *canonical = (char *)1, *text = edited(f->vk, edit);
    g16_vk_info info = {0};
    int rc = g16_vk_check_json(text, strlen(text), NAME, &info, &canonical, err, sizeof err);
    if (rc != G16_ERR_FORMAT || !strstr(err, want))
        fprintf(stderr, "%s: %s: got %d \"%s\", want format \"%s\"\n", f->dir, what, rc, err, want);
    CHECK(rc == G16_ERR_FORMAT);
    CHECK(strncmp(err, NAME ": ", strlen(NAME) + 2) == 0);
    CHECK(strstr(err, want) != NULL);
    CHECK(strchr(err, '\n') == NULL);
    CHECK(canonical == NULL);
    free(text);
}

/* y + 1 (or y0 + 1): the point leaves its curve. */
static void bump_y(json_t *point)
{
    json_t *y = json_array_get(point, 1);
    if (json_is_array(y)) y = json_array_get(y, 0);
    mpz_t v;
    mpz_init_set_str(v, json_string_value(y), 10);
    mpz_add_ui(v, v, 1);
    char *s = mpz_get_str(NULL, 10, v);
    json_string_set(y, s);
    free(s);
    mpz_clear(v);
}

/* The first IC point that is not at infinity (z = "1"), and its index. */
static size_t finite_ic_index;
static json_t *finite_ic(json_t *vk)
{
    json_t *ic = json_object_get(vk, "IC");
    for (size_t i = 0; i < json_array_size(ic); i++) {
        const char *z = json_string_value(json_array_get(json_array_get(ic, i), 2));
        if (z && strcmp(z, "1") == 0) {
            finite_ic_index = i;
            return json_array_get(ic, i);
        }
    }
    CHECK(!"a key with every IC point at infinity");
    return NULL;
}

static void alpha_off_curve(json_t *vk) { bump_y(json_object_get(vk, "vk_alpha_1")); }
static void delta_off_curve(json_t *vk) { bump_y(json_object_get(vk, "vk_delta_2")); }
static void ic_off_curve(json_t *vk) { bump_y(finite_ic(vk)); }
static void call_it_bn128(json_t *vk) { json_object_set_new(vk, "curve", json_string("bn128")); }
static void call_it_bls(json_t *vk) { json_object_set_new(vk, "curve", json_string("bls12381")); }
static void unknown_curve(json_t *vk) { json_object_set_new(vk, "curve", json_string("bn254x")); }
static void plonk(json_t *vk) { json_object_set_new(vk, "protocol", json_string("plonk")); }
static void one_ic_more(json_t *vk)
{
    json_t *ic = json_object_get(vk, "IC");
    json_array_append(ic, json_array_get(ic, 0));
}
static void no_npublic(json_t *vk) { json_object_del(vk, "nPublic"); }
static json_t *bn254_twist_json(void)
{
    return json_pack("[[ss][ss][ss]]", bn254_twist_point[0], bn254_twist_point[1],
                     bn254_twist_point[2], bn254_twist_point[3], "1", "0");
}
static json_t *bls12_381_g1_json(void)
{
    return json_pack("[sss]", bls12_381_g1_point[0], bls12_381_g1_point[1], "1");
}
/* alpha, beta, gamma or delta at infinity, as snarkjs writes it (z = 0),
 * or alpha as [0, 0], the affine form of infinity: a degenerate key that
 * accepts forged proofs.  An IC point at infinity is legitimate (some
 * fixtures' keys have one: a public signal no constraint uses) and stays
 * accepted, by expect_canonical on every fixture. */
static json_t *g2_infinity(void)
{
    return json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0");
}
static void alpha_at_infinity(json_t *vk)
{
    json_object_set_new(vk, "vk_alpha_1", json_pack("[sss]", "0", "1", "0"));
}
static void alpha_zero_affine(json_t *vk)
{
    json_object_set_new(vk, "vk_alpha_1", json_pack("[ss]", "0", "0"));
}
static void beta_at_infinity(json_t *vk) { json_object_set_new(vk, "vk_beta_2", g2_infinity()); }
static void gamma_at_infinity(json_t *vk) { json_object_set_new(vk, "vk_gamma_2", g2_infinity()); }
static void delta_at_infinity(json_t *vk) { json_object_set_new(vk, "vk_delta_2", g2_infinity()); }

/* The edited key is refused by g16_verify_json and g16_verify_batch_json
 * too, as malformed (-1), the message naming the field. */
static void expect_verify_refused(const fixture *f, const char *what, edit_fn edit,
                                  const char *want)
{
    char err[512] = "", *text = edited(f->vk, edit);
    const char *pubs[1] = {f->pub}, *proofs[1] = {f->proof};
    int valid[1] = {7}, rc = test_verdict(text, f->pub, f->proof, err, sizeof err);
    if (rc != -1 || !strstr(err, want))
        fprintf(stderr, "%s: %s: verify gave %d \"%s\", want -1 \"%s\"\n", f->dir, what, rc, err,
                want);
    CHECK(rc == -1 && strstr(err, want) != NULL);
    rc = g16_verify_batch_json(text, 1, pubs, proofs, valid, err, sizeof err);
    CHECK(rc == G16_ERR_FORMAT && strstr(err, want) != NULL);
    free(text);
}

static void test_infinity(const fixture *f)
{
    static const struct {
        const char *what;
        edit_fn edit;
        const char *want;
    } cases[] = {
        {"alpha at infinity", alpha_at_infinity, "vk_alpha_1 is the point at infinity"},
        {"alpha as [0, 0]", alpha_zero_affine, "vk_alpha_1 is the point at infinity"},
        {"beta at infinity", beta_at_infinity, "vk_beta_2 is the point at infinity"},
        {"gamma at infinity", gamma_at_infinity, "vk_gamma_2 is the point at infinity"},
        {"delta at infinity", delta_at_infinity, "vk_delta_2 is the point at infinity"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expect_refused(f, cases[i].what, cases[i].edit, cases[i].want);
        expect_verify_refused(f, cases[i].what, cases[i].edit, cases[i].want);
    }
}

static void beta_outside_g2(json_t *vk)
{
    json_object_set_new(vk, "vk_beta_2", bn254_twist_json());
}
static void ic_outside_g1(json_t *vk)
{
    json_array_set_new(json_object_get(vk, "IC"), 0, bls12_381_g1_json());
}

/* The base field modulus of the fixture's curve. */
static const char *field_modulus(const char *curve)
{
    return strcmp(curve, "bn128") == 0
               ? "21888242871839275222246405745257275088696311157297823662689037894645226208583"
               : "40024095552216673934177898257359041565568828199390078853320581361240316504908"
                 "37864442687629129015664037894272559787";
}

/* The key with vk_alpha_1 given as [x z^2, y z^3, z] (Jacobian, z = 7)
 * and IC[k], the first finite IC point, as [x, y]: the canonical text has
 * both back as [x, y, "1"]. */
static char *other_forms(const fixture *f)
{
    json_t *vk = json_loads(f->vk, 0, NULL), *p = json_object_get(vk, "vk_alpha_1");
    mpz_t q, x, y, z2;
    mpz_inits(q, x, y, z2, NULL);
    CHECK(mpz_set_str(q, field_modulus(f->curve), 10) == 0);
    mpz_set_str(x, json_string_value(json_array_get(p, 0)), 10);
    mpz_set_str(y, json_string_value(json_array_get(p, 1)), 10);
    mpz_set_ui(z2, 49);
    mpz_mul(x, x, z2);
    mpz_mul(y, y, z2);
    mpz_mul_ui(y, y, 7);
    mpz_mod(x, x, q);
    mpz_mod(y, y, q);
    char *sx = mpz_get_str(NULL, 10, x), *sy = mpz_get_str(NULL, 10, y);
    json_object_set_new(vk, "vk_alpha_1", json_pack("[sss]", sx, sy, "7"));
    json_array_remove(finite_ic(vk), 2);
    char *text = json_dumps(vk, JSON_PRESERVE_ORDER);
    free(sx);
    free(sy);
    mpz_clears(q, x, y, z2, NULL);
    json_decref(vk);
    return text;
}

/* The key is accepted, info says its curve and nPublic, and the canonical
 * text equals the fixture's key as JSON values and verifies its proof. */
static void expect_canonical(const fixture *f, const char *what, const char *text, size_t len)
{
    char err[512] = "", *canonical = NULL;
    g16_vk_info info = {0};
    int rc = g16_vk_check_json(text, len, NAME, &info, &canonical, err, sizeof err);
    if (rc) fprintf(stderr, "%s: %s: refused: %s\n", f->dir, what, err);
    CHECK(rc == G16_OK && canonical != NULL);
    if (rc || !canonical) return;
    json_t *want = json_loads(f->vk, 0, NULL), *got = json_loads(canonical, 0, NULL);
    CHECK(got && json_equal(want, got));
    CHECK(info.curve && strcmp(info.curve, f->curve) == 0);
    CHECK(info.n_public == (size_t)json_integer_value(json_object_get(want, "nPublic")));
    CHECK(test_verdict(canonical, f->pub, f->proof, err, sizeof err) == 1);
    json_decref(want);
    json_decref(got);
    free(canonical);
}

static void test_fixture(const fixture *f)
{
    int bn = strcmp(f->curve, "bn128") == 0;
    expect_canonical(f, "the fixture's key", f->vk, strlen(f->vk));
    /* len is honoured: what follows the key is not read */
    size_t n = strlen(f->vk);
    char *padded = malloc(n + 8);
    memcpy(padded, f->vk, n);
    memcpy(padded + n, "garbage", 8);
    expect_canonical(f, "a key followed by other bytes", padded, n);
    free(padded);
    char *forms = other_forms(f);
    expect_canonical(f, "alpha in Jacobian form, an IC point as [x, y]", forms, strlen(forms));
    free(forms);

    /* info and canonical are optional */
    char err[512] = "";
    CHECK(g16_vk_check_json(f->vk, strlen(f->vk), NULL, NULL, NULL, err, sizeof err) == G16_OK);

    expect_refused(f, "alpha off the curve", alpha_off_curve, "vk_alpha_1 is not on the curve");
    expect_refused(f, "delta off the curve", delta_off_curve, "vk_delta_2 is not on the curve");
    char want[64];
    json_t *vk = json_loads(f->vk, 0, NULL);
    finite_ic(vk); /* sets finite_ic_index */
    json_decref(vk);
    snprintf(want, sizeof want, "IC[%zu] is not on the curve", finite_ic_index);
    expect_refused(f, "an IC point off the curve", ic_off_curve, want);
    if (bn)
        expect_refused(f, "called bls12381", call_it_bls, "is not on the curve");
    else
        expect_refused(f, "called bn128", call_it_bn128,
                       "vk_alpha_1[0] is not a decimal string below the field modulus");
    expect_refused(f, "unknown curve", unknown_curve, "unknown curve \"bn254x\"");
    expect_refused(f, "plonk", plonk, "protocol \"plonk\" is not groth16");
    expect_refused(f, "IC count", one_ic_more, "\"IC\" does not hold nPublic + 1");
    expect_refused(f, "no nPublic", no_npublic, "missing \"nPublic\"");
    test_infinity(f);
    if (bn)
        expect_refused(f, "beta outside G2", beta_outside_g2,
                       "vk_beta_2 is not in the order-r subgroup");
    else
        expect_refused(f, "IC[0] outside G1", ic_outside_g1,
                       "IC[0] is not in the order-r subgroup");
}

/* Truncated or absent text, and the message's default name. */
static void test_text(const fixture *f)
{
    char err[512] = "";
    int rc = g16_vk_check_json(f->vk, strlen(f->vk) / 2, NAME, NULL, NULL, err, sizeof err);
    CHECK(rc == G16_ERR_FORMAT && strstr(err, NAME ": invalid JSON") == err);
    CHECK(strchr(err, '\n') == NULL);
    rc = g16_vk_check_json("[1, 2]", 6, NULL, NULL, NULL, err, sizeof err);
    CHECK(rc == G16_ERR_FORMAT && strcmp(err, "verification key: expected a JSON object") == 0);
    CHECK(g16_vk_check_json(NULL, 0, NAME, NULL, NULL, err, sizeof err) == G16_ERR_ARG);
}

/* The hard-coded points are on their curves and outside the subgroups:
 * the verifier calls them so in a proof. */
/* The hard-coded points are on their curves and outside the subgroups:
 * the verifier calls them so in a proof. */
static void expect_proof_point_outside(const fixture *f, const char *key, json_t *point)
{
    char err[512] = "";
    json_t *proof = json_loads(f->proof, 0, NULL);
    json_object_set_new(proof, key, point);
    char *text = json_dumps(proof, 0);
    CHECK(test_verdict(f->vk, f->pub, text, err, sizeof err) == 0);
    CHECK(strstr(err, "is not in the order-r subgroup") != NULL);
    free(text);
    json_decref(proof);
}

/* Every fixture of curve with the three files; the number read. */
static size_t read_fixtures(const char *curve, fixture *fx, size_t max)
{
    char dir[2048];
    size_t n = 0;
    snprintf(dir, sizeof dir, "%s/%s", G16_FIXTURES, curve);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    for (struct dirent *e; d && (e = readdir(d)) && n < max;) {
        fixture *f = &fx[n];
        if (e->d_name[0] == '.') continue;
        snprintf(f->dir, sizeof f->dir, "%.2047s/%.255s", dir, e->d_name);
        f->curve = curve;
        if (!(f->vk = read_text(f->dir, "verification_key.json"))) continue;
        f->pub = read_text(f->dir, "public.json");
        f->proof = read_text(f->dir, "proof.json");
        n++;
    }
    if (d) closedir(d);
    return n;
}

int main(void)
{
    static fixture fx[64];
    size_t n_bn = read_fixtures("bn128", fx, 32);
    size_t n = n_bn + read_fixtures("bls12381", fx + n_bn, 32);
    CHECK(n_bn > 0 && n > n_bn);
    for (size_t i = 0; i < n; i++)
        if (!fx[i].pub || !fx[i].proof) return test_finish("vk_check");
    if (n_bn > 0 && n > n_bn) {
        expect_proof_point_outside(&fx[0], "pi_b", bn254_twist_json());
        expect_proof_point_outside(&fx[n_bn], "pi_a", bls12_381_g1_json());
    }
    for (size_t i = 0; i < n; i++) test_fixture(&fx[i]);
    if (n) test_text(&fx[0]);
    printf("vk_check: %zu keys\n", n);
    for (size_t i = 0; i < n; i++) {
        free(fx[i].vk);
        free(fx[i].pub);
        free(fx[i].proof);
    }
    return test_finish("vk_check");
}
