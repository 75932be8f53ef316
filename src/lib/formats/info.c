/* g16_file_info_read (include/g16.h): what `g16 info` shows of a .zkey,
 * .wtns or .r1cs, read with this module's parsers. */
#include <string.h>

#include "formats_internal.h"
#include "g16.h"

_Static_assert(G16_FILE_MAX_SECTIONS == BINFILE_MAX_SECTIONS, "one section limit");

static const char *section_name(const char *magic, uint32_t id)
{
    static const char *const zkey_names[] = {
        NULL,        "protocol",  "header",   "IC",       "coefficients", "A points",
        "B1 points", "B2 points", "C points", "H points", "contributions"};
    static const char *const wtns_names[] = {NULL, "header", "values"};
    static const char *const r1cs_names[] = {NULL,          "header",       "constraints",
                                             "wire labels", "custom gates", "custom gate uses"};
#define PICK(tab) (id < sizeof tab / sizeof tab[0] && tab[id] ? tab[id] : "")
    if (!strcmp(magic, "zkey")) return PICK(zkey_names);
    if (!strcmp(magic, "wtns")) return PICK(wtns_names);
    if (!strcmp(magic, "r1cs")) return PICK(r1cs_names);
    return "";
#undef PICK
}

/* The type is taken from the magic, so a file that is not an iden3 file
 * at all gets a plain "not a ... file" instead of a container error. */
static int check_magic(const formats_mapping *m, const char *path, char *err, size_t errlen)
{
    char magic[5] = {0};
    if (m->len == 0) return formats_fail(err, errlen, path, "empty file");
    for (size_t i = 0; i < 4 && i < m->len; i++) {
        uint8_t c = ((const uint8_t *)m->addr)[i];
        magic[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    if (strcmp(magic, "zkey") && strcmp(magic, "wtns") && strcmp(magic, "r1cs"))
        return formats_fail(err, errlen, path, "not a zkey, wtns or r1cs file (magic \"%s\")",
                            magic);
    return 0;
}

/* The container's fields; section ids mean other things in PLONK/FFLONK
 * keys, so those sections stay unnamed. */
static void fill_container(const binfile *bf, g16_file_info *info)
{
    const binfile_section *p = binfile_find(bf, 1);
    memcpy(info->type, bf->magic, sizeof info->type);
    info->version = bf->version;
    info->n_sections = bf->n_sections;
    if (!strcmp(bf->magic, "zkey")) {
        info->protocol = p && p->size >= 4 ? formats_u32le(bf->buf + p->offset) : 0;
        info->protocol_name = zkey_protocol_name(info->protocol);
    }
    int named = strcmp(bf->magic, "zkey") || info->protocol == ZKEY_PROTOCOL_GROTH16;
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        const binfile_section *s = &bf->sections[i];
        g16_file_section *o = &info->sections[i];
        o->id = s->id;
        o->offset = s->offset;
        o->size = s->size;
        o->name = named ? section_name(bf->magic, s->id) : "";
    }
}

static void fill_zkey(const zkey *z, g16_file_info *info)
{
    info->curve = formats_curve_name(z->curve);
    info->n8q = z->n8q;
    info->n8r = z->n8r;
    info->n_vars = z->n_vars;
    info->n_public = z->n_public;
    info->domain_size = z->domain_size;
    info->log2_domain = z->log2_domain;
    info->n_coefs = z->n_coefs;
}

static void fill_r1cs(const r1cs *r, g16_file_info *info)
{
    info->curve = formats_curve_name(r->curve);
    info->n8 = r->n8;
    info->n_wires = r->n_wires;
    info->n_constraints = r->n_constraints;
    info->n_pub_out = r->n_pub_out;
    info->n_pub_in = r->n_pub_in;
    info->n_prv_in = r->n_prv_in;
    info->n_labels = r->n_labels;
    info->custom_gates = r->uses_custom_gates;
}

/* The typed parse of a file whose container was read. */
static int fill_typed(const formats_mapping *m, const char *path, g16_file_info *info, char *err,
                      size_t errlen)
{
    if (!strcmp(info->type, "zkey")) {
        zkey z;
        if (zkey_parse(m->addr, m->len, path, &z, err, errlen)) return -1;
        fill_zkey(&z, info);
    } else if (!strcmp(info->type, "wtns")) {
        wtns w;
        if (wtns_parse(m->addr, m->len, path, &w, err, errlen)) return -1;
        info->curve = formats_curve_name(w.curve);
        info->n8 = w.n8;
        info->n_witness = w.n_witness;
    } else {
        r1cs r;
        if (r1cs_parse(m->addr, m->len, path, &r, err, errlen)) return -1;
        fill_r1cs(&r, info);
    }
    info->typed = 1;
    return 0;
}

g16_status g16_file_info_read(const char *path, g16_file_info *info, char *err, size_t errlen)
{
    formats_mapping m;
    binfile bf;
    memset(info, 0, sizeof *info);
    if (formats_map_file(path, &m, err, errlen)) return formats_status_of_errno(errno);
    int rc = G16_ERR_FORMAT;
    /* Any version: the typed parser says if it is unsupported. */
    if (!check_magic(&m, path, err, errlen) &&
        !binfile_parse(m.addr, m.len, path, NULL, 0, &bf, err, errlen)) {
        fill_container(&bf, info);
        if (!fill_typed(&m, path, info, err, errlen)) rc = G16_OK;
    }
    formats_unmap_file(&m);
    return rc;
}
