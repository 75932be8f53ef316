/* The tracing object's rewrite of wasm2c's output (trace_glue.c): its
 * loads and stores defined through the trace's hooks, and the calls of
 * the modelled field functions sent to their wrappers.
 *
 * wasm2c 1.0.32 defines every load and store of the module through the
 * macros DEFINE_LOAD and DEFINE_STORE (their definitions start with the
 * texts below), inside "#if WABT_BIG_ENDIAN", and calls a function f as
 * "w2c_f(instance, ...".  Output that lacks these texts, or that has bulk
 * memory operations (which copy or fill memory without the hooks), gets
 * no tracing object: the circuit then has no graph, and says why. */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/formats.h"
#include "g16.h"
#include "witness/witness.h"

#define HOOKS_AT "#if WABT_BIG_ENDIAN\n"
#define HOOKS    "#include \"trace_hooks.h\"\n"
#define LOAD_DEF "#define DEFINE_LOAD(name, t1, t2, t3)"
#define LOAD_NEW                                                                                   \
    LOAD_DEF " G16T_DEFINE_LOAD(name, t1, t2, t3)\n#define G16T_UNUSED_LOAD(name, t1, t2, t3)"
#define STORE_DEF "#define DEFINE_STORE(name, t1, t2)"
#define STORE_NEW                                                                                  \
    STORE_DEF " G16T_DEFINE_STORE(name, t1, t2)\n#define G16T_UNUSED_STORE(name, t1, t2)"

/* The field functions trace_glue.c models (its wrappers' names). */
static const char *const modelled[] = {
    "Fr_copy",   "Fr_copyn", "Fr_neg",  "Fr_toNormal", "Fr_toLongNormal", "Fr_toMontgomery",
    "Fr_isTrue", "Fr_toInt", "Fr_eqR",  "Fr_add",      "Fr_sub",          "Fr_mul",
    "Fr_div",    "Fr_eq",    "Fr_neq",  "Fr_band",     "Fr_bor",          "Fr_bxor",
    "Fr_shr",    "Fr_shl",   "Fr_lt",   "Fr_gt",       "Fr_leq",          "Fr_geq",
    "Fr_land",   "Fr_lor",   "Fr_lnot", "Fr_bnot",     "Fr_idiv",         "Fr_mod",
    "Fr_pow",    "Fr_inv",
};

/* Calls that would move memory past the hooks (their definitions are
 * always there, as "name(wasm_rt_memory_t*"). */
static const char *const unhooked[] = {"memory_copy(&", "memory_fill(&", "memory_init(&"};

void witness_trace_recipe(struct sha256_ctx *ctx)
{
    const char *parts[] = {HOOKS_AT, HOOKS, LOAD_NEW, STORE_NEW};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        sha256_update(ctx, strlen(parts[i]) + 1, (const uint8_t *)parts[i]);
    for (size_t i = 0; i < sizeof modelled / sizeof *modelled; i++)
        sha256_update(ctx, strlen(modelled[i]) + 1, (const uint8_t *)modelled[i]);
}

typedef struct {
    const char *from, *to;
    size_t count;
} swap;

/* Writes text to f with every occurrence of each swap's from replaced;
 * at each point the first swap that matches wins. */
static int write_swapped(FILE *f, const char *text, size_t len, swap *s, size_t n)
{
    const char *p = text, *end = text + len, *run = text;
    while (p < end) {
        size_t k = n;
        /* every from starts with '#' or 'w' ("w2c_") */
        if (*p == '#' || *p == 'w')
            for (k = 0; k < n; k++)
                if ((size_t)(end - p) >= strlen(s[k].from) &&
                    !memcmp(p, s[k].from, strlen(s[k].from)))
                    break;
        if (k == n) {
            p++;
            continue;
        }
        if (fwrite(run, 1, (size_t)(p - run), f) != (size_t)(p - run) || fputs(s[k].to, f) < 0)
            return -1;
        s[k].count++;
        p += strlen(s[k].from);
        run = p;
    }
    return fwrite(run, 1, (size_t)(end - run), f) == (size_t)(end - run) ? 0 : -1;
}

static int refuse(const char *wasm_path, const char *why, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: no tracing object: %s", wasm_path, why);
    return G16_ERR_UNSUPPORTED;
}

int witness_add_trace(const char *c_path, const char *wasm_path, char *err, size_t errlen)
{
    enum { N = 3 + sizeof modelled / sizeof *modelled };
    swap s[N] = {{HOOKS_AT, HOOKS HOOKS_AT, 0}, {LOAD_DEF, LOAD_NEW, 0}, {STORE_DEF, STORE_NEW, 0}};
    char from[N][64], to[N][64];
    for (size_t i = 3; i < N; i++) {
        snprintf(from[i], sizeof from[i], "w2c_%s(instance,", modelled[i - 3]);
        snprintf(to[i], sizeof to[i], "g16t_%s(instance,", modelled[i - 3]);
        s[i] = (swap){from[i], to[i], 0};
    }
    formats_mapping m;
    if (formats_map_file(c_path, &m, err, errlen)) return G16_ERR_IO;
    const char *text = m.addr ? m.addr : "";
    for (size_t i = 0; i < sizeof unhooked / sizeof *unhooked; i++)
        if (memmem(text, m.len, unhooked[i], strlen(unhooked[i]))) {
            formats_unmap_file(&m);
            return refuse(wasm_path, "the module has bulk memory operations", err, errlen);
        }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.traced", c_path);
    FILE *f = fopen(tmp, "wb");
    int bad = !f || write_swapped(f, text, m.len, s, N);
    if (f && fclose(f)) bad = 1;
    formats_unmap_file(&m);
    if (bad || rename(tmp, c_path)) {
        snprintf(err, errlen, "%s: cannot write %s: %s", wasm_path, tmp, strerror(errno));
        remove(tmp);
        return G16_ERR_IO;
    }
    /* the hooks (included once: guarded), both definitions in each of the two branches */
    if (s[0].count < 1 || s[1].count != 2 || s[2].count != 2)
        return refuse(wasm_path, "wasm2c's output defines its memory accesses otherwise", err,
                      errlen);
    return 0;
}
