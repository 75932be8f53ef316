/* Glue between libg16 and one circom witness calculator translated to C by
 * wasm2c.  This file is not part of libg16's build: its text is embedded in
 * libg16, which compiles it at run time as a single translation unit with
 * the circuit's generated C (circuit.c / circuit.h, module name "circuit")
 * and wasm2c's runtime (wasm-rt-impl.c) into the circuit's shared object.
 * Only the table g16w_api_v1 (glue_abi.h) is exported.
 *
 * Safety: a .wasm is untrusted code.  wasm2c's explicit bounds checks are
 * on (no guard pages or signal handlers, which would be process-wide), its
 * call-depth limit turns runaway recursion into a trap, and every entry
 * below runs under setjmp so a trap or a circom exception returns an error
 * instead of ending the process.
 *
 * Threads: each instance has its own linear memory, tables and globals, so
 * instances may run on different threads at once.  wasm2c's runtime keeps
 * its call depth in process globals; the macros below redirect them to
 * thread-local counters (initial-exec: no lookup call in every function
 * prologue).
 *
 * Time: a calculation that never ends (a circom loop whose exit the input
 * never reaches) must become an error too.  libg16 rewrites wasm2c's output
 * (ticks.c) so that every branch back to a loop's head and the entry of
 * every function that calls others evaluates G16W_TICK(): a thread-local
 * countdown, and every G16W_FUEL_SLICE ticks a look at the clock against
 * the instance's deadline, stopping it like a trap when the deadline has
 * passed.  Every endless run of wasm code passes one of those points
 * (WebAssembly has no other backward jumps, and a recursion runs through
 * functions that call), the check happens only inside translated code
 * (never in the runtime's realloc or in our imports' callbacks, so
 * unwinding there is as safe as a trap), and nothing process-wide is
 * touched: no signals, timers or threads in a library that Node.js and
 * other programs embed (a signal could also land inside the runtime's
 * realloc, where unwinding would corrupt the heap), and no child process
 * (the witness stays in the caller's memory and budget).  The cost is a
 * few instructions per check: see bench/RESULTS.md. */
#define WASM_RT_MEMCHECK_SIGNAL_HANDLER 0
#define WASM_RT_TRAP_HANDLER            g16w_trap
#define wasm_rt_call_stack_depth        (*g16w_depth())
#define wasm_rt_saved_call_stack_depth  (*g16w_saved_depth())

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define G16W_TLS static __thread __attribute__((tls_model("initial-exec")))
G16W_TLS uint32_t g16w_depth_count;
G16W_TLS uint32_t g16w_saved_depth_count;
static uint32_t *g16w_depth(void) { return &g16w_depth_count; }
static uint32_t *g16w_saved_depth(void) { return &g16w_saved_depth_count; }
static void g16w_trap(int code) __attribute__((noreturn));

/* 2^16 ticks are at least tens of microseconds of work, against some 20
 * ns for reading the clock: the check costs nothing measurable and a
 * deadline is noticed within milliseconds. */
#define G16W_FUEL_SLICE (1u << 16)
G16W_TLS uint32_t g16w_fuel;
static int g16w_refuel(void);
#define G16W_TICK() (__builtin_expect(--g16w_fuel == 0, 0) && g16w_refuel())

#include "glue_abi.h"
#include "wasm-rt-impl.c"
#include "native_fr.h" /* before the circuit: native_fr.c's wrappers call it */

/* Transparent huge pages for the linear memory: a 2^20 circuit's 47 MB
 * page-faulted in 4 KiB pieces cost a fifth of its time in the kernel (a
 * fault is dear in a virtual machine).  Advised as soon as it is
 * allocated, before instantiation copies the data segments in (4 MB at
 * 2^20).  On this instance's own pages only; where the kernel has huge
 * pages off it does nothing. */
static void g16w_advise_huge(const wasm_rt_memory_t *m)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t start = ((uintptr_t)m->data + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)m->data + m->size) & ~(huge - 1);
    if (end > start) madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)m;
#endif
}

static void g16w_stop_running(int why) __attribute__((noreturn));

static uint32_t g16w_running_cap(uint32_t module_max_pages);

/* The circuit's memory allocation (instantiation calls it, guarded):
 * capped at the instance's limit from the start, so that the start code
 * run next cannot grow it beyond (never below the module's initial size,
 * which its data segments need); wasm2c's runtime, which does not check
 * that calloc succeeded (it would then copy the data segments through a
 * null pointer), then the advice. */
