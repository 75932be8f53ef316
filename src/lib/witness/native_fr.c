/* Native field code in place of circom's runtime in wasm2c's output (the
 * code itself, and its contract, are in native_fr.h).
 *
 * circom puts the same field runtime (Fr_copy, Fr_int_add, Fr_F1m_mul, ...)
 * into every witness calculator, at the same addresses, and wasm2c
 * translates it to the same text: a 32-bit-word Montgomery product with a
 * bounds check and a compiler barrier on each of its 32 loads and stores is
 * a third of a SHA-256 witness.  A function is replaced only when its whole
 * text, with the one literal that differs between primes (-p^-1 mod 2^32
 * in the products) taken out, has the SHA-256 listed below: what runs is
 * then known to the byte, and any other circuit, circom version or wasm2c
 * version keeps its translation (slower, never different).  The hashes
 * come from wasm2c 1.0.32's translation of the calculators at hand (every
 * fixture of both curves, tests/witness/data/check.wasm, circom 2.2.3's
 * bench circuits: all the same runtime); tests/witness/native_fr.sh fails
 * when the fixtures' functions stop matching.
 *
 * The translation stays in the file, renamed "<name>_wasm": the product
 * falls back to it, and the tests compare the two.  Function bodies hold no
 * comments or strings (ticks.c), so no module's names fake these texts. */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/formats.h"
#include "g16.h"
#include "witness/witness.h"

/* A literal lifted out of a function's text before it is hashed: the
 * digits between head and tail, which differ between circuits. */
typedef struct {
    const char *head, *tail;
} native_hole;

/* The product's -p^-1 mod 2^32 ("w2c_j0 = <digits>ull;" just before np32
 * is set). */
#define NP_HOLE                                                                                    \
    {                                                                                              \
        "\n  w2c_j0 = ", "ull;\n  w2c_np32 = w2c_j0;\n"                                            \
    }

typedef struct {
    const char *name;    /* wasm2c's name of the function, without w2c_ */
    const char *ret;     /* its return type in wasm2c's text */
    const char *sha256;  /* of its text from "static" to the closing "}\n",
                          * each hole's digits replaced by "NP" */
    const char *wrapper; /* the replacement: a printf format of the holes'
                          * digits, in order */
    const char *needs;   /* functions (space-separated) this one's
                          * replacement relies on, found before it in the
                          * text, or NULL */
    native_hole holes[2];
    int keep; /* 1: the translation keeps its name and place, and the
               * wrapper text is written after it (a function only
               * recognised, or one whose constants the glue reads) */
} native_fn;

