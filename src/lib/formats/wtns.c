/* circom witness reader and writer (snarkjs wtns_utils.js is the
 * reference). */
#include <stdint.h>
#include <string.h>
#include "formats_internal.h"
#include "util/parallel.h"

#define WTNS_MAX_VERSION 2

static int parse_wtns_header(wtns *w, const char *name, char *err, size_t errlen)
{
    const uint8_t *b;
    uint64_t size;
    if (binfile_section_body(&w->file, 1, "header", name, &b, &size, err, errlen)) return -1;
    if (size < 4) return formats_fail(err, errlen, name, "section 1 (header) is too short");
    w->n8 = formats_u32le(b);
    if (!formats_n8_ok(w->n8))
        return formats_fail(err, errlen, name, "unsupported field element size %u bytes", w->n8);
    if (formats_expect_size(name, 1, "header", size, 1, 8ull + w->n8, err, errlen)) return -1;
    w->prime = b + 4;
    w->n_witness = formats_u32le(b + 4 + w->n8);
    w->curve = formats_curve_of_prime(w->prime, w->n8);
    return 0;
}

/* The first unreduced value of a slice of the witness, or UINT32_MAX. */
typedef struct {
    const wtns *w;
    uint32_t first_bad;
} check_ctx;

static void check_slice(void *arg, size_t begin, size_t end, int worker)
{
    check_ctx *c = arg;
    const wtns *w = c->w;
    (void)worker;
    for (size_t i = begin; i < end; i++)
        if (!formats_lt(w->values + i * w->n8, w->prime, w->n8)) {
            uint32_t bad = (uint32_t)i, cur = __atomic_load_n(&c->first_bad, __ATOMIC_RELAXED);
            while (bad < cur && !__atomic_compare_exchange_n(&c->first_bad, &cur, bad, 0,
                                                             __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
            return;
        }
}

/* Every value must be reduced: the prover feeds them to Montgomery
 * multiplications that assume inputs below the modulus.  The scan reads
 * the whole witness (512 MB at 2^24 signals: 81 ms of a 0.42 s GPU proof
 * on one thread), so large witnesses are checked by all cores; the error
 * still names the first bad value. */
static int check_values(const wtns *w, const char *name, char *err, size_t errlen)
{
    check_ctx c = {w, UINT32_MAX};
    int threads = w->n_witness >= (1u << 18) ? 0 : 1;
    parallel_for(w->n_witness, threads, check_slice, &c);
    if (c.first_bad != UINT32_MAX)
        return formats_fail(err, errlen, name, "witness value %u is not reduced modulo the prime",
                            c.first_bad);
    return 0;
}

int wtns_parse(const uint8_t *buf, size_t len, const char *name, wtns *out, char *err,
               size_t errlen)
{
    uint64_t size;
    memset(out, 0, sizeof *out);
    if (binfile_parse(buf, len, name, "wtns", WTNS_MAX_VERSION, &out->file, err, errlen) ||
        parse_wtns_header(out, name, err, errlen) ||
        binfile_section_body(&out->file, 2, "values", name, &out->values, &size, err, errlen) ||
        formats_expect_size(name, 2, "values", size, out->n_witness, out->n8, err, errlen) ||
        check_values(out, name, err, errlen))
        return -1;
    out->version = out->file.version;
    return 0;
}

int wtns_open(const char *path, wtns *out, char *err, size_t errlen)
{
    formats_mapping m;
    memset(out, 0, sizeof *out);
    if (formats_map_file(path, &m, err, errlen)) return formats_status_of_errno(errno);
    if (wtns_parse(m.addr, m.len, path, out, err, errlen)) {
        formats_unmap_file(&m);
        memset(out, 0, sizeof *out);
        return G16_ERR_FORMAT;
    }
    out->map = m;
    return 0;
}

void wtns_close(wtns *w)
{
    formats_unmap_file(&w->map);
    memset(w, 0, sizeof *w);
}

/* Magic, version 2, 2 sections; section 1 = n8, prime, n; then the
 * table entry of section 2 (whose body, the values, follows). */
static size_t build_wtns_header(uint8_t *h, uint32_t n8, const uint8_t *prime, uint32_t n)
{
    memcpy(h, "wtns", 4);
    formats_put_u32(h + 4, 2);
    formats_put_u32(h + 8, 2);
    formats_put_u32(h + 12, 1);
    formats_put_u64(h + 16, 8ull + n8);
    formats_put_u32(h + 24, n8);
    memcpy(h + 28, prime, n8);
    formats_put_u32(h + 28 + n8, n);
    uint8_t *s2 = h + 32 + n8;
    formats_put_u32(s2, 2);
    formats_put_u64(s2 + 4, (uint64_t)n * n8);
    return 44 + (size_t)n8;
}

int wtns_write(const char *path, uint32_t n8, const uint8_t *prime, uint32_t n,
               const uint8_t *values, char *err, size_t errlen)
{
    if (!formats_n8_ok(n8))
        return formats_fail(err, errlen, path, "unsupported field element size %u bytes", n8);
    uint8_t head[44 + 64];
    size_t h = build_wtns_header(head, n8, prime, n);
    atomic_file f;
    if (atomic_file_open(&f, path, err, errlen)) return -1;
    if (atomic_file_write(&f, head, h, err, errlen) ||
        atomic_file_write(&f, values, (size_t)n * n8, err, errlen) ||
        atomic_file_commit(&f, err, errlen)) {
        atomic_file_abort(&f);
        return -1;
    }
    return 0;
}
