/* snarkjs Groth16 proving key reader (zkey_utils.js is the reference). */
#include <string.h>
#include "formats_internal.h"

#define ZKEY_MAX_VERSION 2 /* snarkjs' prover accepts versions up to 2 */

const char *zkey_protocol_name(uint32_t protocol)
{
    switch (protocol) {
    case ZKEY_PROTOCOL_GROTH16: return "groth16";
    case ZKEY_PROTOCOL_PLONK: return "plonk";
    case ZKEY_PROTOCOL_FFLONK: return "fflonk";
    default: return "unknown";
    }
}

/* A bounds-checked reader over one section's bytes. */
typedef struct {
    const uint8_t *p;
    uint64_t left;
} cursor;

static const uint8_t *take(cursor *c, uint64_t n)
{
    if (n > c->left) return NULL;
    const uint8_t *p = c->p;
    c->p += n;
    c->left -= n;
    return p;
}

static int parse_protocol(zkey *z, const char *name, char *err, size_t errlen)
{
    const uint8_t *b;
    uint64_t size;
    if (binfile_section_body(&z->file, 1, "protocol", name, &b, &size, err, errlen)) return -1;
    if (size < 4)
        return formats_fail(err, errlen, name, "section 1 (protocol) has %llu bytes, expected 4",
                            (unsigned long long)size);
    z->protocol = formats_u32le(b);
    if (z->protocol == ZKEY_PROTOCOL_PLONK)
        return formats_fail(err, errlen, name, "PLONK proving key; g16 proves Groth16 only");
    if (z->protocol == ZKEY_PROTOCOL_FFLONK)
        return formats_fail(err, errlen, name, "FFLONK proving key; g16 proves Groth16 only");
    if (z->protocol != ZKEY_PROTOCOL_GROTH16)
        return formats_fail(err, errlen, name,
                            "unknown proving system (protocol id %u); g16 proves Groth16 only",
                            z->protocol);
    if (size != 4)
        return formats_fail(err, errlen, name, "section 1 (protocol) has %llu bytes, expected 4",
                            (unsigned long long)size);
    return 0;
}

/* Reads "u32 n8, n8-byte prime" from the header. */
static int take_prime(cursor *c, uint32_t *n8, const uint8_t **prime)
{
    const uint8_t *p = take(c, 4);
    if (!p) return -1;
    *n8 = formats_u32le(p);
    if (!formats_n8_ok(*n8)) return -2;
    *prime = take(c, *n8);
    return *prime ? 0 : -1;
}

static int check_curve(zkey *z, const char *name, char *err, size_t errlen)
{
    formats_field fq = formats_field_of_prime(z->q, z->n8q);
    z->curve = formats_curve_of_prime(z->q, z->n8q);
    if (z->curve == FORMATS_CURVE_UNKNOWN || fq != formats_base_field(z->curve))
        return formats_fail(
            err, errlen, name,
            "unsupported curve (base field modulus is neither BN254's nor BLS12-381's)");
    if (formats_field_of_prime(z->r, z->n8r) != formats_scalar_field(z->curve))
        return formats_fail(err, errlen, name,
                            "scalar field modulus does not match the %s base field",
                            formats_curve_name(z->curve));
    return 0;
}

static int read_header_points(zkey *z, cursor *c)
{
    uint64_t g1 = 2ull * z->n8q, g2 = 4ull * z->n8q;
    z->alpha1 = take(c, g1);
    z->beta1 = take(c, g1);
    z->beta2 = take(c, g2);
    z->gamma2 = take(c, g2);
    z->delta1 = take(c, g1);
    z->delta2 = take(c, g2);
    return z->delta2 ? 0 : -1; /* take() fails from the first short read on */
}

static int parse_header(zkey *z, const char *name, char *err, size_t errlen)
{
    cursor c;
    if (binfile_section_body(&z->file, 2, "header", name, &c.p, &c.left, err, errlen)) return -1;
    int rc = take_prime(&c, &z->n8q, &z->q);
    if (rc == 0) rc = take_prime(&c, &z->n8r, &z->r);
    if (rc == -2)
        return formats_fail(err, errlen, name,
                            "section 2 (header): unsupported field element size");
    const uint8_t *nums = rc == 0 ? take(&c, 12) : NULL;
    if (!nums || read_header_points(z, &c))
        return formats_fail(err, errlen, name, "section 2 (header) is too short");
    if (c.left)
        return formats_fail(err, errlen, name, "section 2 (header) has %llu extra bytes",
                            (unsigned long long)c.left);
    z->n_vars = formats_u32le(nums);
    z->n_public = formats_u32le(nums + 4);
    z->domain_size = formats_u32le(nums + 8);
    return check_curve(z, name, err, errlen);
}

