/* Synthetic circuit generator: one pass that defines one wire per
 * constraint, computes its witness value, and streams the constraint out.
 * See synth.h for the contract. */
#define _GNU_SOURCE /* memfd_create */
#include "synth/synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "synth/fr_ops.h"

/* ---- deterministic randomness ---------------------------------------- */

/* xoshiro256** seeded through splitmix64: fast, and the stream is fixed by
 * the seed on every platform, which is what makes the files reproducible. */
typedef struct {
    uint64_t s[4];
} synth_rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rng_seed(synth_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(synth_rng *r)
{
    uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

static uint32_t rng_below(synth_rng *r, uint32_t n)
{
    return (uint32_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

/* Uniform field element by rejection; the limbs are taken directly as the
 * Montgomery representation, which is exactly as uniform. */
static void rng_field(synth_rng *r, const fr_ops *f, fr_t *out)
{
    uint64_t top_mask = (1ULL << (f->bits % 64)) - 1;
    do {
        for (int i = 0; i < 4; i++) out->v[i] = rng_next(r);
        out->v[3] &= top_mask;
    } while (!f->is_canonical(out));
}

/* ---- buffered, atomic output ----------------------------------------- */

#define OUT_BUF (1u << 20)

typedef struct {
    atomic_file file;
    uint8_t *buf;
    size_t used;
    uint64_t written; /* bytes handed to out_put since open */
} out_stream;

static int out_flush(out_stream *o, char *err, size_t errlen)
{
    if (o->used && atomic_file_write(&o->file, o->buf, o->used, err, errlen)) return -1;
    o->used = 0;
    return 0;
}

static int out_put(out_stream *o, const void *p, size_t n, char *err, size_t errlen)
{
    if (o->used + n > OUT_BUF && out_flush(o, err, errlen)) return -1;
    memcpy(o->buf + o->used, p, n);
    o->used += n;
    o->written += n;
    return 0;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    put_u32(p, (uint32_t)v);
    put_u32(p + 4, (uint32_t)(v >> 32));
}

/* ---- rows --------------------------------------------------------------- */

#define RING      256 /* recent wires operands are drawn from: locality */
#define MAX_TERMS 20

typedef struct {
    uint32_t wire[RING];
    uint32_t count, head;
} wire_ring;
typedef struct {
    uint32_t wire;
    fr_t coef;
} term;
typedef struct {
    term t[MAX_TERMS];
    uint32_t n;
} lc;
typedef struct {
    lc a, b, c;
    fr_t value;
    int is_bit;
} row;

typedef struct {
    const fr_ops *f;
    synth_rng rng;
    fr_t *w;               /* witness, Montgomery form */
    uint32_t next;         /* the wire the current row defines */
    wire_ring bits, fulls; /* recent boolean / full-width wires */
    fr_t minus_one, two;
    out_stream out;
} gen;

static void ring_push(wire_ring *r, uint32_t wire)
{
    r->wire[r->head] = wire;
    r->head = (r->head + 1) % RING;
    if (r->count < RING) r->count++;
}

/* The k-th most recent entry (k < count). */
static uint32_t ring_recent(const wire_ring *r, uint32_t k)
{
    return r->wire[(r->head + RING - 1 - k) % RING];
}

static void lc_add(lc *l, uint32_t wire, const fr_t *coef)
{
    l->t[l->n].wire = wire;
    l->t[l->n].coef = *coef;
    l->n++;
}

/* b * (b - 1) = 0, with b a fresh random bit. */
static void row_bool(gen *g, row *r)
{
    fr_t zero = {{0}};
    r->value = (rng_next(&g->rng) >> 63) ? g->f->one : zero;
    r->is_bit = 1;
    lc_add(&r->a, g->next, &g->f->one);
    lc_add(&r->b, 0, &g->minus_one);
    lc_add(&r->b, g->next, &g->f->one);
}

/* c = x AND y = x * y over two recent bits. */
static void row_and(gen *g, row *r)
{
    uint32_t x = ring_recent(&g->bits, rng_below(&g->rng, g->bits.count));
    uint32_t y = ring_recent(&g->bits, rng_below(&g->rng, g->bits.count));
    g->f->mul(&r->value, &g->w[x], &g->w[y]);
    r->is_bit = 1;
    lc_add(&r->a, x, &g->f->one);
    lc_add(&r->b, y, &g->f->one);
    lc_add(&r->c, g->next, &g->f->one);
}

/* c = x XOR y: (2x) * y = x + y - c, with x != y (needs two bits). */
static void row_xor(gen *g, row *r)
{
    uint32_t i = rng_below(&g->rng, g->bits.count);
    uint32_t j = (i + 1 + rng_below(&g->rng, g->bits.count - 1)) % g->bits.count;
    uint32_t x = ring_recent(&g->bits, i), y = ring_recent(&g->bits, j);
    fr_t xy, s;
    g->f->mul(&xy, &g->w[x], &g->w[y]);
    g->f->add(&s, &g->w[x], &g->w[y]);
    g->f->sub(&s, &s, &xy);
    g->f->sub(&r->value, &s, &xy);
    r->is_bit = 1;
    lc_add(&r->a, x, &g->two);
    lc_add(&r->b, y, &g->f->one);
    lc_add(&r->c, x < y ? x : y, &g->f->one);
    lc_add(&r->c, x < y ? y : x, &g->f->one);
    lc_add(&r->c, g->next, &g->minus_one);
}

/* 0 * 0 = sum 2^k bit_k - c: packing recent bits into a number, a linear
 * row as circom writes them (A and B empty).  Bits come out in push order,
 * so the wires are ascending. */
static void row_pack(gen *g, row *r)
{
    uint32_t m = 2 + rng_below(&g->rng, (g->bits.count < 16 ? g->bits.count : 16) - 1);
    uint32_t start = rng_below(&g->rng, g->bits.count - m + 1) + m - 1;
    fr_t weight = g->f->one, sum = {{0}}, t;
    for (uint32_t k = 0; k < m; k++) {
        uint32_t bit = ring_recent(&g->bits, start - k);
        lc_add(&r->c, bit, &weight);
        g->f->mul(&t, &weight, &g->w[bit]);
        g->f->add(&sum, &sum, &t);
        g->f->add(&weight, &weight, &weight);
    }
    lc_add(&r->c, g->next, &g->minus_one);
    r->value = sum;
}

/* c = (x + k*y) * (z + k2): a full-width product of linear combinations
 * with random coefficients. */
static void row_mul(gen *g, row *r)
{
    uint32_t x = ring_recent(&g->fulls, rng_below(&g->rng, g->fulls.count));
    uint32_t y = ring_recent(&g->fulls, rng_below(&g->rng, g->fulls.count));
    uint32_t z = ring_recent(&g->fulls, rng_below(&g->rng, g->fulls.count));
    fr_t k, k2, left, right;
    rng_field(&g->rng, g->f, &k);
    rng_field(&g->rng, g->f, &k2);
    g->f->mul(&left, &k, &g->w[y]);
    g->f->add(&left, &left, &g->w[x]);
    g->f->add(&right, &g->w[z], &k2);
    g->f->mul(&r->value, &left, &right);
    if (x == y) {
        fr_t c;
        g->f->add(&c, &k, &g->f->one);
        lc_add(&r->a, x, &c);
    } else if (x < y) {
        lc_add(&r->a, x, &g->f->one);
        lc_add(&r->a, y, &k);
    } else {
        lc_add(&r->a, y, &k);
        lc_add(&r->a, x, &g->f->one);
    }
    lc_add(&r->b, 0, &k2);
    lc_add(&r->b, z, &g->f->one);
    lc_add(&r->c, g->next, &g->f->one);
}

/* The mix of a hash-like circuit: mostly bit work, some arithmetic.  A
 * kind whose operands do not exist yet falls back to a boolean row. */
static void make_row(gen *g, row *r)
{
    uint32_t roll = rng_below(&g->rng, 100);
    memset(r, 0, sizeof *r);
    if (roll < 35 || g->bits.count < 2)
        row_bool(g, r);
    else if (roll < 55)
        row_and(g, r);
    else if (roll < 70)
        row_xor(g, r);
    else if (roll < 80)
        row_pack(g, r);
    else if (g->fulls.count > 0)
        row_mul(g, r);
    else
        row_pack(g, r);
}

static int write_lc(gen *g, const lc *l, char *err, size_t errlen)
{
    uint8_t buf[4 + MAX_TERMS * 36];
    put_u32(buf, l->n);
    for (uint32_t i = 0; i < l->n; i++) {
        put_u32(buf + 4 + 36 * i, l->t[i].wire);
        g->f->to_bytes(buf + 8 + 36 * i, &l->t[i].coef);
    }
    return out_put(&g->out, buf, 4 + 36 * (size_t)l->n, err, errlen);
}

/* ---- files --------------------------------------------------------------- */

#define R1CS_SEC2_SIZE_AT 92 /* 12 file header + 12 + 64 section 1, +4 id */

static int write_r1cs_header(gen *g, const synth_params *p, uint32_t n_wires, char *err,
                             size_t errlen)
{
    uint8_t h[100];
    memcpy(h, "r1cs", 4);
    put_u32(h + 4, 1);
    put_u32(h + 8, 3);
    put_u32(h + 12, 1);
    put_u64(h + 16, 64);
    put_u32(h + 24, 32);
    memcpy(h + 28, fr_modulus(g->f), 32);
    put_u32(h + 60, n_wires);
    put_u32(h + 64, 0);           /* outputs */
    put_u32(h + 68, p->n_public); /* public inputs */
    put_u32(h + 72, 0);           /* private inputs */
    put_u64(h + 76, n_wires);     /* labels */
    put_u32(h + 84, p->n_constraints);
    put_u32(h + 88, 2);
    put_u64(h + 92, 0); /* constraint bytes: patched at the end */
    return out_put(&g->out, h, sizeof h, err, errlen);
}

static int write_constraints(gen *g, const synth_params *p, char *err, size_t errlen)
{
    row r;
    for (uint32_t i = 0; i < p->n_constraints; i++, g->next++) {
        make_row(g, &r);
        if (write_lc(g, &r.a, err, errlen) || write_lc(g, &r.b, err, errlen) ||
            write_lc(g, &r.c, err, errlen))
            return -1;
        g->w[g->next] = r.value;
        ring_push(r.is_bit ? &g->bits : &g->fulls, g->next);
    }
    return 0;
}

/* Section 3: wire i has label i, as circom writes for an unoptimised map. */
static int write_labels(gen *g, uint32_t n_wires, char *err, size_t errlen)
{
    uint8_t b[12];
    put_u32(b, 3);
    put_u64(b + 4, 8ULL * n_wires);
    if (out_put(&g->out, b, 12, err, errlen)) return -1;
    for (uint32_t i = 0; i < n_wires; i++) {
        put_u64(b, i);
        if (out_put(&g->out, b, 8, err, errlen)) return -1;
    }
    return 0;
}

static int patch_section_size(gen *g, const char *path, uint64_t size, char *err, size_t errlen)
{
    uint8_t b[8];
    put_u64(b, size);
    if (pwrite(g->out.file.fd, b, 8, R1CS_SEC2_SIZE_AT) == 8) return 0;
    snprintf(err, errlen, "%s: cannot write the constraint section size", path);
    atomic_file_abort(&g->out.file);
    return -1;
}

/* Into g->out.file, opened by the caller. */
static int stream_r1cs(gen *g, const synth_params *p, const char *path, uint32_t n_wires, char *err,
                       size_t errlen)
{
    if (write_r1cs_header(g, p, n_wires, err, errlen)) goto fail;
    uint64_t before = g->out.written;
    if (write_constraints(g, p, err, errlen)) goto fail;
    uint64_t size = g->out.written - before;
    if (write_labels(g, n_wires, err, errlen) || out_flush(&g->out, err, errlen)) goto fail;
    return patch_section_size(g, path, size, err, errlen);
fail:
    atomic_file_abort(&g->out.file);
    return -1;
}

/* The witness in place: Montgomery elements become plain bytes (same
 * size), so the 2^24-wire case needs no second copy. */
static int write_witness(gen *g, const char *path, uint32_t n_wires, char *err, size_t errlen)
{
    uint8_t plain[32];
    for (uint32_t i = 0; i < n_wires; i++) {
        g->f->to_bytes(plain, &g->w[i]);
        memcpy(&g->w[i], plain, 32);
    }
    return wtns_write(path, 32, fr_modulus(g->f), n_wires, (const uint8_t *)g->w, err, errlen);
}

static int gen_init(gen *g, const synth_params *p, uint32_t n_wires, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->f = fr_ops_for(p->curve);
    if (!g->f) {
        snprintf(err, errlen, "synth: unknown curve");
        return -1;
    }
    g->w = malloc((size_t)n_wires * sizeof *g->w);
    g->out.buf = malloc(OUT_BUF);
    if (!g->w || !g->out.buf) {
        snprintf(err, errlen, "synth: out of memory for %u wires", n_wires);
        return -1;
    }
    rng_seed(&g->rng, p->seed);
    fr_t zero = {{0}};
    g->f->sub(&g->minus_one, &zero, &g->f->one);
    g->f->add(&g->two, &g->f->one, &g->f->one);
    g->w[0] = g->f->one;
    for (uint32_t i = 1; i <= p->n_public; i++) {
        rng_field(&g->rng, g->f, &g->w[i]);
        ring_push(&g->fulls, i);
    }
    g->next = 1 + p->n_public;
    return 0;
}

static int sizes_ok(const synth_params *p, char *err, size_t errlen)
{
    if (p->n_constraints >= 1 && p->n_constraints <= SYNTH_MAX_CONSTRAINTS &&
        p->n_public <= SYNTH_MAX_PUBLIC)
        return 1;
    snprintf(err, errlen, "synth: constraints must be 1..%u and public 0..%u",
             SYNTH_MAX_CONSTRAINTS, SYNTH_MAX_PUBLIC);
    return 0;
}

/* An anonymous in-memory file (memfd) in place of the atomic output: the
 * same stream, the same section-size patch by pwrite, and nothing on disk.
 * path is only the name errors give it. */
static int open_memory_r1cs(atomic_file *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->fd = memfd_create("g16-synth-r1cs", MFD_CLOEXEC);
    f->path = strdup(SYNTH_MEMORY_R1CS);
    if (f->fd >= 0 && f->path) return 0;
    snprintf(err, errlen, "%s: %s", SYNTH_MEMORY_R1CS, strerror(f->fd < 0 ? errno : ENOMEM));
    atomic_file_abort(f);
    return -1;
}

int synth_generate_memory(const synth_params *p, const char *wtns_path, int *r1cs_fd, char *err,
                          size_t errlen)
{
    *r1cs_fd = -1;
    if (!sizes_ok(p, err, errlen)) return -1;
    uint32_t n_wires = 1 + p->n_public + p->n_constraints;
    gen g;
    int rc = gen_init(&g, p, n_wires, err, errlen);
    if (!rc) rc = open_memory_r1cs(&g.out.file, err, errlen);
    if (!rc) rc = stream_r1cs(&g, p, SYNTH_MEMORY_R1CS, n_wires, err, errlen);
    if (!rc && write_witness(&g, wtns_path, n_wires, err, errlen)) {
        atomic_file_abort(&g.out.file);
        rc = -1;
    }
    if (!rc) {
        *r1cs_fd = g.out.file.fd; /* the caller's now: abort must not close it */
        g.out.file.fd = -1;
        atomic_file_abort(&g.out.file);
    }
    free(g.w);
    free(g.out.buf);
    return rc;
}

int synth_generate(const synth_params *p, const char *r1cs_path, const char *wtns_path, char *err,
                   size_t errlen)
{
    if (!sizes_ok(p, err, errlen)) return -1;
    uint32_t n_wires = 1 + p->n_public + p->n_constraints;
    gen g;
    int rc = gen_init(&g, p, n_wires, err, errlen);
    if (!rc) rc = atomic_file_open(&g.out.file, r1cs_path, err, errlen);
    if (!rc) rc = stream_r1cs(&g, p, r1cs_path, n_wires, err, errlen);
    /* The r1cs is committed only once the witness is on disk, so a failure
     * leaves neither file. */
    if (!rc && write_witness(&g, wtns_path, n_wires, err, errlen)) {
        atomic_file_abort(&g.out.file);
        rc = -1;
    }
    if (!rc && atomic_file_commit(&g.out.file, err, errlen)) {
        unlink(wtns_path);
        rc = -1;
    }
    free(g.w);
    free(g.out.buf);
    return rc;
}

int synth_params_of(const g16_synth_params *p, synth_params *sp, char *err, size_t errlen)
{
    *sp = (synth_params){FORMATS_CURVE_UNKNOWN, p->n_constraints, p->n_public, p->seed};
    if (p->curve && !strcmp(p->curve, "bn128")) sp->curve = FORMATS_CURVE_BN128;
    if (p->curve && !strcmp(p->curve, "bls12381")) sp->curve = FORMATS_CURVE_BLS12381;
    if (sp->curve == FORMATS_CURVE_UNKNOWN) {
        snprintf(err, errlen, "synth: unknown curve '%s' (bn128 or bls12381)",
                 p->curve ? p->curve : "");
        return G16_ERR_ARG;
    }
    return sizes_ok(sp, err, errlen) ? G16_OK : G16_ERR_ARG;
}

g16_status g16_synth_write(const g16_synth_params *p, const char *r1cs_path, const char *wtns_path,
                           char *err, size_t errlen)
{
    synth_params sp;
    int rc = synth_params_of(p, &sp, err, errlen);
    if (rc) return rc;
    /* the parameters are good: what fails now is writing the files */
    return synth_generate(&sp, r1cs_path, wtns_path, err, errlen) ? G16_ERR_IO : G16_OK;
}
