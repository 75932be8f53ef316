/* One-party Groth16 setup: the curve-independent part (input checks, the
 * domain size rule, output stream, randomness).  The arithmetic lives in
 * setup_curve_template.h, stamped out per curve in setup_curves.c. */
#include "setup/setup_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/parallel.h"
#include "util/random.h"

#define SETUP_BUF (1u << 22)

int setup_fail(setup_ctx *c, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(c->err, c->errlen, "%s: ", c->zkey_path);
    if (n >= 0 && (size_t)n < c->errlen) {
        va_start(ap, fmt);
        vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void setup_phase(setup_ctx *c, const char *what)
{
    if (c->opt->verbose) fprintf(stderr, "setup: %-28s %8.3f s\n", what, now_s() - c->t0);
}

static int flush_out(setup_ctx *c)
{
    if (c->used && atomic_file_write(&c->out, c->buf, c->used, c->err, c->errlen)) return -1;
    c->used = 0;
    return 0;
}

static int put_raw(setup_ctx *c, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n > 0) {
        if (c->used == SETUP_BUF && flush_out(c)) return -1;
        size_t k = SETUP_BUF - c->used < n ? SETUP_BUF - c->used : n;
        memcpy(c->buf + c->used, b, k);
        c->used += k;
        b += k;
        n -= k;
    }
    return 0;
}

int setup_put(setup_ctx *c, const void *p, size_t n)
{
    if (c->hashing) blake2b_update(&c->hash, p, n);
    return put_raw(c, p, n);
}

int setup_section(setup_ctx *c, uint32_t id, uint64_t size)
{
    uint8_t h[12];
    for (int i = 0; i < 4; i++) h[i] = (uint8_t)(id >> (8 * i));
    for (int i = 0; i < 8; i++) h[4 + i] = (uint8_t)(size >> (8 * i));
    return put_raw(c, h, sizeof h);
}

void setup_hash_count(setup_ctx *c, uint32_t n)
{
    uint8_t be[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    blake2b_update(&c->hash, be, 4);
}

/* Seeded: BLAKE2b-256(domain tag, seed, label, counter), so each value is
 * independent of the others and of the circuit.  Otherwise the kernel's
 * CSPRNG. */
int setup_draw(setup_ctx *c, const char *label, uint32_t counter, uint8_t out[32])
{
    if (c->opt->seeded) {
        static const char tag[] = "g16 setup --insecure-dev seed";
        uint8_t num[12];
        for (int i = 0; i < 8; i++) num[i] = (uint8_t)(c->opt->seed >> (8 * i));
        for (int i = 0; i < 4; i++) num[8 + i] = (uint8_t)(counter >> (8 * i));
        blake2b_state s;
        blake2b_init(&s, 32);
        blake2b_update(&s, tag, sizeof tag);
        blake2b_update(&s, num, sizeof num);
        blake2b_update(&s, label, strlen(label) + 1);
        blake2b_final(&s, out);
        return 0;
    }
    if (util_random(out, 32)) return setup_fail(c, "getrandom: %s", strerror(errno));
    return 0;
}

/* snarkjs: cirPower = log2(nConstraints + nPublic) + 1 with log2 = floor,
 * so the domain always has room for the nPublic + 1 rows it appends. */
static uint32_t domain_power(uint64_t rows)
{
    uint32_t p = 0;
    while (rows >> (p + 1)) p++;
    return p + 1;
}

/* Counts the coefficient entries (A and B terms) and sanity-checks the
 * header; sets the derived sizes in c.  A g16_status. */
static int examine_r1cs(setup_ctx *c)
{
    r1cs *r = &c->r;
    if (r->curve != FORMATS_CURVE_BN128 && r->curve != FORMATS_CURVE_BLS12381) {
        snprintf(c->err, c->errlen, "%s: field is not the scalar field of bn128 or bls12381",
                 c->r1cs_path);
        return G16_ERR_UNSUPPORTED;
    }
    if (r->uses_custom_gates) {
        snprintf(c->err, c->errlen,
                 "%s: uses custom gates, which Groth16 cannot prove (PLONK only)", c->r1cs_path);
        return G16_ERR_UNSUPPORTED;
    }
    uint64_t n_public = (uint64_t)r->n_pub_out + r->n_pub_in;
    if (n_public + 1 > r->n_wires) {
        snprintf(c->err, c->errlen, "%s: %llu public signals but only %u wires", c->r1cs_path,
                 (unsigned long long)n_public, r->n_wires);
        return G16_ERR_FORMAT;
    }
    c->n_vars = r->n_wires;
    c->n_public = (uint32_t)n_public;
    c->n_constraints = r->n_constraints;
    c->log_domain = domain_power((uint64_t)r->n_constraints + n_public);
    uint32_t two_adicity = r->curve == FORMATS_CURVE_BN128 ? 28 : 32;
    if (c->log_domain + 1 > two_adicity || c->log_domain > 30) {
        snprintf(c->err, c->errlen,
                 "%s: circuit too big: domain 2^%u exceeds what the curve supports", c->r1cs_path,
                 c->log_domain);
        return G16_ERR_TOO_LARGE;
    }
    c->domain = 1u << c->log_domain;
    uint64_t coefs = n_public + 1;
    r1cs_iter it;
    r1cs_lc lc[3];
    r1cs_iter_init(&it, r);
    while (r1cs_iter_next(&it, lc) == 1) coefs += (uint64_t)lc[0].n_terms + lc[1].n_terms;
    if (coefs > UINT32_MAX) {
        snprintf(c->err, c->errlen, "%s: too many coefficients for a zkey (%llu)", c->r1cs_path,
                 (unsigned long long)coefs);
        return G16_ERR_TOO_LARGE;
    }
    c->n_coefs = (uint32_t)coefs;
    return 0;
}

static int write_key(setup_ctx *c)
{
    if (atomic_file_open(&c->out, c->zkey_path, c->err, c->errlen)) return -1;
    uint8_t head[12] = {'z', 'k', 'e', 'y', 1, 0, 0, 0, 10, 0, 0, 0};
    int rc = put_raw(c, head, sizeof head);
    if (!rc) rc = c->r.curve == FORMATS_CURVE_BN128 ? setup_run_bn254(c) : setup_run_bls12_381(c);
    if (!rc) rc = flush_out(c);
    if (!rc) rc = atomic_file_commit(&c->out, c->err, c->errlen);
    if (rc) atomic_file_abort(&c->out);
    return rc;
}

int setup_write_zkey_r1cs(const r1cs *r, const char *r1cs_name, const char *zkey_path,
                          const setup_options *opt, char *err, size_t errlen)
{
    setup_ctx c;
    memset(&c, 0, sizeof c);
    c.r1cs_path = r1cs_name;
    c.zkey_path = zkey_path;
    c.opt = opt;
    c.err = err;
    c.errlen = errlen;
    c.t0 = now_s();
    c.threads = parallel_threads_for(opt->threads, 1u << 30);
    c.r = *r; /* a copy of the view: the caller keeps and closes r */
    int rc = examine_r1cs(&c);
    if (!rc) {
        c.buf = malloc(SETUP_BUF);
        rc = !c.buf          ? (setup_fail(&c, "out of memory"), G16_ERR_NOMEM)
             : write_key(&c) ? G16_ERR_IO
                             : G16_OK;
    }
    free(c.buf);
    setup_phase(&c, "done");
    return rc;
}

int setup_write_zkey(const char *r1cs_path, const char *zkey_path, const setup_options *opt,
                     char *err, size_t errlen)
{
    r1cs r;
    int rc = r1cs_open(r1cs_path, &r, err, errlen);
    if (rc) return rc;
    rc = setup_write_zkey_r1cs(&r, r1cs_path, zkey_path, opt, err, errlen);
    r1cs_close(&r);
    return rc;
}

g16_status g16_setup_insecure_dev(const char *r1cs_path, const char *zkey_path,
                                  const g16_setup_options *opt, char *err, size_t errlen)
{
    return setup_write_zkey(r1cs_path, zkey_path, opt, err, errlen);
}