static int check_counts(zkey *z, const char *name, char *err, size_t errlen)
{
    if (z->n_public >= z->n_vars)
        return formats_fail(err, errlen, name, "nPublic (%u) must be less than nVars (%u)",
                            z->n_public, z->n_vars);
    uint32_t d = z->domain_size;
    if (d == 0 || (d & (d - 1)) != 0)
        return formats_fail(err, errlen, name, "domain size %u is not a power of two", d);
    z->log2_domain = (uint32_t)__builtin_ctz(d);
    return 0;
}

static int parse_points(zkey *z, const char *name, char *err, size_t errlen)
{
    const uint64_t g1 = 2ull * z->n8q, g2 = 4ull * z->n8q;
    const struct {
        uint32_t id;
        const char *what;
        uint64_t count, unit;
        const uint8_t **dst;
    } spec[] = {
        {3, "IC", (uint64_t)z->n_public + 1, g1, &z->ic},
        {5, "A points", z->n_vars, g1, &z->a_points},
        {6, "B1 points", z->n_vars, g1, &z->b1_points},
        {7, "B2 points", z->n_vars, g2, &z->b2_points},
        {8, "C points", (uint64_t)z->n_vars - z->n_public - 1, g1, &z->c_points},
        {9, "H points", z->domain_size, g1, &z->h_points},
    };
    for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
        uint64_t size;
        if (binfile_section_body(&z->file, spec[i].id, spec[i].what, name, spec[i].dst, &size, err,
                                 errlen) ||
            formats_expect_size(name, spec[i].id, spec[i].what, size, spec[i].count, spec[i].unit,
                                err, errlen))
            return -1;
    }
    return 0;
}

/* One pass over the coefficients: the prover indexes its a/b vectors and
 * the witness with these numbers, so they must be in range. */
static int check_coefs(const zkey *z, const char *name, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        zkey_coef c = zkey_coef_at(z, i);
        if (c.matrix > 1)
            return formats_fail(err, errlen, name,
                                "coefficient %u: matrix %u is not 0 (A) or 1 (B)", i, c.matrix);
        if (c.constraint >= z->domain_size)
            return formats_fail(err, errlen, name,
                                "coefficient %u: constraint %u is outside the domain (%u)", i,
                                c.constraint, z->domain_size);
        if (c.signal >= z->n_vars)
            return formats_fail(err, errlen, name,
                                "coefficient %u: signal %u is not below nVars (%u)", i, c.signal,
                                z->n_vars);
        if (!formats_lt(c.value, z->r, z->n8r))
            return formats_fail(err, errlen, name, "coefficient %u: value is not reduced modulo r",
                                i);
    }
    return 0;
}

static int parse_coefs(zkey *z, const char *name, char *err, size_t errlen)
{
    const uint8_t *b;
    uint64_t size, body, want;
    if (binfile_section_body(&z->file, 4, "coefficients", name, &b, &size, err, errlen)) return -1;
    if (size < 4)
        return formats_fail(err, errlen, name,
                            "section 4 (coefficients) has %llu bytes, expected at least 4",
                            (unsigned long long)size);
    z->n_coefs = formats_u32le(b);
    z->coefs = b + 4;
    if (!formats_mul_u64(z->n_coefs, ZKEY_COEF_SIZE(z->n8r), &body) ||
        !formats_add_u64(body, 4, &want))
        return formats_fail(err, errlen, name, "section 4 (coefficients): %u entries overflow",
                            z->n_coefs);
    if (size != want)
        return formats_fail(
            err, errlen, name, "section 4 (coefficients) has %llu bytes, expected %llu (4 + %u*%u)",
            (unsigned long long)size, (unsigned long long)want, z->n_coefs, ZKEY_COEF_SIZE(z->n8r));
    return check_coefs(z, name, err, errlen);
}

int zkey_parse(const uint8_t *buf, size_t len, const char *name, zkey *out, char *err,
               size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (binfile_parse(buf, len, name, "zkey", ZKEY_MAX_VERSION, &out->file, err, errlen) ||
        parse_protocol(out, name, err, errlen) || parse_header(out, name, err, errlen) ||
        check_counts(out, name, err, errlen) || parse_points(out, name, err, errlen) ||
        parse_coefs(out, name, err, errlen))
        return -1;
    return 0;
}

int zkey_open(const char *path, zkey *out, char *err, size_t errlen)
{
    formats_mapping m;
    memset(out, 0, sizeof *out);
    if (formats_map_file(path, &m, err, errlen)) return formats_status_of_errno(errno);
    if (zkey_parse(m.addr, m.len, path, out, err, errlen)) {
        formats_unmap_file(&m);
        memset(out, 0, sizeof *out);
        return G16_ERR_FORMAT;
    }
    out->map = m;
    return 0;
}

void zkey_close(zkey *z)
{
    formats_unmap_file(&z->map);
    memset(z, 0, sizeof *z);
}