static const native_fn natives[] = {
    {"Fr_copy", "void", "c40b6152121fffc605bdfe5de328940f4056a4041c11bfeb2b66408578e96651",
     "static void w2c_Fr_copy(Z_circuit_instance_t* instance, u32 r, u32 x) {FUNC_PROLOGUE; "
     "g16n_copy(&instance->w2c_memory, r, x, 5); FUNC_EPILOGUE;}\n",
     NULL, .keep = 0},
    {"Fr_int_copy", "void", "4c6bfccf7740b58f34c346fc56ee763d07cd7b3e7052c9d0d43837ac514059ff",
     "static void w2c_Fr_int_copy(Z_circuit_instance_t* instance, u32 x, u32 r) {FUNC_PROLOGUE; "
     "g16n_copy(&instance->w2c_memory, r, x, 4); FUNC_EPILOGUE;}\n",
     NULL, .keep = 0},
    {"Fr_int_zero", "void", "e4dd8f15bf17aef5a1b2d1a22f0c64102407f1a7e94560de313d2a122292188d",
     "static void w2c_Fr_int_zero(Z_circuit_instance_t* instance, u32 r) {FUNC_PROLOGUE; "
     "g16n_zero(&instance->w2c_memory, r); FUNC_EPILOGUE;}\n",
     NULL, .keep = 0},
    {"Fr_int_add", "u32", "619d1c20efa7f6131fd50e67b1f4552622b562e4f20656d326168a91c27a8b7f",
     "static u32 w2c_Fr_int_add(Z_circuit_instance_t* instance, u32 x, u32 y, u32 r) "
     "{FUNC_PROLOGUE; u32 c = g16n_int_add(&instance->w2c_memory, x, y, r); FUNC_EPILOGUE; "
     "return c;}\n",
     NULL, .keep = 0},
    {"Fr_int_sub", "u32", "1dc6a85350db6044873c88972e61defe539b34e7c8214290645e25854373082d",
     "static u32 w2c_Fr_int_sub(Z_circuit_instance_t* instance, u32 x, u32 y, u32 r) "
     "{FUNC_PROLOGUE; u32 c = g16n_int_sub(&instance->w2c_memory, x, y, r); FUNC_EPILOGUE; "
     "return c;}\n",
     NULL, .keep = 0},
    {"Fr_int_gt", "u32", "b3e2e56526ceb17df6b50699e0ae8e40981d64d2b2b22245c1f286137184bf50",
     "static u32 w2c_Fr_int_gt(Z_circuit_instance_t* instance, u32 x, u32 y) {FUNC_PROLOGUE; "
     "u32 c = g16n_int_cmp(&instance->w2c_memory, x, y, 0); FUNC_EPILOGUE; return c;}\n",
     NULL, .keep = 0},
    {"Fr_int_gte", "u32", "a6d51276ac126e82cddb1f7d86d9c9bf70ea62168c64f3c77d30733c145d4022",
     "static u32 w2c_Fr_int_gte(Z_circuit_instance_t* instance, u32 x, u32 y) {FUNC_PROLOGUE; "
     "u32 c = g16n_int_cmp(&instance->w2c_memory, x, y, 1); FUNC_EPILOGUE; return c;}\n",
     NULL, .keep = 0},
    {"Fr_int_eq", "u32", "480783c3a3f9af8f3759ad42afd2ee936bee3179fd8321f185130d588b25d45b",
     "static u32 w2c_Fr_int_eq(Z_circuit_instance_t* instance, u32 x, u32 y) {FUNC_PROLOGUE; "
     "u32 c = g16n_int_cmp(&instance->w2c_memory, x, y, 2); FUNC_EPILOGUE; return c;}\n",
     NULL, .keep = 0},
    /* The element functions: the type byte, then the translation's calls. */
    {"Fr_toNormal", "void", "a426d63a446fad7d8e49fc82157afc586c785da69fe53e4eaa365f25176f69cc",
     "static void w2c_Fr_toNormal(Z_circuit_instance_t* instance, u32 a) {FUNC_PROLOGUE; "
     "if (g16n_to_normal(&instance->w2c_memory, a)) "
     "w2c_Fr_F1m_fromMontgomery(instance, a + 8u, a + 8u); FUNC_EPILOGUE;}\n",
     NULL, .keep = 0},
    /* 1920: (p - 1) / 2, the largest value that is not negative. */
    {"Fr_isNegative", "u32", "f713814d5a746d9bb112e149e7c4f6c45a0b349aa4ff0a1c00d8912689dfa7e5",
     "static u32 w2c_Fr_isNegative(Z_circuit_instance_t* instance, u32 a) {FUNC_PROLOGUE; "
     "u32 v; if (g16n_type(&instance->w2c_memory, a) & 128) {w2c_Fr_toNormal(instance, a); "
     "v = w2c_Fr_int_gt(instance, a + 8u, 1920u);} "
     "else v = (s32)g16n_ld32(instance->w2c_memory.data, a) < 0; FUNC_EPILOGUE; return v;}\n",
     NULL, .keep = 0},
    {"Fr_getLsb32", "u32", "7e77fb685304bb8ce63ebcf64812e7114e738ecd9f35405806c702a6e02c06c2",
     "static u32 w2c_Fr_getLsb32(Z_circuit_instance_t* instance, u32 a) {FUNC_PROLOGUE; "
     "u32 v; if (g16n_type(&instance->w2c_memory, a) & 128) {w2c_Fr_toNormal(instance, a); "
     "v = g16n_limb32(&instance->w2c_memory, a);} "
     "else v = g16n_ld32(instance->w2c_memory.data, a); FUNC_EPILOGUE; return v;}\n",
     NULL, .keep = 0},
    /* 1920 as in Fr_isNegative; the translation for what stores or traps,
     * called before this call's depth is counted, as the product's. */
    {"Fr_toInt", "u32", "7d31ac1e126ad025f7473ce2d1a2e5514b1c41c8abb93a5c212db5fe06a4b9c3",
     "G16N_FALLBACK static u32 w2c_Fr_toInt_wasm(Z_circuit_instance_t*, u32);\n"
     "static u32 w2c_Fr_toInt(Z_circuit_instance_t* instance, u32 a) {u32 v; "
     "if (wasm_rt_call_stack_depth + 3 > WASM_RT_MAX_CALL_STACK_DEPTH || "
     "!g16n_to_int(&instance->w2c_memory, a, 1920u, &v)) return w2c_Fr_toInt_wasm(instance, a); "
     "return v;}\n",
     NULL, .keep = 0},
    {"Fr_lt", "void", "41c2c78e5a8fa360481e32e93d3a33cb66ecbec29f0862470243c4bcae266153",
     "G16N_FALLBACK static void w2c_Fr_lt_wasm(Z_circuit_instance_t*, u32, u32, u32);\n"
     "static void w2c_Fr_lt(Z_circuit_instance_t* instance, u32 r, u32 a, u32 b) {"
     "if (wasm_rt_call_stack_depth + 4 > WASM_RT_MAX_CALL_STACK_DEPTH || "
     "!g16n_lt(&instance->w2c_memory, r, a, b, 1920u)) w2c_Fr_lt_wasm(instance, r, a, b);}\n",
     NULL, .keep = 0},
    /* The prime at 608, as Fr_F1m_mul's. */
    {"Fr_F1m_add", "void", "d6c16068415e3b94082dfe800edbad67af11d3312ab25e1b66dae8529b43a995",
     "G16N_FALLBACK static void w2c_Fr_F1m_add_wasm(Z_circuit_instance_t*, u32, u32, u32);\n"
     "static void w2c_Fr_F1m_add(Z_circuit_instance_t* instance, u32 x, u32 y, u32 r) {"
     "if (wasm_rt_call_stack_depth + 2 > WASM_RT_MAX_CALL_STACK_DEPTH || "
     "!g16n_f1m_add(&instance->w2c_memory, x, y, r, 608u)) w2c_Fr_F1m_add_wasm(instance, x, y, "
     "r);}\n",
     NULL, .keep = 0},
    /* Two long elements, both Montgomery or both normal: r's type word,
     * then Fr_F1m_add on the limbs (the prime at 608). */
    {"Fr_add", "void", "a5c2d87f031a2c493ba99ff8cc7be56ab14f0ba40127545dae360313fc4f650d",
     "G16N_FALLBACK static void w2c_Fr_add_wasm(Z_circuit_instance_t*, u32, u32, u32);\n"
     "static void w2c_Fr_add(Z_circuit_instance_t* instance, u32 r, u32 a, u32 b) {"
     "if (wasm_rt_call_stack_depth + 3 > WASM_RT_MAX_CALL_STACK_DEPTH || "
     "!g16n_add_type(&instance->w2c_memory, r, a, b)) {w2c_Fr_add_wasm(instance, r, a, b); "
     "return;} FUNC_PROLOGUE; "
     "if (!g16n_f1m_add(&instance->w2c_memory, a + 8u, b + 8u, r + 8u, 608u)) "
     "w2c_Fr_F1m_add(instance, a + 8u, b + 8u, r + 8u); FUNC_EPILOGUE;}\n",
     NULL, .keep = 0},
    /* The reduction's prime at 608, its carries at 992, then
     * Fr_F1m_add(992, t + 32, r); its -p^-1 kept for fromMontgomery. */
    {"Fr_F1m_mReduct", "void", "09ed1ca7159afa610dae147eeb8ac6901c2331c089d69dd2293fd8882158cc24",
     "static const u32 g16n_mreduct_np32 = %su;\n"
     "static void w2c_Fr_F1m_mReduct(Z_circuit_instance_t* instance, u32 t, u32 r) "
     "{FUNC_PROLOGUE; g16n_mreduct(&instance->w2c_memory, t, 608u, 992u, g16n_mreduct_np32); "
     "w2c_Fr_F1m_add(instance, 992u, t + 32u, r); FUNC_EPILOGUE;}\n",
     NULL, .holes = {NP_HOLE}},
    /* Fr_int_copy(x, 1504), Fr_int_zero(1536), Fr_F1m_mReduct(1504, r)
     * (the prime at 608, the carries at 992, mReduct's -p^-1) in one, then
     * the reduction's Fr_F1m_add(992, 1536, r); the translation for what
     * stores otherwise or traps, called before this call's depth is
     * counted: the translation goes 4 calls deep (mReduct, Fr_F1m_add,
     * Fr_int_add). */
    {"Fr_F1m_fromMontgomery", "void",
     "c06a9f0993ac6d409d033b5e0482c50dddb5922751ce4064d35337c1fa81b96b",
     "G16N_FALLBACK static void w2c_Fr_F1m_fromMontgomery_wasm(Z_circuit_instance_t*, u32, u32);\n"
     "static void w2c_Fr_F1m_fromMontgomery(Z_circuit_instance_t* instance, u32 x, u32 r) {"
     "if (wasm_rt_call_stack_depth + 4 > WASM_RT_MAX_CALL_STACK_DEPTH || "
     "!g16n_from_mont(&instance->w2c_memory, x, 1504u, 608u, 992u, g16n_mreduct_np32)) "
     "{w2c_Fr_F1m_fromMontgomery_wasm(instance, x, r); return;} FUNC_PROLOGUE; "
     "if (!g16n_f1m_add(&instance->w2c_memory, 992u, 1536u, r, 608u)) "
     "w2c_Fr_F1m_add(instance, 992u, 1536u, r); FUNC_EPILOGUE;}\n",
     "Fr_F1m_mReduct", .keep = 0},
    /* The translation reads the prime at 608 and ends with Fr_int_sub
     * after a carry, else Fr_int_gte and maybe Fr_int_sub, on r: done
     * natively too, as in Fr_F1m_add; the translation for the rest (r
     * overlapping an operand or the prime, anything beyond memory). */
    {"Fr_F1m_mul", "void", "d3de1afb9c1f579d26381cee4472016a51d3ef2c752f421050c933b080ef6bac",
     "static void w2c_Fr_F1m_mul(Z_circuit_instance_t* instance, u32 x, u32 y, u32 r) "
     "{g16n_prime p; if (wasm_rt_call_stack_depth + 2 > WASM_RT_MAX_CALL_STACK_DEPTH || "
     "!g16n_prime_load(&instance->w2c_memory, 608u, %su, &p) || "
     "!g16n_f1m_mul(&instance->w2c_memory, x, y, r, 608u, &p)) "
     "w2c_Fr_F1m_mul_wasm(instance, x, y, r);}\n",
     NULL, .holes = {NP_HOLE}},
    /* Recognised only: what glue.c's witness reading computes natively
     * (native_fr.h's g16n_witness_value) is what these do. */
    {"Fr_rawCopyS2L", "void", "d0d8d14f83b193e18a17390ea2cc804148f5b2835dc0967a0aee5737cb6a9dd3",
     "", NULL, .keep = 1},
    {"Fr_toLongNormal", "void", "8d061d23086330c7132b6d84c2d709a7993cb61e2af9381acceac13474468c1a",
     "", "Fr_rawCopyS2L Fr_F1m_fromMontgomery", .keep = 1},
    /* Where the witness is: value i is the element (40 bytes) at
     * signals + 40 * (the 32-bit word at map + 4 i), copied to circom's
     * shared memory and made long and normal there; the glue reads it
     * from the signals itself (glue.c). */
    {"getWitness", "void", "7179c609de9fdb194b63f503659783b7d3b975382c1d88f26dffa38b1743e350",
     "#define G16N_WITNESS_MAP %su\n#define G16N_WITNESS_SIGNALS %su\n", "Fr_copy Fr_toLongNormal",
     .holes = {{"\n  w2c_i0 = ", "u;\n  w2c_i1 = w2c_p;"},
               {"\n  w2c_i1 = ", "u;\n  w2c_i0 += w2c_i1;\n  w2c_c = w2c_i0;"}},
     .keep = 1},
};
#define N_NATIVES (sizeof natives / sizeof natives[0])

