/* The time bound's check points in wasm2c's output (see glue.c, "Time").
 *
 * wasm2c writes a branch to a loop's head as "goto w2c_L<n>;" (WebAssembly
 * has no other backward jumps: every endless loop takes one) and starts
 * every function with "FUNC_PROLOGUE;" (every unbounded recursion passes
 * one).  Both become a G16W_TICK() first.  The loop form is one statement,
 * "if (G16W_TICK()) {} else goto w2c_L<n>;", so it stays right even after
 * an unbraced if (the else binds to the inner if).  The replacements add
 * no quote, backslash or comment delimiter, so an occurrence inside a
 * comment or string that a hostile module's names put there stays one.
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

typedef struct {
    const char *from, *to;
} tick_rule;

#define LOOP_BRANCH   "goto w2c_L"
#define LOOP_TICKED   "if (G16W_TICK()) {} else " LOOP_BRANCH
#define PROLOGUE      "FUNC_PROLOGUE;"
#define PROLOGUE_TICK PROLOGUE " (void)G16W_TICK();"

static const tick_rule rules[] = {{LOOP_BRANCH, LOOP_TICKED}, {PROLOGUE, PROLOGUE_TICK}};
#define N_RULES (sizeof rules / sizeof rules[0])

const char witness_tick_recipe[] = LOOP_TICKED "\n" PROLOGUE_TICK;

/* The next occurrence of any rule's text at or after p, its rule in *which. */
static const char *next_match(const char *p, const char *end, size_t *which)
{
    const char *best = NULL;
    for (size_t r = 0; r < N_RULES; r++) {
        const char *q = memmem(p, (size_t)(end - p), rules[r].from, strlen(rules[r].from));
        if (q && (!best || q < best)) {
            best = q;
            *which = r;
        }
    }
    return best;
}

/* Writes text to f with every rule applied, counting replacements. */
static int write_ticked(FILE *f, const char *text, size_t len, size_t count[N_RULES])
{
    const char *p = text, *end = text + len, *q;
    size_t r;
    while ((q = next_match(p, end, &r))) {
        if (fwrite(p, 1, (size_t)(q - p), f) != (size_t)(q - p) || fputs(rules[r].to, f) < 0)
            return -1;
        count[r]++;
        p = q + strlen(rules[r].from);
    }
    return fwrite(p, 1, (size_t)(end - p), f) == (size_t)(end - p) ? 0 : -1;
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
    size_t count[N_RULES] = {0};
    FILE *f = fopen(tmp, "wb");
    int bad = !f || write_ticked(f, m.addr ? m.addr : "", m.len, count);
    if (f && fclose(f)) bad = 1;
    int loops = has_loop_label(m.addr ? m.addr : "", m.len);
    formats_unmap_file(&m);
    if (bad || rename(tmp, c_path)) {
        snprintf(err, errlen, "%s: cannot write %s: %s", wasm_path, tmp, strerror(errno));
        remove(tmp);
        return G16_ERR_IO;
    }
    if (count[1] == 0 || (loops && count[0] == 0)) {
        snprintf(err, errlen,
                 "%s: wasm2c's output has no %s where the time limit's checks go (another "
                 "wasm2c version?)",
                 wasm_path, count[1] ? "loop branches" : "function prologues");
        return G16_ERR_INTERNAL;
    }
    return 0;
}
