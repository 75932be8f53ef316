/* The time bound's check points in wasm2c's output (see glue.c, "Time").
 *
 * wasm2c writes a branch to a loop's head as "goto w2c_L<n>;" (WebAssembly
 * has no other backward jumps: every endless loop takes one) and starts
 * every function with a line "  FUNC_PROLOGUE;".  Every loop branch gets a
 * G16W_TICK() first, as one statement, "if (G16W_TICK()) {} else goto
 * w2c_L<n>;", so it stays right even after an unbraced if (the else binds
 * to the inner if).  A prologue gets one when the function calls anything:
 * a call passes the instance ("(instance" in the text: direct calls,
 * CALL_INDIRECT, imports), and every recursion, however it fans out, only
 * runs through functions that call.  Leaving the many small leaf functions
 * (circom's field arithmetic) without a check keeps the cost down: a
 * function's text is taken as everything up to the next prologue, a
 * superset of its body, so an error can only add checks.  Function bodies
 * hold no comments or strings (names appear only in the export comments
 * after the last function), so no module's names can fake these texts.
 *
 * A translation with loop labels but no rewritten branch, or without
 * function prologues, means a wasm2c whose output looks different: the
 * build fails rather than run circuits without the bound. */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "formats/formats.h"
#include "g16.h"
#include "witness/witness.h"

#define LOOP_BRANCH   "goto w2c_L"
#define LOOP_TICKED   "if (G16W_TICK()) {} else " LOOP_BRANCH
#define PROLOGUE      "\n  FUNC_PROLOGUE;\n"
#define PROLOGUE_TICK "\n  FUNC_PROLOGUE; (void)G16W_TICK();\n"
#define CALLS         "(instance"

const char witness_tick_recipe[] = LOOP_TICKED "|" PROLOGUE_TICK "|when it has " CALLS;

typedef struct {
    FILE *f;
    size_t loops, prologues; /* checks written */
} ticked;

static const char *find(const char *p, const char *end, const char *what)
{
    return memmem(p, (size_t)(end - p), what, strlen(what));
}

static int put(ticked *t, const char *p, size_t n) { return fwrite(p, 1, n, t->f) == n ? 0 : -1; }

/* [p, end) with every loop branch checked. */
static int put_loops(ticked *t, const char *p, const char *end)
{
    for (const char *q; (q = find(p, end, LOOP_BRANCH)); p = q + strlen(LOOP_BRANCH)) {
        if (put(t, p, (size_t)(q - p)) || fputs(LOOP_TICKED, t->f) < 0) return -1;
        t->loops++;
    }
    return put(t, p, (size_t)(end - p));
}

/* The text up to the first prologue, then each function from its prologue
 * to the next one. */
static int write_ticked(ticked *t, const char *text, size_t len)
{
    const char *end = text + len, *fn = find(text, end, PROLOGUE);
    if (put_loops(t, text, fn ? fn : end)) return -1;
    while (fn) {
        const char *body = fn + strlen(PROLOGUE), *next = find(body, end, PROLOGUE);
        const char *stop = next ? next : end;
        int calls = find(body, stop, CALLS) != NULL;
        if (fputs(calls ? PROLOGUE_TICK : PROLOGUE, t->f) < 0 || put_loops(t, body, stop))
            return -1;
        t->prologues++;
        fn = next;
    }
    return 0;
}

/* Whether wasm2c declared any loop label ("w2c_L<digit>...:"). */
static int has_loop_label(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    while ((p = memmem(p, (size_t)(end - p), "w2c_L", 5))) {
        p += 5;
        while (p < end && *p >= '0' && *p <= '9') p++;
        if (p < end && *p == ':' && p[-1] >= '0' && p[-1] <= '9') return 1;
    }
    return 0;
}

int witness_add_ticks(const char *c_path, const char *wasm_path, char *err, size_t errlen)
{
    formats_mapping m;
    if (formats_map_file(c_path, &m, err, errlen)) return G16_ERR_IO;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.ticked", c_path);
    ticked t = {fopen(tmp, "wb"), 0, 0};
    int bad = !t.f || write_ticked(&t, m.addr ? m.addr : "", m.len);
    if (t.f && fclose(t.f)) bad = 1;
    int loops = has_loop_label(m.addr ? m.addr : "", m.len);
    formats_unmap_file(&m);
    if (bad || rename(tmp, c_path)) {
        snprintf(err, errlen, "%s: cannot write %s: %s", wasm_path, tmp, strerror(errno));
        remove(tmp);
        return G16_ERR_IO;
    }
    if (t.prologues == 0 || (loops && t.loops == 0)) {
        snprintf(err, errlen,
                 "%s: wasm2c's output has no %s where the time limit's checks go (another "
                 "wasm2c version?)",
                 wasm_path, t.prologues ? "loop branches" : "function prologues");
        return G16_ERR_INTERNAL;
    }
    return 0;
}
