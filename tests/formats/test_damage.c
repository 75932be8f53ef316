/* Damaged input: truncations, corrupted bytes, targeted header/section
 * damage, and bad files on disk.  Every failure must be a one-line
 * "<name>: <problem>" and nothing may crash (run under ASan/UBSan). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "formats/formats.h"
#include "test_util.h"

typedef enum { KIND_ZKEY, KIND_WTNS, KIND_R1CS } kind;

/* Parses buf as `k`; for r1cs also walks every constraint. */
static int parse_as(kind k, const uint8_t *buf, size_t len, const char *name, char *err,
                    size_t errlen)
{
    zkey z;
    wtns w;
    r1cs r;
    r1cs_iter it;
    r1cs_lc lc[3];
    switch (k) {
    case KIND_ZKEY: return zkey_parse(buf, len, name, &z, err, errlen);
    case KIND_WTNS: return wtns_parse(buf, len, name, &w, err, errlen);
    default:
        if (r1cs_parse(buf, len, name, &r, err, errlen)) return -1;
        r1cs_iter_init(&it, &r);
        while (r1cs_iter_next(&it, lc) == 1) {}
        return 0;
    }
}

static const struct {
    const char *curve, *circuit, *file;
    kind k;
} small_files[] = {
    {"bn128", "multiplier", "circuit.zkey", KIND_ZKEY},
    {"bn128", "multiplier", "witness.wtns", KIND_WTNS},
    {"bn128", "multiplier", "circuit.r1cs", KIND_R1CS},
    {"bn128", "pubmany", "circuit.zkey", KIND_ZKEY},
    {"bn128", "pubmany", "witness.wtns", KIND_WTNS},
    {"bn128", "pubmany", "circuit.r1cs", KIND_R1CS},
    {"bls12381", "multiplier", "circuit.zkey", KIND_ZKEY},
    {"bls12381", "multiplier", "witness.wtns", KIND_WTNS},
    {"bls12381", "pubmany", "circuit.r1cs", KIND_R1CS},
};
#define N_SMALL (sizeof small_files / sizeof small_files[0])

/* A prefix of a valid file always fails, and says why. */
static void check_prefix(kind k, const uint8_t *full, size_t len, const char *name)
{
    char err[256];
    uint8_t *b = test_copy(full, len); /* exact size: ASan sees over-reads */
    int rc = parse_as(k, b, len, name, err, sizeof err);
    const char *want = len == 0 ? "empty file" : "truncated";
    CHECK_ERR(rc, err, name, want);
    free(b);
}

void test_group_truncation(void)
{
    for (size_t i = 0; i < N_SMALL; i++) {
        size_t len;
        uint8_t *full = test_load(
            test_fixture(small_files[i].curve, small_files[i].circuit, small_files[i].file), &len);
        for (size_t n = 0; n < len; n++)
            check_prefix(small_files[i].k, full, n, small_files[i].file);
        free(full);
    }
    static const struct {
        const char *curve, *circuit, *file;
        kind k;
    } big[] = {
        {"bn128", "sha256", "circuit.zkey", KIND_ZKEY},
        {"bn128", "sha256", "circuit.r1cs", KIND_R1CS},
        {"bn128", "sha256", "witness.wtns", KIND_WTNS},
        {"bls12381", "chain", "circuit.zkey", KIND_ZKEY},
    };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        size_t len;
        uint8_t *full = test_load(test_fixture(big[i].curve, big[i].circuit, big[i].file), &len);
        for (int t = 0; t < 8; t++)
            check_prefix(big[i].k, full, (size_t)(test_rand() % len), big[i].file);
        check_prefix(big[i].k, full, len - 1, big[i].file);
        free(full);
    }
}

/* Either parses or fails with a proper message; returns 1 on failure. */
static int corrupt_once(kind k, uint8_t *b, size_t len, const char *name)
{
    char err[256] = "";
    int rc = parse_as(k, b, len, name, err, sizeof err);
    if (rc) CHECK_ERR(rc, err, name, "");
    return rc != 0;
}

