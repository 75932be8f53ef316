/* Every fixture parses, and its header numbers are what snarkjs 0.7.6
 * reports (`snarkjs r1cs info`, `zkey export json`, `wtns export json`,
 * run when this test was written) and what fixtures/README.md lists. */
#include <string.h>
#include "formats/formats.h"
#include "test_util.h"

typedef struct {
    const char *curve, *circuit;
    formats_curve id;
    uint32_t constraints, wires, n_public; /* README table */
    uint32_t outputs, pub_in, prv_in;      /* snarkjs r1cs info */
    uint64_t labels;
    uint32_t domain, log2_domain, n_coefs; /* snarkjs zkey export json */
    uint64_t w1;                           /* witness[1] (fits in u64) */
} fixture;

static const fixture fixtures[] = {
    {"bn128", "multiplier", FORMATS_CURVE_BN128, 1, 4, 1, 1, 0, 2, 4, 4, 2, 4, 33},
    {"bn128", "chain", FORMATS_CURVE_BN128, 4000, 4002, 1, 1, 0, 1, 4003, 4096, 12, 8002, 0},
    {"bn128", "merkle", FORMATS_CURVE_BN128, 10400, 10422, 2, 0, 2, 40, 15544, 16384, 14, 9903,
     123456789},
    {"bn128", "sha256", FORMATS_CURVE_BN128, 31266, 31211, 2, 2, 0, 256, 205037, 32768, 15, 95016,
     0},
    {"bn128", "pubmany", FORMATS_CURVE_BN128, 11, 18, 11, 6, 5, 1, 19, 32, 5, 24,
     12345678901234567890ull},
    {"bls12381", "multiplier", FORMATS_CURVE_BLS12381, 1, 4, 1, 1, 0, 2, 4, 4, 2, 4, 33},
    {"bls12381", "chain", FORMATS_CURVE_BLS12381, 4000, 4002, 1, 1, 0, 1, 4003, 4096, 12, 8002, 0},
    {"bls12381", "pubmany", FORMATS_CURVE_BLS12381, 11, 18, 11, 6, 5, 1, 19, 32, 5, 24,
     12345678901234567890ull},
};

/* 1 if [p, p+n) lies inside the mapping. */
static int inside(const formats_mapping *m, const uint8_t *p, uint64_t n)
{
    const uint8_t *b = m->addr;
    return p >= b && p <= b + m->len && n <= (uint64_t)(b + m->len - p);
}

static void check_zkey_points(const zkey *z)
{
    uint64_t g1 = 2ull * z->n8q, g2 = 4ull * z->n8q;
    CHECK(inside(&z->map, z->alpha1, g1) && inside(&z->map, z->delta2, g2), "vk points");
    CHECK(inside(&z->map, z->ic, g1 * (z->n_public + 1)), "ic");
    CHECK(inside(&z->map, z->a_points, g1 * z->n_vars), "A");
    CHECK(inside(&z->map, z->b1_points, g1 * z->n_vars), "B1");
    CHECK(inside(&z->map, z->b2_points, g2 * z->n_vars), "B2");
    CHECK(inside(&z->map, z->c_points, g1 * (z->n_vars - z->n_public - 1)), "C");
    CHECK(inside(&z->map, z->h_points, g1 * z->domain_size), "H");
    CHECK(inside(&z->map, z->coefs, (uint64_t)z->n_coefs * (12 + z->n8r)), "coefs");
}

static void check_zkey(const fixture *f)
{
    char err[256];
    zkey z;
    const char *path = test_fixture(f->curve, f->circuit, "circuit.zkey");
    int rc = zkey_open(path, &z, err, sizeof err);
    CHECK(rc == 0, "%s: %s", path, err);
    if (rc) return;
    CHECK(z.protocol == ZKEY_PROTOCOL_GROTH16, "%s", path);
    CHECK(z.curve == f->id, "%s curve %d", path, z.curve);
    CHECK(z.n8q == (f->id == FORMATS_CURVE_BN128 ? 32u : 48u), "%s", path);
    CHECK(z.n8r == 32, "%s", path);
    CHECK(z.n_vars == f->wires, "%s nVars %u", path, z.n_vars);
    CHECK(z.n_public == f->n_public, "%s nPublic %u", path, z.n_public);
    CHECK(z.domain_size == f->domain && z.log2_domain == f->log2_domain, "%s domain %u", path,
          z.domain_size);
    CHECK(z.n_coefs == f->n_coefs, "%s nCoefs %u", path, z.n_coefs);
    CHECK(z.file.version == 1 && z.file.n_sections == 10, "%s", path);
    check_zkey_points(&z);
    zkey_close(&z);
    CHECK(z.map.addr == NULL, "close clears");
}

static void check_wtns(const fixture *f)
{
    char err[256];
    wtns w;
    const char *path = test_fixture(f->curve, f->circuit, "witness.wtns");
    int rc = wtns_open(path, &w, err, sizeof err);
    CHECK(rc == 0, "%s: %s", path, err);
    if (rc) return;
    CHECK(w.version == 2 && w.n8 == 32, "%s", path);
    CHECK(w.curve == f->id, "%s curve", path);
    CHECK(formats_field_of_prime(w.prime, w.n8) == formats_scalar_field(f->id), "%s prime is r",
          path);
    CHECK(w.n_witness == f->wires, "%s nWitness %u", path, w.n_witness);
    CHECK(formats_u64le(w.values) == 1 && formats_u64le(w.values + 8) == 0, "%s witness[0] == 1",
          path);
    if (f->w1) {
        const uint8_t *v = w.values + w.n8;
        CHECK(formats_u64le(v) == f->w1 && formats_u64le(v + 8) == 0 &&
                  formats_u64le(v + 16) == 0 && formats_u64le(v + 24) == 0,
              "%s witness[1]", path);
    }
    wtns_close(&w);
}

