/* g16 info FILE...: what a zkey/wtns/r1cs file holds, without proving. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "info.h"
#include "g16.h"
#ifdef G16_CLI_WTNS
#include <stdlib.h>

#include "g16_witness.h"
#include "wtns.h"
#endif

static const char info_usage[] =
    "usage: g16 info [--cache-dir DIR] FILE...\n"
    "\n"
    "Prints the header of each snarkjs/circom binary file: its type (by\n"
    "magic: zkey, wtns or r1cs), version, curve, sizes (signals, public\n"
    "inputs, domain, coefficients, witness length, wires, constraints)\n"
    "and its section table (id, offset, size); for a Groth16 key, the GPU\n"
    "memory it needs to prove whole, with its MSMs in chunks of points,\n"
    "and with its points streamed from host memory (the least budget of\n"
    "each of g16 prove --device-memory-budget's modes).  The file is fully\n"
    "validated; a damaged file is reported on stderr and the exit status\n"
    "is 1.\n"
#ifdef G16_CLI_WTNS
    "\n"
    "A circom witness calculator (circuit.wasm) is opened as `g16 wtns\n"
    "calculate` opens it (compiled into the cache first when it is not\n"
    "there yet): its curve, witness size, memory, and its witness path:\n"
    "\"graph\" when the cache holds the circuit's witness graphs (calculations\n"
    "use them; one per path through its input-dependent branches that a\n"
    "calculation took), else \"wasm\" and why there is none\n"
    "(docs/witness-graph.md).\n"
    "  --cache-dir DIR  the cache (default $XDG_CACHE_HOME/g16, else\n"
    "                   ~/.cache/g16), as for g16 wtns calculate\n"
#endif
    ;

static void print_sections(const g16_file_info *f)
{
    printf("sections:     %u\n", f->n_sections);
    printf("  %4s %14s %14s\n", "id", "offset", "size");
    for (uint32_t i = 0; i < f->n_sections; i++) {
        const g16_file_section *s = &f->sections[i];
        printf("  %4u %14llu %14llu  %s\n", s->id, (unsigned long long)s->offset,
               (unsigned long long)s->size, s->name);
    }
}

/* bytes in GiB, MiB or KiB, one decimal, into out */
static const char *human(size_t bytes, char out[32])
{
    static const char *const unit[] = {"KiB", "MiB", "GiB"};
    double v = bytes / 1024.0;
    int u = 0;
    while (u < 2 && v >= 1024) v /= 1024, u++;
    snprintf(out, 32, "%.1f %s", v, unit[u]);
    return out;
}

static void print_zkey(const g16_file_info *f)
{
    printf("curve:        %s\n", f->curve);
    printf("n8q / n8r:    %u / %u bytes\n", f->n8q, f->n8r);
    printf("nVars:        %u\n", f->n_vars);
    printf("nPublic:      %u\n", f->n_public);
    printf("nPrivate:     %u\n", f->n_vars - f->n_public - 1);
    printf("domain size:  %u (2^%u)\n", f->domain_size, f->log2_domain);
    printf("nCoefs:       %u\n", f->n_coefs);
    size_t gpu[3];
    char h[3][32];
    if (f->protocol == 1 && g16_gpu_memory_needs(f, gpu) == G16_OK)
        printf("GPU memory:   %s whole; with chunked MSMs from %s; streamed from %s\n",
               human(gpu[0], h[0]), human(gpu[1], h[1]), human(gpu[2], h[2]));
}

static void print_wtns(const g16_file_info *f)
{
    printf("curve:        %s\n", f->curve);
    printf("n8:           %u bytes\n", f->n8);
    printf("nWitness:     %u\n", f->n_witness);
}

static void print_r1cs(const g16_file_info *f)
{
    printf("curve:        %s\n", f->curve);
    printf("n8:           %u bytes\n", f->n8);
    printf("wires:        %u\n", f->n_wires);
    printf("constraints:  %u\n", f->n_constraints);
    printf("outputs:      %u\n", f->n_pub_out);
    printf("public in:    %u\n", f->n_pub_in);
    printf("private in:   %u\n", f->n_prv_in);
    printf("labels:       %llu\n", (unsigned long long)f->n_labels);
    if (f->custom_gates) printf("custom gates: yes (PLONK only)\n");
}