static void corrupt_file(kind k, const char *path, const char *name)
{
    static const uint8_t masks[] = {0x01, 0x80, 0xff};
    size_t len, failed = 0, tried = 0;
    uint8_t *b = test_load(path, &len);
    for (size_t i = 0; i < len; i++)
        for (size_t m = 0; m < sizeof masks; m++, tried++) {
            b[i] ^= masks[m];
            failed += (size_t)corrupt_once(k, b, len, name);
            b[i] ^= masks[m];
        }
    for (int t = 0; t < 500; t++, tried++) { /* several bytes at once */
        uint8_t *c = test_copy(b, len);
        for (int j = 0; j < 1 + (int)(test_rand() % 4); j++)
            c[test_rand() % len] = (uint8_t)test_rand();
        failed += (size_t)corrupt_once(k, c, len, name);
        free(c);
    }
    /* Point bytes are not validated here, so only some changes fail. */
    CHECK(failed > 0 && failed < tried, "%s: %zu of %zu failed", name, failed, tried);
    free(b);
}

void test_group_corruption(void)
{
    for (size_t i = 0; i < N_SMALL; i++)
        corrupt_file(
            small_files[i].k,
            test_fixture(small_files[i].curve, small_files[i].circuit, small_files[i].file),
            small_files[i].file);
}

/* ---- targeted damage ------------------------------------------------ */

/* Offset of section `id`'s body in a valid file. */
static size_t body_of(const uint8_t *b, size_t len, uint32_t id)
{
    binfile bf;
    char err[256];
    if (binfile_parse(b, len, "x", NULL, 0, &bf, err, sizeof err) || !binfile_find(&bf, id)) {
        CHECK(0, "no section %u", id);
        return 0;
    }
    return (size_t)binfile_find(&bf, id)->offset;
}

/* Offset of the 12-byte table entry of section `id`. */
static size_t entry_of(const uint8_t *b, size_t len, uint32_t id)
{
    return body_of(b, len, id) - 12;
}

typedef struct {
    kind k;
    uint8_t *orig;
    size_t len;
    const char *name;
} target;

static void expect_u32(const target *t, size_t off, uint32_t v, const char *want)
{
    char err[256];
    uint8_t *b = test_copy(t->orig, t->len);
    test_put_u32(b + off, v);
    CHECK_ERR(parse_as(t->k, b, t->len, t->name, err, sizeof err), err, t->name, want);
    free(b);
}

static void expect_u64(const target *t, size_t off, uint64_t v, const char *want)
{
    char err[256];
    uint8_t *b = test_copy(t->orig, t->len);
    test_put_u64(b + off, v);
    CHECK_ERR(parse_as(t->k, b, t->len, t->name, err, sizeof err), err, t->name, want);
    free(b);
}

static void expect_bytes(const target *t, size_t off, const uint8_t *v, size_t n, const char *want)
{
    char err[256];
    uint8_t *b = test_copy(t->orig, t->len);
    memcpy(b + off, v, n);
    CHECK_ERR(parse_as(t->k, b, t->len, t->name, err, sizeof err), err, t->name, want);
    free(b);
}

static void expect_container_errors(const target *t, const char *magic, uint32_t last_id)
{
    char want[64], err[256];
    snprintf(want, sizeof want, "not a %s file (bad magic)", magic);
    expect_u32(t, 0, 0x78787878, want);
    snprintf(want, sizeof want, "unsupported %s version 7", magic);
    expect_u32(t, 4, 7, want);
    expect_u32(t, 8, 1000, "too many sections (1000, at most 64)");
    expect_u32(t, 8, formats_u32le(t->orig + 8) + 1, "truncated section table");
    snprintf(want, sizeof want, "truncated section %u (expected", last_id);
    expect_u64(t, entry_of(t->orig, t->len, last_id) + 4, ~0ull, want);
    uint8_t *longer = malloc(t->len + 3);
    memcpy(longer, t->orig, t->len);
    memset(longer + t->len, 0, 3);
    CHECK_ERR(parse_as(t->k, longer, t->len + 3, t->name, err, sizeof err), err, t->name,
              "3 unexpected bytes after the last section");
    free(longer);
}

