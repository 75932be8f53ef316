/* .r1cs writer, for generated (synthetic) circuits. */
#include <stdlib.h>
#include <string.h>
#include "formats_internal.h"

/* Magic, version 1, 3 sections; section 1 = header. */
static size_t build_r1cs_header(uint8_t *h, const r1cs_desc *d)
{
    memcpy(h, "r1cs", 4);
    formats_put_u32(h + 4, 1);
    formats_put_u32(h + 8, 3);
    formats_put_u32(h + 12, 1);
    formats_put_u64(h + 16, 32ull + d->n8);
    uint8_t *b = h + 24;
    formats_put_u32(b, d->n8);
    memcpy(b + 4, d->prime, d->n8);
    b += 4 + d->n8;
    formats_put_u32(b, d->n_wires);
    formats_put_u32(b + 4, d->n_pub_out);
    formats_put_u32(b + 8, d->n_pub_in);
    formats_put_u32(b + 12, d->n_prv_in);
    formats_put_u64(b + 16, d->n_labels);
    formats_put_u32(b + 24, d->n_constraints);
    return 24 + 32 + d->n8;
}

/* Section 3: wire i has label i, written in chunks to bound memory. */
static int write_identity_labels(atomic_file *f, uint32_t n_wires, char *err, size_t errlen)
{
    uint8_t head[12], chunk[8 * 1024];
    formats_put_u32(head, 3);
    formats_put_u64(head + 4, 8ull * n_wires);
    if (atomic_file_write(f, head, sizeof head, err, errlen)) return -1;
    for (uint64_t w = 0; w < n_wires;) {
        size_t n = 0;
        for (; n < sizeof chunk / 8 && w < n_wires; n++, w++) formats_put_u64(chunk + 8 * n, w);
        if (atomic_file_write(f, chunk, 8 * n, err, errlen)) return -1;
    }
    return 0;
}

int r1cs_write(const char *path, const r1cs_desc *d, char *err, size_t errlen)
{
    if (!formats_n8_ok(d->n8))
        return formats_fail(err, errlen, path, "unsupported field element size %u bytes", d->n8);
    uint64_t io = 1ull + d->n_pub_out + d->n_pub_in + d->n_prv_in;
    if (io > d->n_wires)
        return formats_fail(err, errlen, path, "1 + outputs + inputs (%llu) exceeds nWires (%u)",
                            (unsigned long long)io, d->n_wires);
    if (r1cs_check_constraints(d->constraints, d->size, d->n8, d->prime, d->n_wires,
                               d->n_constraints, path, err, errlen))
        return -1;
    uint8_t head[24 + 32 + 64 + 12];
    size_t h = build_r1cs_header(head, d);
    formats_put_u32(head + h, 2);
    formats_put_u64(head + h + 4, d->size);
    h += 12;
    atomic_file f;
    if (atomic_file_open(&f, path, err, errlen)) return -1;
    if (atomic_file_write(&f, head, h, err, errlen) ||
        atomic_file_write(&f, d->constraints, (size_t)d->size, err, errlen) ||
        write_identity_labels(&f, d->n_wires, err, errlen) || atomic_file_commit(&f, err, errlen)) {
        atomic_file_abort(&f);
        return -1;
    }
    return 0;
}