#ifdef G16_CLI_WTNS
/* A circuit.wasm: opened (compiled into cache_dir unless cached there)
 * and described, with its witness path. */
static int info_circuit(const char *path, const char *cache_dir)
{
    char err[512];
    g16_circuit *c = NULL;
    int rc = g16_circuit_open(path, cache_dir, &c, err, sizeof err);
    if (rc) {
        fprintf(stderr, "g16 info: %s\n", err);
        return 1;
    }
    g16_circuit_graph_info g;
    if (g16_circuit_graph(c, &g)) g.present = 0;
    const char *curve = g16_circuit_curve(c);
    printf("file:         %s\n", path);
    printf("type:         circom witness calculator (wasm)\n");
    printf("curve:        %s\n", curve ? curve : "none (no curve's scalar field)");
    printf("nWitness:     %u\n", g16_circuit_witness_size(c));
    printf("memory:       %zu bytes at the start\n", g16_circuit_memory_bytes(c));
    printf("compiled:     %s (%s)\n", g16_circuit_compiled(c) ? "now" : "from the cache",
           cache_dir);
    if (g.present)
        printf("witness path: graph (from the cache: %zu bytes, %zu a calculation; %u graph%s, "
               "one per path)\n",
               g.bytes, g.eval_bytes, g.graphs, g.graphs == 1 ? "" : "s");
    else
        printf("witness path: wasm (%s)\n", g.why);
    g16_circuit_close(c);
    return 0;
}

/* Only a regular file is looked into: opening a FIFO would wait for a
 * writer (info_file then refuses it as not a regular file). */
static int is_wasm(const char *path)
{
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode)) return 0;
    FILE *f = fopen(path, "rb");
    unsigned char magic[4] = {0};
    size_t n = f ? fread(magic, 1, 4, f) : 0;
    if (f) fclose(f);
    return n == 4 && !memcmp(magic, "\0asm", 4);
}
#endif

/* What was read is printed even when the file turned out damaged, the
 * error after it. */
static int info_file(const char *path)
{
    char err[512];
    g16_file_info f;
    int rc = g16_file_info_read(path, &f, err, sizeof err);
    if (f.type[0]) {
        printf("file:         %s\n", path);
        printf("type:         %s, version %u\n", f.type, f.version);
        if (!strcmp(f.type, "zkey")) printf("protocol:     %s (%u)\n", f.protocol_name, f.protocol);
        if (f.typed && !strcmp(f.type, "zkey"))
            print_zkey(&f);
        else if (f.typed && !strcmp(f.type, "wtns"))
            print_wtns(&f);
        else if (f.typed)
            print_r1cs(&f);
        print_sections(&f);
        fflush(stdout); /* keep the error after what was printed */
    }
    if (rc) fprintf(stderr, "g16 info: %s\n", err);
    return rc ? 1 : 0;
}

int cli_info(int argc, char **argv)
{
    int first = 1, rc = 0;
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        fputs(info_usage, stdout);
        return 0;
    }
    const char *cache_dir = NULL;
    if (argc > 2 && !strcmp(argv[1], "--cache-dir")) {
        cache_dir = argv[2];
        first = 3;
    }
    if (argc > first && !strcmp(argv[first], "--")) first++;
    if (first >= argc) {
        fputs(info_usage, stderr);
        return 2;
    }
#ifndef G16_CLI_WTNS
    (void)cache_dir;
#else
    char *default_dir = cache_dir ? NULL : cli_cache_dir_default();
    if (!cache_dir) cache_dir = default_dir;
#endif
    for (int i = first; i < argc; i++) {
        if (i > first) putchar('\n');
#ifdef G16_CLI_WTNS
        if (is_wasm(argv[i])) {
            if (!cache_dir) {
                fprintf(stderr,
                        "g16 info: %s: no cache directory: set HOME or XDG_CACHE_HOME, "
                        "or give --cache-dir\n",
                        argv[i]);
                rc = 1;
            } else {
                rc |= info_circuit(argv[i], cache_dir);
            }
            continue;
        }
#endif
        rc |= info_file(argv[i]);
    }
#ifdef G16_CLI_WTNS
    free(default_dir);
#endif
    return rc;
}