/* One function found in the text. */
typedef struct {
    const native_fn *fn;
    const char *start, *end; /* "static ..." to after its "\n}\n" */
    char vals[2][16];        /* the holes' digits */
} found;

void witness_native_recipe(struct sha256_ctx *ctx)
{
    for (size_t i = 0; i < N_NATIVES; i++) {
        const native_fn *fn = &natives[i];
        const char *parts[] = {fn->name, fn->sha256, fn->wrapper, fn->needs ? fn->needs : "",
                               fn->keep ? "keep" : ""};
        for (size_t j = 0; j < 5; j++)
            sha256_update(ctx, strlen(parts[j]) + 1, (const uint8_t *)parts[j]);
    }
}

static const char *find(const char *p, const char *end, const char *what)
{
    return memmem(p, (size_t)(end - p), what, strlen(what));
}

/* The hole's digits in [p, end), copied to val; where they start, or NULL
 * when the hole is not there. */
static const char *hole_digits(const native_hole *h, const char *p, const char *end, char val[16])
{
    const char *tail = find(p, end, h->tail);
    if (!tail) return NULL;
    const char *d = tail;
    while (d > p && d[-1] >= '0' && d[-1] <= '9') d--;
    size_t n = (size_t)(tail - d), head = strlen(h->head);
    if (n == 0 || n > 10 || (size_t)(d - p) < head || memcmp(d - head, h->head, head) ||
        strtoull(d, NULL, 10) > 0xffffffffull)
        return NULL;
    memcpy(val, d, n);
    val[n] = 0;
    return d;
}