static void zkey_header_errors(const target *t)
{
    size_t h = body_of(t->orig, t->len, 2), nums = h + 4 + 32 + 4 + 32;
    expect_u32(t, entry_of(t->orig, t->len, 9), 11, "missing section 9 (H points)");
    expect_u32(t, entry_of(t->orig, t->len, 10), 5, "duplicate section 5 (A points)");
    expect_u32(t, body_of(t->orig, t->len, 1), 2, "PLONK proving key; g16 proves Groth16 only");
    expect_u32(t, body_of(t->orig, t->len, 1), 10, "FFLONK proving key; g16 proves Groth16 only");
    expect_u32(t, body_of(t->orig, t->len, 1), 7, "unknown proving system (protocol id 7)");
    expect_u32(t, h, 33, "unsupported field element size");
    expect_u32(t, h, 40, "unsupported field element size");
    expect_u32(t, h + 4, 0x12345678, "unsupported curve");
    expect_u32(t, h + 4 + 32 + 4, 0x12345678,
               "scalar field modulus does not match the bn128 base field");
    expect_u32(t, nums, 5, "section 5 (A points) has 256 bytes, expected 320");
    expect_u32(t, nums + 4, 4, "nPublic (4) must be less than nVars (4)");
    expect_u32(t, nums + 8, 3, "domain size 3 is not a power of two");
    expect_u32(t, nums + 8, 0, "domain size 0 is not a power of two");
    expect_u32(t, nums + 8, 8, "section 9 (H points) has 256 bytes, expected 512");
}

static void zkey_coef_errors(const target *t)
{
    size_t c = body_of(t->orig, t->len, 4);
    uint32_t r_n8;
    const uint8_t *r = formats_field_modulus(FORMATS_FIELD_BN128_FR, &r_n8);
    expect_u32(t, c, 5, "section 4 (coefficients) has 180 bytes, expected 224");
    expect_u32(t, c + 4, 2, "coefficient 0: matrix 2 is not 0 (A) or 1 (B)");
    expect_u32(t, c + 4 + 44 + 4, 4, "coefficient 1: constraint 4 is outside the domain (4)");
    expect_u32(t, c + 4 + 8, 4, "coefficient 0: signal 4 is not below nVars (4)");
    expect_bytes(t, c + 4 + 12, r, r_n8, "coefficient 0: value is not reduced modulo r");
}

static void wtns_errors(const target *t)
{
    size_t h = body_of(t->orig, t->len, 1), v = body_of(t->orig, t->len, 2);
    uint32_t n8;
    const uint8_t *r = formats_field_modulus(FORMATS_FIELD_BN128_FR, &n8);
    expect_u32(t, h, 12, "unsupported field element size 12 bytes");
    expect_u32(t, h, 40, "section 1 (header) has 40 bytes, expected 48");
    expect_u32(t, h + 4 + 32, 5, "section 2 (values) has 128 bytes, expected 160");
    expect_bytes(t, v + 32, r, n8, "witness value 1 is not reduced modulo the prime");
    expect_u32(t, entry_of(t->orig, t->len, 2), 3, "missing section 2 (values)");
}

static void r1cs_errors(const target *t)
{
    size_t h = body_of(t->orig, t->len, 1), c = body_of(t->orig, t->len, 2);
    size_t counts = h + 4 + 32;
    uint32_t n8;
    const uint8_t *r = formats_field_modulus(FORMATS_FIELD_BN128_FR, &n8);
    expect_u32(t, counts, 3, "1 + outputs + inputs (4) exceeds nWires (3)");
    expect_u32(t, counts + 24, 2, "section 2 (constraints) is truncated in constraint 1 of 2");
    expect_u32(t, counts + 24, 0,
               "section 2 (constraints) has 120 extra bytes after 0 constraints");
    expect_u32(t, c, 0xffffffffu, "section 2 (constraints) is truncated in constraint 0 of 1");
    expect_u32(t, c + 4, 4, "constraint 0: wire 4 is not below nWires (4)");
    expect_bytes(t, c + 8, r, n8, "constraint 0: coefficient is not reduced modulo the prime");
    expect_u32(t, counts, 5, "section 3 (wire labels) has 32 bytes, expected 40");
    expect_u64(t, entry_of(t->orig, t->len, 3) + 4, 24,
               "8 unexpected bytes after the last section");
}

static void with_target(kind k, const char *file, void (*fn)(const target *), const char *magic,
                        uint32_t last_id)
{
    target t = {k, NULL, 0, file};
    t.orig = test_load(test_fixture("bn128", "multiplier", file), &t.len);
    expect_container_errors(&t, magic, last_id);
    fn(&t);
    free(t.orig);
}

static void zkey_errors(const target *t)
{
    zkey_header_errors(t);
    zkey_coef_errors(t);
}

/* A witness large enough to be checked on all cores (2^18 values and up):
 * r - 1 anywhere is fine, and of several unreduced values (r, r + 2^248)
 * the error names the first, wherever the slices fall. */
