/* g16 info FILE...: what a zkey/wtns/r1cs file holds, without proving. */
#include <stdio.h>
#include <string.h>
#include "info.h"
#include "formats/formats.h"

static const char info_usage[] =
    "usage: g16 info FILE...\n"
    "\n"
    "Prints the header of each snarkjs/circom binary file: its type (by\n"
    "magic: zkey, wtns or r1cs), version, curve, sizes (signals, public\n"
    "inputs, domain, coefficients, witness length, wires, constraints)\n"
    "and its section table (id, offset, size).  The file is fully\n"
    "validated; a damaged file is reported on stderr and the exit status\n"
    "is 1.\n";

static const char *section_name(const char *magic, uint32_t id)
{
    static const char *const zkey_names[] = {
        NULL, "protocol", "header", "IC", "coefficients", "A points",
        "B1 points", "B2 points", "C points", "H points", "contributions"};
    static const char *const wtns_names[] = {NULL, "header", "values"};
    static const char *const r1cs_names[] = {
        NULL, "header", "constraints", "wire labels", "custom gates",
        "custom gate uses"};
#define PICK(tab) (id < sizeof tab / sizeof tab[0] && tab[id] ? tab[id] : "")
    if (!strcmp(magic, "zkey"))
        return PICK(zkey_names);
    if (!strcmp(magic, "wtns"))
        return PICK(wtns_names);
    if (!strcmp(magic, "r1cs"))
        return PICK(r1cs_names);
    return "";
#undef PICK
}

/* The protocol id from section 1 of a zkey, 0 if unreadable. */
static uint32_t raw_zkey_protocol(const binfile *bf)
{
    const binfile_section *s = binfile_find(bf, 1);
    if (strcmp(bf->magic, "zkey") || !s || s->size < 4)
        return 0;
    return formats_u32le(bf->buf + s->offset);
}

static void print_sections(const binfile *bf)
{
    /* Section ids mean different things in PLONK/FFLONK keys. */
    int named = strcmp(bf->magic, "zkey") ||
                raw_zkey_protocol(bf) == ZKEY_PROTOCOL_GROTH16;
    printf("sections:     %u\n", bf->n_sections);
    printf("  %4s %14s %14s\n", "id", "offset", "size");
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        const binfile_section *s = &bf->sections[i];
        printf("  %4u %14llu %14llu  %s\n", s->id,
               (unsigned long long)s->offset, (unsigned long long)s->size,
               named ? section_name(bf->magic, s->id) : "");
    }
}

static void print_zkey(const zkey *z)
{
    printf("curve:        %s\n", formats_curve_name(z->curve));
    printf("n8q / n8r:    %u / %u bytes\n", z->n8q, z->n8r);
    printf("nVars:        %u\n", z->n_vars);
    printf("nPublic:      %u\n", z->n_public);
    printf("nPrivate:     %u\n", z->n_vars - z->n_public - 1);
    printf("domain size:  %u (2^%u)\n", z->domain_size, z->log2_domain);
    printf("nCoefs:       %u\n", z->n_coefs);
}

static void print_wtns(const wtns *w)
{
    printf("curve:        %s\n", formats_curve_name(w->curve));
    printf("n8:           %u bytes\n", w->n8);
    printf("nWitness:     %u\n", w->n_witness);
}

static void print_r1cs(const r1cs *r)
{
    printf("curve:        %s\n", formats_curve_name(r->curve));
    printf("n8:           %u bytes\n", r->n8);
    printf("wires:        %u\n", r->n_wires);
    printf("constraints:  %u\n", r->n_constraints);
    printf("outputs:      %u\n", r->n_pub_out);
    printf("public in:    %u\n", r->n_pub_in);
    printf("private in:   %u\n", r->n_prv_in);
    printf("labels:       %llu\n", (unsigned long long)r->n_labels);
    if (r->uses_custom_gates)
        printf("custom gates: yes (PLONK only)\n");
}

/* Parses by type and prints the type-specific lines; err on failure. */
static int print_typed(const formats_mapping *m, const binfile *bf,
                       const char *path, char *err, size_t errlen)
{
    const uint8_t *buf = m->addr;
    if (!strcmp(bf->magic, "zkey")) {
        zkey z;
        uint32_t protocol = raw_zkey_protocol(bf);
        printf("protocol:     %s (%u)\n", zkey_protocol_name(protocol),
               protocol);
        if (zkey_parse(buf, m->len, path, &z, err, errlen))
            return -1;
        print_zkey(&z);
    } else if (!strcmp(bf->magic, "wtns")) {
        wtns w;
        if (wtns_parse(buf, m->len, path, &w, err, errlen))
            return -1;
        print_wtns(&w);
    } else {
        r1cs r;
        if (r1cs_parse(buf, m->len, path, &r, err, errlen))
            return -1;
        print_r1cs(&r);
    }
    return 0;
}

static int known_magic(const char *magic)
{
    return !strcmp(magic, "zkey") || !strcmp(magic, "wtns") ||
           !strcmp(magic, "r1cs");
}

/* The type is taken from the magic, so a file that is not an iden3 file
 * at all gets a plain "not a ... file" instead of a container error. */
static int check_magic(const formats_mapping *m, const char *path)
{
    char magic[5] = {0};
    if (m->len == 0) {
        fprintf(stderr, "g16 info: %s: empty file\n", path);
        return -1;
    }
    for (size_t i = 0; i < 4 && i < m->len; i++) {
        uint8_t c = ((const uint8_t *)m->addr)[i];
        magic[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    if (!known_magic(magic)) {
        fprintf(stderr,
                "g16 info: %s: not a zkey, wtns or r1cs file (magic \"%s\")\n",
                path, magic);
        return -1;
    }
    return 0;
}

static int info_file(const char *path)
{
    char err[512];
    formats_mapping m;
    binfile bf;
    if (formats_map_file(path, &m, err, sizeof err)) {
        fprintf(stderr, "g16 info: %s\n", err);
        return 1;
    }
    int rc = 1;
    if (check_magic(&m, path) == 0) {
        /* Any version: the typed parser below says if it is unsupported. */
        if (binfile_parse(m.addr, m.len, path, NULL, 0, &bf, err,
                          sizeof err) == 0) {
            printf("file:         %s\n", path);
            printf("type:         %s, version %u\n", bf.magic, bf.version);
            rc = print_typed(&m, &bf, path, err, sizeof err) ? 1 : 0;
            print_sections(&bf);
        }
        if (rc) {
            fflush(stdout); /* keep the error after what was printed */
            fprintf(stderr, "g16 info: %s\n", err);
        }
    }
    formats_unmap_file(&m);
    return rc;
}

int cli_info(int argc, char **argv)
{
    int first = 1, rc = 0;
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        fputs(info_usage, stdout);
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--"))
        first = 2;
    if (first >= argc) {
        fputs(info_usage, stderr);
        return 2;
    }
    for (int i = first; i < argc; i++) {
        if (i > first)
            putchar('\n');
        rc |= info_file(argv[i]);
    }
    return rc;
}
