/* circom constraint-system reader and writer (r1csfile.js is the
 * reference). */
#include <string.h>
#include "formats_internal.h"

#define R1CS_MAX_VERSION  1
#define R1CS_HEADER_FIXED 32u /* n8, 4 counts, nLabels(u64), nConstraints */

/* Reads one linear combination at *pos; -1 if it runs past the section. */
static int read_lc(const uint8_t *sec, uint64_t size, uint64_t *pos, uint32_t n8, r1cs_lc *lc)
{
    uint64_t bytes;
    if (size - *pos < 4) return -1;
    lc->n_terms = formats_u32le(sec + *pos);
    *pos += 4;
    if (!formats_mul_u64(lc->n_terms, R1CS_TERM_SIZE(n8), &bytes) || bytes > size - *pos) return -1;
    lc->terms = sec + *pos;
    *pos += bytes;
    return 0;
}

static int check_lc_terms(const r1cs_lc *lc, uint32_t n8, const uint8_t *prime, uint32_t n_wires,
                          uint32_t index, const char *name, char *err, size_t errlen)
{
    for (uint32_t t = 0; t < lc->n_terms; t++) {
        const uint8_t *term = lc->terms + (size_t)t * R1CS_TERM_SIZE(n8);
        uint32_t wire = formats_u32le(term);
        if (wire >= n_wires)
            return formats_fail(err, errlen, name,
                                "constraint %u: wire %u is not below nWires (%u)", index, wire,
                                n_wires);
        if (!formats_lt(term + 4, prime, n8))
            return formats_fail(err, errlen, name,
                                "constraint %u: coefficient is not reduced modulo the prime",
                                index);
    }
    return 0;
}

int r1cs_check_constraints(const uint8_t *sec, uint64_t size, uint32_t n8, const uint8_t *prime,
                           uint32_t n_wires, uint32_t n_constraints, const char *name, char *err,
                           size_t errlen)
{
    uint64_t pos = 0;
    for (uint32_t i = 0; i < n_constraints; i++)
        for (int k = 0; k < 3; k++) {
            r1cs_lc lc;
            if (read_lc(sec, size, &pos, n8, &lc))
                return formats_fail(err, errlen, name,
                                    "section 2 (constraints) is truncated in constraint %u of %u",
                                    i, n_constraints);
            if (check_lc_terms(&lc, n8, prime, n_wires, i, name, err, errlen)) return -1;
        }
    if (pos != size)
        return formats_fail(err, errlen, name,
                            "section 2 (constraints) has %llu extra bytes after %u constraints",
                            (unsigned long long)(size - pos), n_constraints);
    return 0;
}

static int check_r1cs_counts(const r1cs *r, const char *name, char *err, size_t errlen)
{
    uint64_t need = 1ull + r->n_pub_out + r->n_pub_in + r->n_prv_in;
    if (need > r->n_wires)
        return formats_fail(err, errlen, name, "1 + outputs + inputs (%llu) exceeds nWires (%u)",
                            (unsigned long long)need, r->n_wires);
    return 0;
}

static int parse_r1cs_header(r1cs *r, const char *name, char *err, size_t errlen)
{
    const uint8_t *b;
    uint64_t size;
    if (binfile_section_body(&r->file, 1, "header", name, &b, &size, err, errlen)) return -1;
    if (size < 4) return formats_fail(err, errlen, name, "section 1 (header) is too short");
    r->n8 = formats_u32le(b);
    if (!formats_n8_ok(r->n8))
        return formats_fail(err, errlen, name, "unsupported field element size %u bytes", r->n8);
    if (formats_expect_size(name, 1, "header", size, 1, (uint64_t)r->n8 + R1CS_HEADER_FIXED, err,
                            errlen))
        return -1;
    r->prime = b + 4;
    b += 4 + r->n8;
    r->n_wires = formats_u32le(b);
    r->n_pub_out = formats_u32le(b + 4);
    r->n_pub_in = formats_u32le(b + 8);
    r->n_prv_in = formats_u32le(b + 12);
    r->n_labels = formats_u64le(b + 16);
    r->n_constraints = formats_u32le(b + 24);
    r->curve = formats_curve_of_prime(r->prime, r->n8);
    return check_r1cs_counts(r, name, err, errlen);
}

/* Section 3 (wire -> label id) is optional; when present it has one u64
 * per wire. */
static int parse_wire_labels(r1cs *r, const char *name, char *err, size_t errlen)
{
    uint64_t size;
    if (!binfile_find(&r->file, 3)) return 0;
    return binfile_section_body(&r->file, 3, "wire labels", name, &r->wire_labels, &size, err,
                                errlen) ||
                   formats_expect_size(name, 3, "wire labels", size, r->n_wires, 8, err, errlen)
               ? -1
               : 0;
}

int r1cs_parse(const uint8_t *buf, size_t len, const char *name, r1cs *out, char *err,
               size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (binfile_parse(buf, len, name, "r1cs", R1CS_MAX_VERSION, &out->file, err, errlen) ||
        parse_r1cs_header(out, name, err, errlen) ||
        binfile_section_body(&out->file, 2, "constraints", name, &out->constraints, &out->size, err,
                             errlen) ||
        r1cs_check_constraints(out->constraints, out->size, out->n8, out->prime, out->n_wires,
                               out->n_constraints, name, err, errlen) ||
        parse_wire_labels(out, name, err, errlen))
        return -1;
    out->version = out->file.version;
    out->uses_custom_gates = binfile_find(&out->file, 4) && binfile_find(&out->file, 5);
    return 0;
}

int r1cs_open(const char *path, r1cs *out, char *err, size_t errlen)
{
    formats_mapping m;
    memset(out, 0, sizeof *out);
    if (formats_map_file(path, &m, err, errlen)) return formats_status_of_errno(errno);
    if (r1cs_parse(m.addr, m.len, path, out, err, errlen)) {
        formats_unmap_file(&m);
        memset(out, 0, sizeof *out);
        return G16_ERR_FORMAT;
    }
    out->map = m;
    return 0;
}

void r1cs_close(r1cs *r)
{
    formats_unmap_file(&r->map);
    memset(r, 0, sizeof *r);
}

void r1cs_iter_init(r1cs_iter *it, const r1cs *r)
{
    it->r = r;
    it->pos = 0;
    it->index = 0;
}

int r1cs_iter_next(r1cs_iter *it, r1cs_lc lc[3])
{
    const r1cs *r = it->r;
    if (it->index >= r->n_constraints) return 0;
    for (int k = 0; k < 3; k++)
        if (it->pos > r->size || read_lc(r->constraints, r->size, &it->pos, r->n8, &lc[k]))
            return -1;
    it->index++;
    return 1;
}
