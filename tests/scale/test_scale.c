/* Sizes at 2^27 on both curves, without huge files or memory: every count,
 * offset and byte size on the way from the files to the kernels must be a
 * 64-bit value there (a 2^27 BLS12-381 key is ~72 GiB of points, its
 * witness 4 GiB, its coefficient records past 2^31).  The files are sparse
 * (ftruncate: only the bytes written take disk), the expected numbers are
 * worked out by hand in the comments, and each group runs in milliseconds.  Groups, by argv[1]:
 *   zkey     a sparse 2^27 key on each curve: section offsets past 32 GiB,
 *            the last H point read through the mapping, the coefficient
 *            bounds at 2^27 - 1, and the library's memory estimates of it
 *   wrap     headers whose implied sizes are exactly 2^32 (or 2^32 + 2^29)
 *            larger than the section they come with: a 32-bit product
 *            would accept them and read past the buffer
 *   index    zkey_coef_at and the r1cs term helpers at i = 2^31, 2^32 - 1
 *            on a sparse 177 GiB mapping
 *   plan     the GPU MSM's window, entry count and work buffers at 2^27,
 *            the NTT roots at 2^27 (and each curve's limit) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/test.h"
#include "formats/formats.h"
#include "g16.h"
#include "gpu/msm_plan.h"
#include "ntt/ntt.h"

#define N27 ((uint64_t)1 << 27)

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

/* A sparse file of `size` bytes; the caller pwrites what it needs. */
static int sparse_open(const char *path, uint64_t size)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
        perror(path);
        exit(1);
    }
    return fd;
}

static void put_at(int fd, uint64_t off, const void *p, size_t n)
{
    if (pwrite(fd, p, n, (off_t)off) != (ssize_t)n) {
        perror("pwrite");
        exit(1);
    }
}

/* ---- a 2^27 zkey --------------------------------------------------- */

typedef struct {
    const char *curve;
    uint32_t n8q;
    uint64_t h_at, b2_at, total; /* hand-computed, below */
    size_t key_bytes;            /* g16_key_gpu_key_bytes(key, 1) */
} zkey_case;

/* Sections 1..9 in order, each a 12-byte header then its body:
 *   bn128 (G1 64 bytes, G2 128): header 660, IC 2 G1 = 128, coefficients
 *     4 + 2*44 = 92; A, B1 2^27 G1 = 8 GiB each; B2 16 GiB; C (2^27 - 2)
 *     G1; H 2^27 G1.  Bodies start at 24, 40, 712, 852, 956, 8589935560,
 *     17179870164 (B2), 34359739360 (C), 42949673836 (H); 51539608428 in
 *     all.
 *   bls12381 (G1 96, G2 192): header 964, IC 192, coefficients 92; A, B1
 *     12 GiB; B2 24 GiB; bodies at 24, 40, 1016, 1220, 1324, 12884903224,
 *     25769805124 (B2), 51539608912 (C), 64424510620 (H); 77309412508.
 * Device copy (g16_key_gpu_key_bytes, n = v = 2^27, 1 public, 2
 * coefficients): points (3v - 2 + n) G1 + v G2, coefficients (2 + 2) *
 * 36 + 2 (n + 1) 4, witness v 32, a, b, c 3 n 32:
 *   bn128:    (2^29 - 2) 64 + 2^27 128 + 144 + 2^30 + 8 + 2^32 + 3 2^32
 *             = 69793218584
 *   bls12381: (2^29 - 2) 96 + 2^27 192 + ... = 95563022296 */
static const zkey_case zkey_cases[] = {
    {"bn128", 32, 42949673836ull, 17179870164ull, 51539608428ull, 69793218584ull},
    {"bls12381", 48, 64424510620ull, 25769805124ull, 77309412508ull, 95563022296ull},
};

static const uint8_t *modulus(formats_field f, uint32_t *n8)
{
    const uint8_t *m = formats_field_modulus(f, n8);
    if (!m) exit(1);
    return m;
}

/* Section 2: n8q, q, n8r, r, nVars, nPublic, domain, then the 3 G1 and 3
 * G2 verification-key points (zero: not checked by the parser). */
static size_t zkey_header(uint8_t *h, formats_curve curve, uint32_t n_vars, uint32_t domain)
{
    uint32_t n8q, n8r;
    const uint8_t *q = modulus(formats_base_field(curve), &n8q);
    const uint8_t *r = modulus(formats_scalar_field(curve), &n8r);
    size_t at = 0;
    put32(h, n8q);
    memcpy(h + 4, q, n8q);
    at = 4 + n8q;
    put32(h + at, n8r);
    memcpy(h + at + 4, r, n8r);
    at += 4 + n8r;
    put32(h + at, n_vars);
    put32(h + at + 4, 1);
    put32(h + at + 8, domain);
    at += 12;
    memset(h + at, 0, 9 * 2 * n8q);
    return at + 9 * 2 * n8q;
}