static void g16w_allocate_memory(wasm_rt_memory_t *m, uint32_t initial_pages, uint32_t max_pages)
{
    uint32_t cap = g16w_running_cap(max_pages);
    if (cap && max_pages > cap) max_pages = cap > initial_pages ? cap : initial_pages;
    wasm_rt_allocate_memory(m, initial_pages, max_pages);
    if (!m->data) g16w_stop_running(G16W_NOMEM);
    g16w_advise_huge(m);
}
#define wasm_rt_allocate_memory g16w_allocate_memory
#include "circuit.c"
#undef wasm_rt_allocate_memory

#define G16W_EXPORT    __attribute__((visibility("default")))
#define G16W_ERROR_CAP 2048 /* bytes of error text kept (a bound for hostile circuits) */

struct Z_runtime_instance_t {
    struct g16w_instance *self;
};

struct g16w_instance {
    Z_circuit_instance_t wasm;
    struct Z_runtime_instance_t runtime;
    g16w_log log;
    jmp_buf *unwind;            /* the entry now running */
    uint64_t deadline_ns;       /* CLOCK_MONOTONIC; 0: none */
    uint32_t cap_pages;         /* create's max_pages (0: none), for the allocation */
    uint32_t module_max_pages;  /* the module's own limit (0: not allocated yet) */
    int stop;                   /* why it stopped (glue_abi.h codes) */
    int spent;                  /* witness was called: no other call runs */
    char error[G16W_ERROR_CAP]; /* printErrorMessage text, '\n' between parts */
    size_t error_len;
};

G16W_TLS struct g16w_instance *g16w_running;

static void g16w_stop(struct g16w_instance *self, int why) __attribute__((noreturn));
static void g16w_stop(struct g16w_instance *self, int why)
{
    self->stop = why;
    longjmp(*self->unwind, 1);
}

static void g16w_stop_running(int why) { g16w_stop(g16w_running, why); }

/* The running instance's cap, as its memory is allocated with the
 * module's own limit (kept: configure may raise the cap up to it). */
static uint32_t g16w_running_cap(uint32_t module_max_pages)
{
    g16w_running->module_max_pages = module_max_pages;
    return g16w_running->cap_pages;
}

static void g16w_append_error(struct g16w_instance *self, const char *text)
{
    size_t room = sizeof self->error - self->error_len;
    int n = snprintf(self->error + self->error_len, room, "%s\n", text);
    self->error_len += n < 0 ? 0 : (size_t)n < room ? (size_t)n : room - 1;
}

static void g16w_trap(int code)
{
    g16w_append_error(g16w_running, wasm_rt_strerror((wasm_rt_trap_t)code));
    g16w_stop(g16w_running, G16W_TRAP | code);
}

static uint64_t g16w_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The slice is used up: stop the running instance if its deadline has
 * passed, else give it another slice (0: the tick goes on). */
static int g16w_refuel(void)
{
    struct g16w_instance *self = g16w_running;
    if (self && self->deadline_ns && g16w_now_ns() >= self->deadline_ns)
        g16w_stop(self, G16W_TIMEOUT);
    g16w_fuel = G16W_FUEL_SLICE;
    return 0;
}

/* Runs body with traps and circom exceptions caught; evaluates to 0 or
 * the reason it stopped.  The caller's jmp_buf lives in its frame. */
#define G16W_GUARDED(self, body)                                                                   \
    do {                                                                                           \
        jmp_buf unwind_;                                                                           \
        struct g16w_instance *outer_ = g16w_running;                                               \
        g16w_running = (self);                                                                     \
        (self)->unwind = &unwind_;                                                                 \
        (self)->stop = 0;                                                                          \
        g16w_depth_count = g16w_saved_depth_count = 0;                                             \
        g16w_fuel = G16W_FUEL_SLICE;                                                               \
        if (setjmp(unwind_) == 0) { body; }                                                        \
        g16w_running = outer_;                                                                     \
        return (self)->stop;                                                                       \
    } while (0)

/* Reads the circuit's pending message (getMessageChar until 0) into buf,
 * keeping at most cap - 1 bytes; a circuit that never ends its message is
 * cut off after a bounded number of reads. */
static void g16w_read_message(struct g16w_instance *self, char *buf, size_t cap)
{
    size_t n = 0;
    for (size_t reads = 0; reads < 65536; reads++) {
        uint32_t c = Z_circuitZ_getMessageChar(&self->wasm);
        if (c == 0) break;
        if (n + 1 < cap) buf[n++] = (char)c;
    }
    buf[n] = 0;
}

void Z_runtimeZ_exceptionHandler(struct Z_runtime_instance_t *rt, u32 code)
{
    g16w_stop(rt->self, G16W_EXCEPTION | (int)(code & 0xff));
}

