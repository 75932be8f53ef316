/* The iden3 binary container: magic, version, section table. */
#include <stdio.h>
#include <string.h>
#include "formats_internal.h"

int formats_fail(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
    if (!err || errlen == 0) return -1;
    int n = snprintf(err, errlen, "%s: ", name ? name : "input");
    if (n >= 0 && (size_t)n < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int formats_expect_size(const char *name, uint32_t id, const char *what, uint64_t size,
                        uint64_t count, uint64_t unit, char *err, size_t errlen)
{
    uint64_t want;
    if (!formats_mul_u64(count, unit, &want))
        return formats_fail(err, errlen, name, "section %u (%s): implied size %llu*%llu overflows",
                            id, what, (unsigned long long)count, (unsigned long long)unit);
    if (size != want)
        return formats_fail(err, errlen, name, "section %u (%s) has %llu bytes, expected %llu", id,
                            what, (unsigned long long)size, (unsigned long long)want);
    return 0;
}

/* Printable form of a 4-byte magic, for "bad magic" messages. */
static void printable_magic(const uint8_t *p, size_t n, char out[5])
{
    for (size_t i = 0; i < 4; i++) out[i] = i < n && p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
    out[4] = 0;
}

static int check_version(const binfile *bf, const char *name, const char *magic,
                         uint32_t max_version, char *err, size_t errlen)
{
    if (magic && (bf->version < 1 || bf->version > max_version))
        return formats_fail(err, errlen, name,
                            "unsupported %s version %u (this reader knows 1..%u)", magic,
                            bf->version, max_version);
    return 0;
}

static int read_section_table(binfile *bf, const char *name, char *err, size_t errlen)
{
    uint64_t pos = 12;
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        if (bf->len - pos < 12)
            return formats_fail(err, errlen, name,
                                "truncated section table (header %u of %u at offset %llu)", i + 1,
                                bf->n_sections, (unsigned long long)pos);
        uint32_t id = formats_u32le(bf->buf + pos);
        uint64_t size = formats_u64le(bf->buf + pos + 4);
        pos += 12;
        if (size > bf->len - pos)
            return formats_fail(err, errlen, name,
                                "truncated section %u (expected %llu bytes, file has %llu)", id,
                                (unsigned long long)size, (unsigned long long)(bf->len - pos));
        bf->sections[i] = (binfile_section){id, pos, size};
        pos += size;
    }
    if (pos != bf->len)
        return formats_fail(err, errlen, name, "%llu unexpected bytes after the last section",
                            (unsigned long long)(bf->len - pos));
    return 0;
}

int binfile_parse(const uint8_t *buf, size_t len, const char *name, const char *magic,
                  uint32_t max_version, binfile *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->buf = buf;
    out->len = len;
    if (len == 0 || !buf) return formats_fail(err, errlen, name, "empty file");
    printable_magic(buf, len, out->magic);
    if (magic && memcmp(buf, magic, len < 4 ? len : 4) != 0)
        return formats_fail(err, errlen, name, "not a %s file (bad magic)", magic);
    if (len < 12)
        return formats_fail(err, errlen, name, "truncated header (12 bytes needed, file has %zu)",
                            len);
    out->version = formats_u32le(buf + 4);
    out->n_sections = formats_u32le(buf + 8);
    if (check_version(out, name, magic, max_version, err, errlen)) return -1;
    if (out->n_sections > BINFILE_MAX_SECTIONS)
        return formats_fail(err, errlen, name, "too many sections (%u, at most %u)",
                            out->n_sections, BINFILE_MAX_SECTIONS);
    return read_section_table(out, name, err, errlen);
}

const binfile_section *binfile_find(const binfile *bf, uint32_t id)
{
    for (uint32_t i = 0; i < bf->n_sections; i++)
        if (bf->sections[i].id == id) return &bf->sections[i];
    return NULL;
}

int binfile_section_body(const binfile *bf, uint32_t id, const char *what, const char *name,
                         const uint8_t **body, uint64_t *size, char *err, size_t errlen)
{
    const binfile_section *s = binfile_find(bf, id);
    if (!s) return formats_fail(err, errlen, name, "missing section %u (%s)", id, what);
    for (const binfile_section *t = s + 1; t < bf->sections + bf->n_sections; t++)
        if (t->id == id)
            return formats_fail(err, errlen, name, "duplicate section %u (%s)", id, what);
    *body = bf->buf + s->offset;
    *size = s->size;
    return 0;
}