/* Writes the section table of a zkey with these section sizes (ids 1..9
 * in order); the bodies of sections 1, 2 and 4 are filled in by the
 * caller.  Returns the file's size; body_at[i] is section i+1's body. */
static uint64_t zkey_layout(const uint64_t *sizes, uint64_t *body_at)
{
    uint64_t at = 12;
    for (int i = 0; i < 9; i++) {
        body_at[i] = at + 12;
        at += 12 + sizes[i];
    }
    return at;
}

static int zkey_write(const char *path, formats_curve curve, uint32_t n8q, uint32_t n_vars,
                      uint32_t domain, uint32_t n_coefs, uint64_t coef_bytes, uint64_t *body_at)
{
    uint8_t head[12] = {'z', 'k', 'e', 'y', 1, 0, 0, 0, 9, 0, 0, 0}, hdr[1024], sec[12];
    uint64_t g1 = 2 * n8q, g2 = 4 * n8q;
    size_t hlen = zkey_header(hdr, curve, n_vars, domain);
    uint64_t sizes[9] = {4,           hlen,        2 * g1,      4 + coef_bytes,
                         n_vars * g1, n_vars * g1, n_vars * g2, (n_vars - 2) * g1,
                         domain * g1};
    uint64_t total = zkey_layout(sizes, body_at);
    int fd = sparse_open(path, total);
    put_at(fd, 0, head, 12);
    for (int i = 0; i < 9; i++) {
        put32(sec, (uint32_t)(i + 1));
        put64(sec + 4, sizes[i]);
        put_at(fd, body_at[i] - 12, sec, 12);
    }
    uint8_t proto[4] = {1, 0, 0, 0}, n[4];
    put32(n, n_coefs);
    put_at(fd, body_at[0], proto, 4);
    put_at(fd, body_at[1], hdr, hlen);
    put_at(fd, body_at[3], n, 4);
    return fd;
}

/* Coefficient k of the 2^27 key: the last constraint and signal, value 1. */
static void put_edge_coef(int fd, uint64_t at, uint32_t k)
{
    uint8_t e[44] = {0};
    put32(e, k);
    put32(e + 4, (uint32_t)N27 - 1);
    put32(e + 8, (uint32_t)N27 - 1);
    e[12] = 1;
    put_at(fd, at + 4 + 44ull * k, e, 44);
}