static void wtns_large_unreduced(void)
{
    uint32_t n8, n = (1u << 18) + 3;
    const uint8_t *r = formats_field_modulus(FORMATS_FIELD_BN128_FR, &n8);
    uint8_t *v = calloc(n, n8), rm1[32], big[32];
    char err[256];
    wtns w;
    memcpy(rm1, r, n8);
    rm1[0]--; /* r is odd: no borrow */
    memcpy(big, r, n8);
    big[31]++;
    memcpy(v + (size_t)7 * n8, rm1, n8);
    memcpy(v + (size_t)(n - 1) * n8, rm1, n8);
    const char *path = test_tmp("large.wtns");
    CHECK(wtns_write(path, n8, r, n, v, err, sizeof err) == 0, "%s", err);
    CHECK(wtns_open(path, &w, err, sizeof err) == 0, "large witness with r - 1: %s", err);
    wtns_close(&w);
    memcpy(v + (size_t)(n - 2) * n8, r, n8);
    memcpy(v + (size_t)200001 * n8, big, n8);
    memcpy(v + (size_t)131075 * n8, r, n8);
    CHECK(wtns_write(path, n8, r, n, v, err, sizeof err) == 0, "%s", err);
    CHECK_ERR(wtns_open(path, &w, err, sizeof err), err, path,
              "witness value 131075 is not reduced modulo the prime");
    free(v);
}

void test_group_targeted(void)
{
    wtns_large_unreduced();
    with_target(KIND_ZKEY, "circuit.zkey", zkey_errors, "zkey", 10);
    with_target(KIND_WTNS, "witness.wtns", wtns_errors, "wtns", 2);
    with_target(KIND_R1CS, "circuit.r1cs", r1cs_errors, "r1cs", 3);
}

/* ---- files on disk -------------------------------------------------- */

static void open_expect(kind k, const char *path, const char *want)
{
    char err[256];
    int rc;
    zkey z;
    wtns w;
    r1cs r;
    if (k == KIND_ZKEY)
        rc = zkey_open(path, &z, err, sizeof err);
    else if (k == KIND_WTNS)
        rc = wtns_open(path, &w, err, sizeof err);
    else
        rc = r1cs_open(path, &r, err, sizeof err);
    CHECK_ERR(rc, err, path, want);
}

/* A copy of a real Groth16 key with its protocol id patched to PLONK. */
static void check_patched_plonk(void)
{
    size_t len;
    char err[256];
    zkey z;
    uint8_t *b = test_load(test_fixture("bn128", "multiplier", "circuit.zkey"), &len);
    const char *path = test_tmp("patched.zkey");
    test_write(path, b, len);
    CHECK(zkey_open(path, &z, err, sizeof err) == 0, "%s", err); /* baseline */
    zkey_close(&z);
    test_put_u32(b + body_of(b, len, 1), ZKEY_PROTOCOL_PLONK);
    test_write(path, b, len);
    open_expect(KIND_ZKEY, path, "PLONK proving key; g16 proves Groth16 only");
    free(b);
}

static void check_real_plonk_keys(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/plonk.zkey", test_data);
    open_expect(KIND_ZKEY, path, "PLONK proving key; g16 proves Groth16 only");
    snprintf(path, sizeof path, "%s/fflonk.zkey", test_data);
    open_expect(KIND_ZKEY, path, "FFLONK proving key; g16 proves Groth16 only");
}

void test_group_files(void)
{
    const char *empty = test_tmp("empty.zkey");
    test_write(empty, "", 0);
    open_expect(KIND_ZKEY, empty, "empty file");
    open_expect(KIND_WTNS, empty, "empty file");
    open_expect(KIND_R1CS, empty, "empty file");
    open_expect(KIND_ZKEY, test_tmp("no-such.zkey"), "No such file or directory");
    open_expect(KIND_WTNS, test_tmpdir, "Is a directory");
    open_expect(KIND_ZKEY, test_fixture("bn128", "multiplier", "witness.wtns"),
                "not a zkey file (bad magic)");
    open_expect(KIND_WTNS, test_fixture("bn128", "multiplier", "circuit.r1cs"),
                "not a wtns file (bad magic)");
    open_expect(KIND_R1CS, test_fixture("bn128", "multiplier", "circuit.zkey"),
                "not a r1cs file (bad magic)");
    const char *tiny = test_tmp("tiny.wtns");
    test_write(tiny, "wtns\2\0", 6);
    open_expect(KIND_WTNS, tiny, "truncated header (12 bytes needed, file has 6)");
    check_patched_plonk();
    check_real_plonk_keys();
}