/* Whether [start, end) hashes to fn's text, with each hole's digits read
 * into f->vals and replaced by "NP" for the hash. */
static int matches(found *f, const char *start, const char *end)
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    for (int i = 0; i < 2 && f->fn->holes[i].tail; i++) {
        const char *d = hole_digits(&f->fn->holes[i], start, end, f->vals[i]);
        if (!d) return 0;
        sha256_update(&ctx, (size_t)(d - start), (const uint8_t *)start);
        sha256_update(&ctx, 2, (const uint8_t *)"NP");
        start = d + strlen(f->vals[i]);
    }
    sha256_update(&ctx, (size_t)(end - start), (const uint8_t *)start);
    uint8_t d[SHA256_DIGEST_SIZE];
    char hex[2 * SHA256_DIGEST_SIZE + 1];
    sha256_digest(&ctx, sizeof d, d);
    for (size_t i = 0; i < sizeof d; i++) sprintf(hex + 2 * i, "%02x", d[i]);
    return !strcmp(hex, f->fn->sha256);
}

/* The definition of fn in the text, when it is the one expected. */
static int locate(const native_fn *fn, const char *text, const char *end, found *f)
{
    char head[128];
    snprintf(head, sizeof head, "\nstatic %s w2c_%s(Z_circuit_instance_t* instance,", fn->ret,
             fn->name);
    const char *s = find(text, end, head);
    if (!s) return 0;
    const char *e = find(s, end, "\n}\n");
    if (!e) return 0;
    f->fn = fn;
    f->start = s + 1;
    f->end = e + 3;
    return matches(f, f->start, f->end);
}