static void zkey_2p27(const zkey_case *zc)
{
    char path[64], err[256];
    uint64_t at[9];
    formats_curve curve =
        !strcmp(zc->curve, "bn128") ? FORMATS_CURVE_BN128 : FORMATS_CURVE_BLS12381;
    snprintf(path, sizeof path, "scale-%s.zkey", zc->curve);
    int fd = zkey_write(path, curve, zc->n8q, (uint32_t)N27, (uint32_t)N27, 2, 2 * 44, at);
    put_edge_coef(fd, at[3], 0);
    put_edge_coef(fd, at[3], 1);
    uint8_t mark = 0xa5; /* the last byte of the last H point */
    put_at(fd, at[8] + N27 * 2 * zc->n8q - 1, &mark, 1);
    close(fd);
    CHECK(at[8] == zc->h_at && at[6] == zc->b2_at);

    zkey z;
    int rc = zkey_open(path, &z, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    CHECK(rc == 0);
    if (rc == 0) {
        const uint8_t *base = z.map.addr;
        CHECK(z.map.len == zc->total);
        CHECK(z.n_vars == N27 && z.domain_size == N27 && z.log2_domain == 27);
        CHECK((uint64_t)(z.h_points - base) == zc->h_at);
        CHECK((uint64_t)(z.b2_points - base) == zc->b2_at);
        CHECK(z.h_points[N27 * 2 * z.n8q - 1] == 0xa5);
        zkey_coef c = zkey_coef_at(&z, 1);
        CHECK(c.matrix == 1 && c.constraint == N27 - 1 && c.signal == N27 - 1);
        zkey_close(&z);
    }

    g16_key *key;
    rc = g16_key_open(path, &key, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    CHECK(rc == G16_OK);
    if (rc == G16_OK) {
        CHECK(g16_key_job_abc_bytes(key) == 2 * N27 * 32); /* 8 GiB */
        CHECK(g16_key_gpu_key_bytes(key, 1) == zc->key_bytes);
        /* shift copies multiply the points only: 2 copies add the points
         * once more (bn128: (2^29 - 2) 64 + 2^27 128 = 51539607424) */
        size_t points = ((size_t)4 * N27 - 2) * 2 * zc->n8q + N27 * 4 * zc->n8q;
        CHECK(g16_key_gpu_key_bytes(key, 2) == zc->key_bytes + points);
        /* one lane, one proof a call above 2^22: the witness and 64 KiB */
        CHECK(g16_key_gpu_host_bytes(key) == N27 * 32 + 65536);
        g16_key_free(key);
    }
    unlink(path);
}

/* ---- sizes that wrap at 2^32 ----------------------------------------- */

/* 3 * 2^27 coefficients of 44 bytes are 17716740096 bytes, 2^32 * 4 +
 * 536870912: a section of 4 + 536870912 bytes passes a 32-bit check. */
static void wrap_zkey_coefs(void)
{
    char err[256];
    uint64_t at[9];
    uint32_t n_coefs = 3 * (uint32_t)N27;
    int fd =
        zkey_write("scale-wrap.zkey", FORMATS_CURVE_BN128, 32, 4, 4, n_coefs, 536870912ull, at);
    close(fd);
    zkey z;
    int rc = zkey_open("scale-wrap.zkey", &z, err, sizeof err);
    CHECK(rc == G16_ERR_FORMAT);
    CHECK(strstr(err, "has 536870916 bytes, expected 17716740100") != NULL);
    if (rc == 0) zkey_close(&z);
    unlink("scale-wrap.zkey");
}

/* 2^27 values of 32 bytes are 2^32 bytes: an empty values section passes
 * a 32-bit check; 2^27 + 1 values want 4294967328, not 32. */
static void wrap_wtns(uint32_t n_witness, uint64_t values, const char *want)
{
    uint32_t n8;
    const uint8_t *r = modulus(FORMATS_FIELD_BLS12381_FR, &n8);
    uint8_t f[12 + 12 + 40 + 12 + 64] = {'w', 't', 'n', 's', 2, 0, 0, 0, 2, 0, 0, 0};
    put32(f + 12, 1);
    put64(f + 16, 40);
    put32(f + 24, 32);
    memcpy(f + 28, r, 32);
    put32(f + 60, n_witness);
    put32(f + 64, 2);
    put64(f + 68, values);
    char err[256];
    wtns w;
    int rc = wtns_parse(f, 76 + values, "x.wtns", &w, err, sizeof err);
    CHECK(rc != 0);
    if (!strstr(err, want)) fprintf(stderr, "got: %s\n", err);
    CHECK(strstr(err, want) != NULL);
}

/* 2^29 wires' labels are 8 * 2^29 = 2^32 bytes: an empty section 3
 * passes a 32-bit check. */
static void wrap_r1cs_labels(void)
{
    uint32_t n8;
    const uint8_t *r = modulus(FORMATS_FIELD_BN128_FR, &n8);
    uint8_t f[12 + 12 + 64 + 12 + 12] = {'r', '1', 'c', 's', 1, 0, 0, 0, 3, 0, 0, 0};
    put32(f + 12, 1);
    put64(f + 16, 64);
    put32(f + 24, 32);
    memcpy(f + 28, r, 32);
    put32(f + 60, 1u << 29); /* wires */
    put64(f + 76, 1u << 29); /* labels; outputs, inputs and constraints 0 */
    put32(f + 88, 2);        /* section 2: no constraints */
    put32(f + 100, 3);       /* section 3: no labels */
    char err[256];
    r1cs c;
    int rc = r1cs_parse(f, sizeof f, "x.r1cs", &c, err, sizeof err);
    CHECK(rc != 0);
    if (!strstr(err, "expected 4294967296")) fprintf(stderr, "got: %s\n", err);
    CHECK(strstr(err, "expected 4294967296") != NULL);
}

/* ---- index helpers at 2^31 and 2^32 - 1 ------------------------------- */

/* Records i = 2^31 and 2^32 - 1 of 44 bytes (94489280512 and
 * 188978560980 bytes in) and 36-byte r1cs terms i = 2^32 - 1
 * (154618822620), on a sparse mapping of 188978561024 bytes. */
static void index_helpers(void)
{
    const uint64_t size = 188978561024ull;
    int fd = sparse_open("scale-index.bin", size);
    uint8_t rec[44] = {0};
    const uint32_t idx[2] = {1u << 31, UINT32_MAX};
    for (int k = 0; k < 2; k++) {
        put32(rec, 1);
        put32(rec + 4, idx[k] ^ 0x1234);
        put32(rec + 8, idx[k] ^ 0x5678);
        rec[12] = (uint8_t)(k + 1);
        put_at(fd, 44ull * idx[k], rec, 44);
    }
    uint8_t term[36] = {0};
    put32(term, 0xfeedbeef);
    term[4] = 7;
    put_at(fd, 36ull * UINT32_MAX, term, 36);
    uint8_t *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    unlink("scale-index.bin");
    CHECK(map != MAP_FAILED);
    if (map == MAP_FAILED) return;
    zkey z;
    memset(&z, 0, sizeof z);
    z.coefs = map;
    z.n8r = 32;
    for (int k = 0; k < 2; k++) {
        zkey_coef c = zkey_coef_at(&z, idx[k]);
        CHECK(c.matrix == 1 && c.constraint == (idx[k] ^ 0x1234) && c.signal == (idx[k] ^ 0x5678));
        CHECK(c.value == map + 44ull * idx[k] + 12 && c.value[0] == k + 1);
    }
    r1cs r;
    memset(&r, 0, sizeof r);
    r.n8 = 32;
    r1cs_lc lc = {UINT32_MAX, map};
    CHECK(r1cs_term_wire(&r, &lc, UINT32_MAX) == 0xfeedbeef);
    CHECK(r1cs_term_value(&r, &lc, UINT32_MAX) == map + 36ull * UINT32_MAX + 4);
    CHECK(r1cs_term_value(&r, &lc, UINT32_MAX)[0] == 7);
    munmap(map, size);
}

/* ---- the GPU MSM's plan and the NTT roots at 2^27 --------------------- */

/* At 2^27 points the cost model's window is 20 on both curves (13
 * windows: 13 * 2^27 = 1744830464 sort entries, under CUB's int limit
 * 2^31 - 1).  Work buffers, BLS12-381 G1 (XYZZ 192 bytes), one set:
 * 24 e = 41875931136, buckets (13 * 2^19 + 1) 192 = 1308623040, bucket
 * sums 2 * 13 * 2^14 * 192 = 81788928, packed (13 + 1) 192 = 2688,
 * level-1 segments of e >> 20 = 1664 entries: nt = 1048576 threads,
 * partial lists 2 (2 nt 4 + 2 nt 192) = 822083584; 44088429376 in all. */
static void msm_plan(void)
{
    for (int rbits = 254; rbits <= 255; rbits++) {
        int c = gpu_msm_plan_window((size_t)N27, rbits, 1);
        CHECK(c == 20);
        CHECK(gpu_msm_plan_windows(rbits, c) == 13);
        CHECK((uint64_t)gpu_msm_plan_windows(rbits, c) * N27 <= 0x7fffffffu);
    }
    CHECK(gpu_msm_plan_workspace_bytes((size_t)N27, 255, 1, 0, 192, 1) == 44088429376ull);
}

static void ntt_roots(void)
{
    CHECK(bn254_fr_ntt_max_log() == 28 && bls12_381_fr_ntt_max_log() == 32);
    bls12_381_fr w, one;
    bls12_381_fr_one(&one);
    CHECK(bls12_381_fr_ntt_root(&w, 27));
    for (int k = 0; k < 26; k++) bls12_381_fr_sqr(&w, &w);
    CHECK(!bls12_381_fr_eq(&w, &one)); /* order exactly 2^27 */
    bls12_381_fr_sqr(&w, &w);
    CHECK(bls12_381_fr_eq(&w, &one));
    bn254_fr b;
    CHECK(bn254_fr_ntt_root(&b, 28) && !bn254_fr_ntt_root(&b, 29));
    CHECK(bls12_381_fr_ntt_root(&w, 32) && !bls12_381_fr_ntt_root(&w, 33));
}

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "";
    if (!strcmp(group, "zkey")) {
        for (size_t i = 0; i < sizeof zkey_cases / sizeof zkey_cases[0]; i++)
            zkey_2p27(&zkey_cases[i]);
    } else if (!strcmp(group, "wrap")) {
        wrap_zkey_coefs();
        wrap_wtns((uint32_t)N27, 0, "has 0 bytes, expected 4294967296");
        wrap_wtns((uint32_t)N27 + 1, 32, "has 32 bytes, expected 4294967328");
        wrap_r1cs_labels();
    } else if (!strcmp(group, "index")) {
        index_helpers();
    } else if (!strcmp(group, "plan")) {
        msm_plan();
        ntt_roots();
    } else {
        fprintf(stderr, "usage: test_scale zkey|wrap|index|plan\n");
        return 2;
    }
    return test_finish(group);
}