void Z_runtimeZ_printErrorMessage(struct Z_runtime_instance_t *rt)
{
    struct g16w_instance *self = rt->self;
    char part[G16W_ERROR_CAP];
    g16w_read_message(self, part, sizeof part);
    g16w_append_error(self, part);
}

void Z_runtimeZ_writeBufferMessage(struct Z_runtime_instance_t *rt)
{
    struct g16w_instance *self = rt->self;
    char part[G16W_ERROR_CAP];
    g16w_read_message(self, part, sizeof part);
    if (self->log.text) self->log.text(self->log.ctx, part);
}

void Z_runtimeZ_showSharedRWMemory(struct Z_runtime_instance_t *rt)
{
    struct g16w_instance *self = rt->self;
    uint32_t n32 = Z_circuitZ_getFieldNumLen32(&self->wasm), words[G16W_MAX_N32];
    if (n32 > G16W_MAX_N32) n32 = G16W_MAX_N32;
    for (uint32_t j = 0; j < n32; j++) words[j] = Z_circuitZ_readSharedRWMemory(&self->wasm, j);
    if (self->log.value) self->log.value(self->log.ctx, words, n32);
}

static pthread_once_t g16w_module_once = PTHREAD_ONCE_INIT;
static int g16w_module_ready;
static void g16w_module_init(void)
{
    wasm_rt_init();
    Z_circuit_init_module();
    g16w_module_ready = 1;
}

/* dlclose: the runtime's function-type table would otherwise outlive the
 * object that points to it (a leak each time a circuit is unloaded). */
__attribute__((destructor)) static void g16w_module_fini(void)
{
    if (g16w_module_ready) wasm_rt_free();
}

/* Instantiation runs the module's start code and data copies, which can
 * trap too (a data segment beyond the memory). */
static int g16w_instantiate(struct g16w_instance *self)
{
    G16W_GUARDED(self, Z_circuit_instantiate(&self->wasm, &self->runtime));
}

static void glue_configure(g16w_instance *self, uint32_t max_pages, uint64_t deadline_ns,
                           const g16w_log *log)
{
    wasm_rt_memory_t *m = &self->wasm.w2c_memory;
    self->deadline_ns = deadline_ns;
    self->log = log ? *log : (g16w_log){0};
    /* Raised as well as lowered: the instance an open made under a small
     * cap serves a calculation under the larger one set after it.  Growth
     * reallocates (no reserved range), so any limit up to the module's is
     * safe. */
    if (max_pages && self->module_max_pages) {
        uint32_t cap = max_pages < self->module_max_pages ? max_pages : self->module_max_pages;
        m->max_pages = cap < m->pages ? m->pages : cap;
    }
}

static g16w_instance *glue_create(uint32_t max_pages, uint64_t deadline_ns, const g16w_log *log,
                                  int *why)
{
    pthread_once(&g16w_module_once, g16w_module_init);
    *why = G16W_NOMEM;
    struct g16w_instance *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->runtime.self = self;
    self->cap_pages = max_pages;
    glue_configure(self, 0, deadline_ns, log);
    int stop = g16w_instantiate(self);
    if (stop || !self->wasm.w2c_memory.data) {
        if (stop) *why = stop;
        if (self->wasm.w2c_memory.data) Z_circuit_free(&self->wasm);
        free(self);
        return NULL;
    }
    *why = 0;
    glue_configure(self, max_pages, deadline_ns, log);
    return self;
}

static void glue_destroy(g16w_instance *self)
{
    if (!self) return;
    Z_circuit_free(&self->wasm);
    free(self);
}

static void g16w_read_shared(struct g16w_instance *self, uint32_t *out, uint32_t n32)
{
    for (uint32_t j = 0; j < n32; j++) out[j] = Z_circuitZ_readSharedRWMemory(&self->wasm, j);
}

static void g16w_info_body(struct g16w_instance *self, g16w_info *out)
{
    memset(out, 0, sizeof *out);
    out->version = Z_circuitZ_getVersion(&self->wasm);
    out->minor = Z_circuitZ_getMinorVersion(&self->wasm);
    out->patch = Z_circuitZ_getPatchVersion(&self->wasm);
    out->n32 = Z_circuitZ_getFieldNumLen32(&self->wasm);
    out->witness_size = Z_circuitZ_getWitnessSize(&self->wasm);
    out->input_size = Z_circuitZ_getInputSize(&self->wasm);
    if (out->n32 == 0 || out->n32 > G16W_MAX_N32) return; /* the caller rejects it */
    Z_circuitZ_getRawPrime(&self->wasm);
    g16w_read_shared(self, out->prime, out->n32);
}

/* Calls that run circuit code other than witness: refused once witness
 * has run (glue_abi.h). */