/* Walks every constraint with the iterator; checks it ends exactly. */
static void check_r1cs_walk(const r1cs *r, const char *path)
{
    r1cs_iter it;
    r1cs_lc lc[3];
    uint32_t n = 0;
    int rc;
    r1cs_iter_init(&it, r);
    while ((rc = r1cs_iter_next(&it, lc)) == 1) {
        for (int k = 0; k < 3; k++)
            for (uint32_t t = 0; t < lc[k].n_terms; t++)
                if (r1cs_term_wire(r, &lc[k], t) >= r->n_wires)
                    CHECK(0, "%s: wire out of range", path);
        n++;
    }
    CHECK(rc == 0 && n == r->n_constraints && it.pos == r->size, "%s walked %u constraints", path,
          n);
}

static void check_r1cs(const fixture *f)
{
    char err[256];
    r1cs r;
    const char *path = test_fixture(f->curve, f->circuit, "circuit.r1cs");
    int rc = r1cs_open(path, &r, err, sizeof err);
    CHECK(rc == 0, "%s: %s", path, err);
    if (rc) return;
    CHECK(r.curve == f->id && r.n8 == 32, "%s curve", path);
    CHECK(r.n_wires == f->wires, "%s wires %u", path, r.n_wires);
    CHECK(r.n_constraints == f->constraints, "%s constraints", path);
    CHECK(r.n_pub_out == f->outputs && r.n_pub_in == f->pub_in && r.n_prv_in == f->prv_in,
          "%s io %u %u %u", path, r.n_pub_out, r.n_pub_in, r.n_prv_in);
    CHECK(r.n_pub_out + r.n_pub_in == f->n_public, "%s public", path);
    CHECK(r.n_labels == f->labels, "%s labels", path);
    CHECK(r.wire_labels != NULL, "%s has section 3", path);
    CHECK(!r.uses_custom_gates, "%s: no custom gates", path);
    check_r1cs_walk(&r, path);
    r1cs_close(&r);
}

static void check_multiplier_constraint(void)
{
    /* c <== a*b compiles to  (-a) * b = (-c)... the only certain facts:
     * one constraint, A and B have one term each, C one term. */
    char err[256];
    r1cs r;
    r1cs_lc lc[3];
    r1cs_iter it;
    const char *path = test_fixture("bn128", "multiplier", "circuit.r1cs");
    if (r1cs_open(path, &r, err, sizeof err)) {
        CHECK(0, "%s", err);
        return;
    }
    r1cs_iter_init(&it, &r);
    CHECK(r1cs_iter_next(&it, lc) == 1, "one constraint");
    CHECK(lc[0].n_terms == 1 && lc[1].n_terms == 1 && lc[2].n_terms == 1, "terms %u %u %u",
          lc[0].n_terms, lc[1].n_terms, lc[2].n_terms);
    CHECK(r1cs_iter_next(&it, lc) == 0, "then the end");
    r1cs_close(&r);
}

static void check_curves(void)
{
    uint32_t n8;
    const formats_field all[] = {FORMATS_FIELD_BN128_FR, FORMATS_FIELD_BN128_FQ,
                                 FORMATS_FIELD_BLS12381_FR, FORMATS_FIELD_BLS12381_FQ};
    for (size_t i = 0; i < 4; i++) {
        const uint8_t *p = formats_field_modulus(all[i], &n8);
        uint8_t tweak[64];
        CHECK(p && formats_field_of_prime(p, n8) == all[i], "field %zu", i);
        memcpy(tweak, p, n8);
        tweak[0] ^= 2; /* p +- 2: no longer a known modulus */
        CHECK(formats_field_of_prime(tweak, n8) == FORMATS_FIELD_UNKNOWN, "tweaked %zu", i);
        CHECK(formats_curve_of_prime(p, n8 + 8) == FORMATS_CURVE_UNKNOWN, "size matters");
    }
    CHECK(!strcmp(formats_curve_name(FORMATS_CURVE_BN128), "bn128"), "name");
    CHECK(!strcmp(formats_curve_name(FORMATS_CURVE_BLS12381), "bls12381"), "name");
    CHECK(!strcmp(formats_curve_name(FORMATS_CURVE_UNKNOWN), "unknown"), "name");
    CHECK(formats_field_modulus(FORMATS_FIELD_BLS12381_FQ, &n8) && n8 == 48, "bls q is 48 bytes");
}

/* The three files of one circuit agree on the field and the sizes. */
static void check_consistency(const fixture *f)
{
    char err[256];
    zkey z;
    wtns w;
    r1cs r;
    if (zkey_open(test_fixture(f->curve, f->circuit, "circuit.zkey"), &z, err, sizeof err) ||
        wtns_open(test_fixture(f->curve, f->circuit, "witness.wtns"), &w, err, sizeof err) ||
        r1cs_open(test_fixture(f->curve, f->circuit, "circuit.r1cs"), &r, err, sizeof err)) {
        CHECK(0, "%s", err);
        return;
    }
    CHECK(!memcmp(z.r, w.prime, 32) && !memcmp(z.r, r.prime, 32), "%s primes", f->circuit);
    CHECK(z.domain_size >= r.n_constraints + z.n_public + 1, "%s domain", f->circuit);
    zkey_close(&z);
    wtns_close(&w);
    r1cs_close(&r);
}

void test_group_fixtures(void)
{
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        check_zkey(&fixtures[i]);
        check_wtns(&fixtures[i]);
        check_r1cs(&fixtures[i]);
        check_consistency(&fixtures[i]);
    }
    check_multiplier_constraint();
    check_curves();
}