static int by_start(const void *a, const void *b)
{
    const found *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Whether fs[0..n) holds the function called name. */
static int among(const found *fs, size_t n, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(fs[i].fn->name) == len && !memcmp(fs[i].fn->name, name, len)) return 1;
    return 0;
}

/* fs (in text order) less the functions whose needed functions are not
 * all among those kept before them; the new count. */
static size_t keep_needed(found *fs, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        int ok = 1;
        for (const char *p = fs[i].fn->needs; ok && p && *p;) {
            size_t len = strcspn(p, " ");
            ok = among(fs, kept, p, len);
            p += len + (p[len] == ' ');
        }
        if (ok) fs[kept++] = fs[i];
    }
    return kept;
}

/* Each found function renamed "<name>_wasm" (unless kept), its wrapper
 * text after it. */
static int write_native(FILE *out, const char *text, const char *end, const found *fs, size_t n)
{
    const char *p = text;
    for (size_t i = 0; i < n; i++) {
        const found *f = &fs[i];
        const char *name = f->fn->keep ? f->end : strstr(f->start, "(Z_circuit_instance_t*");
        if (fwrite(p, 1, (size_t)(name - p), out) != (size_t)(name - p) ||
            (!f->fn->keep && fputs("_wasm", out) < 0) ||
            fwrite(name, 1, (size_t)(f->end - name), out) != (size_t)(f->end - name) ||
            fprintf(out, f->fn->wrapper, f->vals[0], f->vals[1]) < 0)
            return -1;
        p = f->end;
    }
    return fwrite(p, 1, (size_t)(end - p), out) == (size_t)(end - p) ? 0 : -1;
}

int witness_add_native(const char *c_path, const char *wasm_path, size_t *replaced, char *err,
                       size_t errlen)
{
    *replaced = 0;
    formats_mapping m;
    if (formats_map_file(c_path, &m, err, errlen)) return G16_ERR_IO;
    const char *text = m.addr ? m.addr : "", *end = text + m.len;
    found fs[N_NATIVES];
    size_t n = 0;
    for (size_t i = 0; i < N_NATIVES; i++)
        if (locate(&natives[i], text, end, &fs[n])) n++;
    qsort(fs, n, sizeof *fs, by_start);
    n = keep_needed(fs, n);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.native", c_path);
    FILE *out = n ? fopen(tmp, "wb") : NULL;
    int bad = n && (!out || write_native(out, text, end, fs, n));
    if (out && fclose(out)) bad = 1;
    formats_unmap_file(&m);
    if (bad || (n && rename(tmp, c_path))) {
        snprintf(err, errlen, "%s: cannot write %s: %s", wasm_path, tmp, strerror(errno));
        remove(tmp);
        return G16_ERR_IO;
    }
    *replaced = n;
    return 0;
}