#define G16W_UNSPENT(self)                                                                         \
    do {                                                                                           \
        if ((self)->spent) return G16W_SPENT;                                                      \
    } while (0)

static int glue_info(g16w_instance *self, g16w_info *out)
{
    G16W_UNSPENT(self);
    G16W_GUARDED(self, g16w_info_body(self, out));
}

static int glue_init(g16w_instance *self, uint32_t sanity_check)
{
    G16W_UNSPENT(self);
    self->error_len = 0;
    self->error[0] = 0;
    G16W_GUARDED(self, Z_circuitZ_init(&self->wasm, sanity_check));
}

static int glue_input_size(g16w_instance *self, uint32_t msb, uint32_t lsb, int32_t *size)
{
    G16W_UNSPENT(self);
    G16W_GUARDED(self, *size = (int32_t)Z_circuitZ_getInputSignalSize(&self->wasm, msb, lsb));
}

static void g16w_set_input_body(struct g16w_instance *self, uint32_t msb, uint32_t lsb,
                                uint32_t index, const uint32_t *value)
{
    uint32_t n32 = Z_circuitZ_getFieldNumLen32(&self->wasm);
    for (uint32_t j = 0; j < n32 && j < G16W_MAX_N32; j++)
        Z_circuitZ_writeSharedRWMemory(&self->wasm, j, value[j]);
    Z_circuitZ_setInputSignal(&self->wasm, msb, lsb, index);
}

static int glue_set_input(g16w_instance *self, uint32_t msb, uint32_t lsb, uint32_t index,
                          const uint32_t *value)
{
    G16W_UNSPENT(self);
    G16W_GUARDED(self, g16w_set_input_body(self, msb, lsb, index, value));
}

#ifdef G16N_WITNESS_MAP
/* Witness value i read from the signals as getWitness finds it (native_fr.c
 * recognised it and its callees), its 32 bytes to out; 0, having touched
 * nothing, for an element that only the translation computes or that lies
 * beyond memory (the translation then traps as it must).  Its copy into
 * the shared memory and the conversion's scratch are never made: witness
 * is the instance's last call (glue_abi.h), so nothing reads them. */
static int g16w_witness_native(struct g16w_instance *self, uint32_t i, uint8_t *out,
                               const g16n_prime *p)
{
    const wasm_rt_memory_t *m = &self->wasm.w2c_memory;
    uint32_t at = G16N_WITNESS_MAP + (i << 2); /* the translation's i32 sums */
    if ((uint64_t)at + 4 > m->size) return 0;
    uint32_t s = g16n_ld32(m->data, at) * 40u + G16N_WITNESS_SIGNALS;
    uint64_t v[4];
    if ((uint64_t)s + 40 > m->size || !g16n_witness_value(m->data, s, p, v)) return 0;
    g16n_st4(out, v); /* by words: v was just computed into the stack */
    return 1;
}
#endif

/* Straight into the caller's .wtns buffer: no copy of a million values
 * through a word array (the host is little-endian, native_fr.h); natively
 * where the circuit's getWitness is the one native_fr.c knows and the
 * field has 8 words, else through the translation, value by value. */
static void g16w_witness_body(struct g16w_instance *self, uint8_t *out, uint32_t first,
                              uint32_t count)
{
    uint32_t n32 = Z_circuitZ_getFieldNumLen32(&self->wasm);
#ifdef G16N_WITNESS_MAP
    g16n_prime p;
    int native = n32 == 8 && g16n_prime_load(&self->wasm.w2c_memory, 608u, g16n_mreduct_np32, &p);
#endif
    for (uint32_t i = first; i - first < count; i++) {
#ifdef G16N_WITNESS_MAP
        if (native && g16w_witness_native(self, i, out, &p)) {
            out += 32;
            continue;
        }
#endif
        Z_circuitZ_getWitness(&self->wasm, i);
        for (uint32_t j = 0; j < n32; j++, out += 4) {
            uint32_t word = Z_circuitZ_readSharedRWMemory(&self->wasm, j);
            memcpy(out, &word, 4);
        }
    }
}

static int glue_witness(g16w_instance *self, uint8_t *out, uint32_t first, uint32_t count)
{
    self->spent = 1;
    G16W_GUARDED(self, g16w_witness_body(self, out, first, count));
}

static const char *glue_error_text(const g16w_instance *self) { return self->error; }

static uint32_t glue_pages(const g16w_instance *self)
{
    return (uint32_t)self->wasm.w2c_memory.pages;
}

G16W_EXPORT const g16w_api g16w_api_v1 = {
    G16W_ABI_VERSION, glue_create,    glue_destroy, glue_configure,  glue_info,  glue_init,
    glue_input_size,  glue_set_input, glue_witness, glue_error_text, glue_pages,
};
