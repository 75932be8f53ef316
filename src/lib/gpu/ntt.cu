/* NTT and the proof's element-wise steps for both scalar fields. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dfield.cuh"
#include "gpu/gpu.h"
#include "gpu/internal.h"

/* One pass's geometry (ntt_template.cuh, N_(pass_addr)).  warp: 0 for a
 * block pass, 1 where each warp runs one column alone (mlog 0, a "block"
 * of the geometry is a warp; ntt_template.cuh, N_(pass_warp_dev)), its
 * plain loads in batches (N_(warp_copy_in)). */
typedef struct {
    int L, s0, k, mlog, warp;
} ntt_pass;

/* The butterflies' product (ntt_template.cuh, N_(twiddle_mul)). */
enum { NTT_MONT, NTT_SHOUP };

#define NF       d_bn254_fr
#define NTT_NAME ntt_bn254
#include "gpu/ntt_template.cuh"

#define NF       d_bls12_381_fr
#define NTT_NAME ntt_bls12_381
#include "gpu/ntt_template.cuh"

/* From 2^10 the bit reversal goes by tiles (ntt_template.cuh), below by
 * single swaps. */
#define NTT_TILE_MIN_LOG 10

/* Passes of at most 8 levels, as even as L allows (2^20: 7, 7, 6 rather
 * than 8, 8, 4, whose last pass would leave most of a block idle), with
 * blocks of up to 2^10 elements.  Passes of 7 or 8 levels (a column of
 * 2^k elements gives every lane of a warp a radix-4 item at each step)
 * run a column a warp, without block barriers (a natural-order 2^24
 * BN254 NTT in 4.56 ms against 4.84 with block passes); shorter passes
 * run as blocks.
 * Returns the number of passes. */
#define NTT_WARP_MIN_K 7
static int ntt_plan(int L, ntt_pass ps[4])
{
    int np = (L + 7) / 8, s0 = 0;
    for (int i = 0; i < np; i++) {
        int k = L / np + (i < L % np), hlo_log = L - s0 - k, warp = k >= NTT_WARP_MIN_K;
        ps[i] = (ntt_pass){L, s0, k, warp ? 0 : hlo_log < 10 - k ? hlo_log : 10 - k, warp};
        s0 += k;
    }
    return np;
}

/* Warps a block for a warp pass: 4 (32 KB of columns and 16 KB of Shoup
 * table at k = 8; registers allow four such blocks an SM, and the Shoup
 * table, shared by the block's warps, costs a third of the shared memory;
 * measured 4.37 ms a 2^24 BN254 transform against 4.54 with 8 warps and
 * 4.93 with 2); fewer where the transform has fewer columns. */
#define NTT_WARPS_A_BLOCK 4
static int ntt_warps(const ntt_pass *ps)
{
    int cols_log = ps->L - ps->k, w = 1;
    while (2 * w <= NTT_WARPS_A_BLOCK && (w << 1) <= (1 << (cols_log < 3 ? cols_log : 3))) w <<= 1;
    return w;
}

/* Tables for one (curve, size), device or host memory: twiddles omega^t
 * and omega^-t (t < n/2), 1/n, and, built when first needed, the coset
 * powers g^j and g^-j / n (natural-order coset transforms) and g^bitrev(j)
 * / n (the round trip's last inverse pass).  Device tables are kept until
 * gpu_release, since a key proves many witnesses at one size. */
typedef struct {
    int curve, log_n;
    void *tw, *itw, *cos, *icos, *cosbr, *inv_n;
    void *stab[2][9]; /* [inverse][k]: Shoup small tables (ntt_template.cuh) */
} ntt_tables;

/* The butterflies' product: Shoup's where the field allows it (BN254's
 * scalar field: 4.90 ms a 2^24 transform against Montgomery's 5.19),
 * else Montgomery's. */
static int ntt_mode(int curve)
{
    int shoup_ok = curve == FORMATS_CURVE_BN128 ? d_bn254_fr_shoup_ok() : d_bls12_381_fr_shoup_ok();
    return shoup_ok ? NTT_SHOUP : NTT_MONT;
}

/* The transform sequence, shared by the device and the emulation: ops run
 * one step on the data, with tables from the same memory. */
typedef struct {
    void *ctx;
    void (*pass)(void *ctx, const ntt_pass *ps, const void *tw, const void *stab, const void *scale,
                 int dit);
    void (*bitrev)(void *ctx, const void *scale);
    void (*mul_table)(void *ctx, const void *tab);
} ntt_ops;

static void ntt_sequence(const ntt_ops *o, int L, int flags, const ntt_tables *t)
{
    ntt_pass ps[4];
    int np = ntt_plan(L, ps), inv = flags & GPU_NTT_INVERSE, coset = flags & GPU_NTT_COSET;
    if (L == 0) return; /* n = 1: every variant is the identity */
    if (flags & GPU_NTT_ROUND_TRIP) {
        for (int i = 0; i < np; i++)
            o->pass(o->ctx, &ps[i], t->itw, t->stab[1][ps[i].k], i == np - 1 ? t->cosbr : NULL, 0);
        for (int i = np - 1; i >= 0; i--)
            o->pass(o->ctx, &ps[i], t->tw, t->stab[0][ps[i].k], NULL, 1);
        return;
    }
    if (coset && !inv) o->mul_table(o->ctx, t->cos);
    for (int i = 0; i < np; i++)
        o->pass(o->ctx, &ps[i], inv ? t->itw : t->tw, t->stab[!!inv][ps[i].k], NULL, 0);
    o->bitrev(o->ctx, inv && !coset ? t->inv_n : NULL);
    if (coset && inv) o->mul_table(o->ctx, t->icos);
}

/* ---- on the device ---- */

static ntt_tables tables[4];

static void host_powers_tables(int curve, const uint8_t *base, size_t count, uint8_t *lo,
                               uint8_t **hi_out, size_t *nhi)
{
    uint8_t big[32];
    gpu_host_powers(curve, base, 4097, lo); /* lo[4096] = base^4096 */
    memcpy(big, lo + 4096 * 32, 32);
    *nhi = (count + 4095) / 4096;
    *hi_out = (uint8_t *)malloc(*nhi * 32);
    gpu_host_powers(curve, big, *nhi, *hi_out);
}

/* dst[t] = base^t * (scale or 1), t < count, expanded on the device, then
 * permuted to dst[bitrev(t)] when brev_log > 0. */
static int build_powers(int curve, const uint8_t *base, const uint8_t *scale, size_t count,
                        int brev_log, void **dst, cudaStream_t st, char *err, size_t errlen)
{
    uint8_t *lo = (uint8_t *)malloc(4097 * 32), *hi = NULL;
    size_t nhi;
    void *dlo, *dhi;
    host_powers_tables(curve, base, count, lo, &hi, &nhi);
    if (scale)
        for (size_t u = 0; u < nhi; u++) gpu_host_mul(curve, hi + 32 * u, scale, hi + 32 * u);
    cudaError_t e = cudaMalloc(dst, count * 32);
    if (e == cudaSuccess) e = cudaMalloc(&dlo, 4096 * 32);
    if (e == cudaSuccess) e = cudaMalloc(&dhi, nhi * 32);
    /* on st, before the kernel that reads them: a plain cudaMemcpy from
     * pageable memory may return before its transfer lands, and st, a
     * non-blocking stream, does not wait for the legacy stream's copies */
    if (e == cudaSuccess) e = cudaMemcpyAsync(dlo, lo, 4096 * 32, cudaMemcpyHostToDevice, st);
    if (e == cudaSuccess) e = cudaMemcpyAsync(dhi, hi, nhi * 32, cudaMemcpyHostToDevice, st);
    free(lo);
    free(hi);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "gpu: NTT tables: %s", cudaGetErrorString(e));
        return -1;
    }
    unsigned blocks = (unsigned)((count + 255) / 256);
    if (curve == FORMATS_CURVE_BN128) {
        ntt_bn254_expand<<<blocks, 256, 0, st>>>((d_bn254_fr *)*dst, (d_bn254_fr *)dlo,
                                                 (d_bn254_fr *)dhi, count);
        if (brev_log) ntt_bn254_bitrev<<<blocks, 256, 0, st>>>((d_bn254_fr *)*dst, brev_log, NULL);
    } else {
        ntt_bls12_381_expand<<<blocks, 256, 0, st>>>((d_bls12_381_fr *)*dst, (d_bls12_381_fr *)dlo,
                                                     (d_bls12_381_fr *)dhi, count);
        if (brev_log)
            ntt_bls12_381_bitrev<<<blocks, 256, 0, st>>>((d_bls12_381_fr *)*dst, brev_log, NULL);
    }
    GPU_CK_LAUNCH();
    GPU_CK(cudaStreamSynchronize(st));
    cudaFree(dlo);
    cudaFree(dhi);
    return 0;
}

/* The Shoup small tables of every k in the plan, both directions, from
 * the twiddles (fields where shoup_ok only: BN254's). */
static int build_shoup_tables(ntt_tables *t, cudaStream_t st, char *err, size_t errlen)
{
    ntt_pass ps[4];
    int np = ntt_plan(t->log_n, ps);
    if (t->curve != FORMATS_CURVE_BN128 || !d_bn254_fr_shoup_ok()) return 0;
    for (int i = 0; i < np; i++)
        for (int inv = 0; inv < 2; inv++) {
            void **dst = &t->stab[inv][ps[i].k];
            unsigned ntw = (1u << ps[i].k) - 1;
            if (*dst) continue;
            GPU_CK(cudaMalloc(dst, (size_t)ntt_bn254_shoup_table_count(&ps[i]) * 32));
            ntt_bn254_shoup_table<<<(ntw + 63) / 64, 64, 0, st>>>(
                (d_bn254_fr *)*dst, ps[i], (const d_bn254_fr *)(inv ? t->itw : t->tw));
            GPU_CK_LAUNCH();
        }
    GPU_CK(cudaStreamSynchronize(st));
    return 0;
}

static void free_tables(ntt_tables *t)
{
    cudaFree(t->tw);
    cudaFree(t->itw);
    cudaFree(t->cos);
    cudaFree(t->icos);
    cudaFree(t->cosbr);
    cudaFree(t->inv_n);
    for (int inv = 0; inv < 2; inv++)
        for (int k = 0; k < 9; k++) cudaFree(t->stab[inv][k]);
    memset(t, 0, sizeof *t);
}

/* The tables flags needs, building what is missing. */
static ntt_tables *get_tables_locked(int slot, int curve, int log_n, int flags, cudaStream_t st,
                                     char *err, size_t errlen)
{
    ntt_tables *t = &tables[slot];
    int rt = flags & GPU_NTT_ROUND_TRIP, coset = !rt && (flags & GPU_NTT_COSET);
    int inv = !rt && (flags & GPU_NTT_INVERSE);
    int need_cos = coset && !inv && !t->cos, need_icos = coset && inv && !t->icos;
    int need_cosbr = rt && !t->cosbr;
    if (t->tw && !need_cos && !need_icos && !need_cosbr) return t; /* every proof after the first */
    uint8_t w[32], iw[32], g[32], ig[32], inv_n[32];
    size_t n = (size_t)1 << log_n, half = n / 2 ? n / 2 : 1;
    if (gpu_host_root(curve, log_n, 0, w) || gpu_host_root(curve, log_n, 1, iw) ||
        gpu_host_coset(curve, log_n, 0, g) || gpu_host_coset(curve, log_n, 1, ig)) {
        snprintf(err, errlen, "gpu: no root of unity of order 2^%d", log_n);
        return NULL;
    }
    gpu_host_inv_n(curve, log_n, inv_n);
    if (!t->tw) {
        t->curve = curve;
        t->log_n = log_n;
        if (build_powers(curve, w, NULL, half, 0, &t->tw, st, err, errlen) ||
            build_powers(curve, iw, NULL, half, 0, &t->itw, st, err, errlen))
            return NULL;
        cudaError_t e = cudaMalloc(&t->inv_n, 32);
        if (e == cudaSuccess) /* on st, as build_powers's seeds */
            e = cudaMemcpyAsync(t->inv_n, inv_n, 32, cudaMemcpyHostToDevice, st);
        if (e == cudaSuccess) e = cudaStreamSynchronize(st);
        if (e != cudaSuccess) {
            snprintf(err, errlen, "gpu: NTT tables: %s", cudaGetErrorString(e));
            return NULL;
        }
        if (build_shoup_tables(t, st, err, errlen)) return NULL;
    }
    if ((need_cos && build_powers(curve, g, NULL, n, 0, &t->cos, st, err, errlen)) ||
        (need_icos && build_powers(curve, ig, inv_n, n, 0, &t->icos, st, err, errlen)) ||
        (need_cosbr && build_powers(curve, g, inv_n, n, log_n, &t->cosbr, st, err, errlen)))
        return NULL;
    return t;
}

/* A key's two lanes, and several keys, run their NTTs from several
 * threads at once: a table is built whole (build_powers waits for its
 * stream) before another caller can see it, and a slot is never evicted
 * while a caller is still launching with it (table_users).  Launches
 * already queued with an evicted table are safe: cudaFree waits for the
 * device's outstanding work before the memory goes. */
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tables_released = PTHREAD_COND_INITIALIZER;
static int table_users[4];

/* The slot for (curve, log_n): its own, an empty one, or the first one
 * nobody is launching with, evicted (sizes rarely change within a
 * process); -1 while all four are in use.  tables_lock held. */
static int pick_slot(int curve, int log_n)
{
    for (int i = 0; i < 4; i++)
        if (tables[i].tw && tables[i].curve == curve && tables[i].log_n == log_n) return i;
    for (int i = 0; i < 4; i++)
        if (!tables[i].tw) return i;
    for (int i = 0; i < 4; i++)
        if (!table_users[i]) {
            free_tables(&tables[i]);
            return i;
        }
    return -1;
}

/* The tables for a transform, held (*slot) until put_tables. */
static ntt_tables *get_tables(int curve, int log_n, int flags, cudaStream_t st, int *slot,
                              char *err, size_t errlen)
{
    pthread_mutex_lock(&tables_lock);
    while ((*slot = pick_slot(curve, log_n)) < 0) pthread_cond_wait(&tables_released, &tables_lock);
    table_users[*slot]++;
    ntt_tables *t = get_tables_locked(*slot, curve, log_n, flags, st, err, errlen);
    if (!t) table_users[*slot]--;
    pthread_mutex_unlock(&tables_lock);
    return t;
}

/* The caller's launches with slot's tables are queued. */
static void put_tables(int slot)
{
    pthread_mutex_lock(&tables_lock);
    table_users[slot]--;
    pthread_cond_broadcast(&tables_released);
    pthread_mutex_unlock(&tables_lock);
}

void gpu_ntt_release(void)
{
    for (int i = 0; i < 4; i++) free_tables(&tables[i]);
}

/* Device ops: the ctx is the data on a stream; launch errors are picked
 * up once after the sequence (cudaGetLastError keeps the first). */
typedef struct {
    void *x;
    int log_n, mode;
    cudaStream_t st;
    gpu_prof prof;
} dev_ctx;

/* Host ops (the emulation): the same kernels' bodies, one by one. */
typedef struct {
    void *x, *sh;
    int log_n, mode;
} host_ctx;

#define NTT_OPS(NAME, FT)                                                                          \
    static void NAME##_dev_pass(void *c, const ntt_pass *ps, const void *tw, const void *stab,     \
                                const void *scale, int dit)                                        \
    {                                                                                              \
        dev_ctx *d = (dev_ctx *)c;                                                                 \
        int cnt = (1 << ps->mlog) << ps->k, wb = ps->warp ? ntt_warps(ps) : 1;                     \
        unsigned nb = (unsigned)(((size_t)1 << ps->L) / (size_t)cnt / (size_t)wb);                 \
        size_t smem = sizeof(FT) * (size_t)(wb * cnt + NAME##_small_count(ps, d->mode));           \
        unsigned thr = ps->warp        ? 32u * (unsigned)wb                                        \
                       : cnt < 4       ? 1                                                         \
                       : cnt / 4 < 256 ? cnt / 4                                                   \
                                       : 256;                                                      \
        void (*k)(FT *, ntt_pass, const FT *, const FT *, const FT *, int) =                       \
            d->mode == NTT_SHOUP ? (ps->warp ? NAME##_pass_warp_shoup : NAME##_pass_shoup)         \
                                 : (ps->warp ? NAME##_pass_warp_mont : NAME##_pass_mont);          \
        if (smem > 48 * 1024) /* above the default dynamic shared memory */                        \
            cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);       \
        k<<<nb, thr, smem, d->st>>>((FT *)d->x, *ps, (const FT *)tw, (const FT *)stab,             \
                                    (const FT *)scale, dit);                                       \
        gpu_prof_mark(&d->prof, dit ? "dit" : "dif", d->st);                                       \
        GPU_COUNT(launches);                                                                       \
    }                                                                                              \
    static void NAME##_dev_bitrev(void *c, const void *scale)                                      \
    {                                                                                              \
        dev_ctx *d = (dev_ctx *)c;                                                                 \
        unsigned nb = (unsigned)((((size_t)1 << d->log_n) + 255) / 256);                           \
        if (d->log_n >= NTT_TILE_MIN_LOG)                                                          \
            NAME##_bitrev_tiles<<<1u << (d->log_n - 8), 256, 0, d->st>>>((FT *)d->x, d->log_n,     \
                                                                         (const FT *)scale);       \
        else                                                                                       \
            NAME##_bitrev<<<nb, 256, 0, d->st>>>((FT *)d->x, d->log_n, (const FT *)scale);         \
        gpu_prof_mark(&d->prof, "bitrev", d->st);                                                  \
        GPU_COUNT(launches);                                                                       \
    }                                                                                              \
    static void NAME##_dev_mul_table(void *c, const void *tab)                                     \
    {                                                                                              \
        dev_ctx *d = (dev_ctx *)c;                                                                 \
        size_t n = (size_t)1 << d->log_n;                                                          \
        NAME##_mul_table<<<(unsigned)((n + 255) / 256), 256, 0, d->st>>>((FT *)d->x,               \
                                                                         (const FT *)tab, n);      \
        gpu_prof_mark(&d->prof, "coset", d->st);                                                   \
        GPU_COUNT(launches);                                                                       \
    }                                                                                              \
    static void NAME##_host_pass(void *c, const ntt_pass *ps, const void *tw, const void *stab,    \
                                 const void *scale, int dit)                                       \
    {                                                                                              \
        host_ctx *h = (host_ctx *)c;                                                               \
        NAME##_pass_host((FT *)h->x, ps, (const FT *)tw, (const FT *)stab, (const FT *)scale, dit, \
                         h->mode, (FT *)h->sh);                                                    \
    }                                                                                              \
    static void NAME##_host_bitrev(void *c, const void *scale)                                     \
    {                                                                                              \
        host_ctx *h = (host_ctx *)c;                                                               \
        if (h->log_n >= NTT_TILE_MIN_LOG) {                                                        \
            NAME##_bitrev_tiles_host((FT *)h->x, h->log_n, (const FT *)scale);                     \
            return;                                                                                \
        }                                                                                          \
        for (size_t i = 0; i < (size_t)1 << h->log_n; i++)                                         \
            NAME##_bitrev_body((FT *)h->x, h->log_n, (const FT *)scale, i);                        \
    }                                                                                              \
    static void NAME##_host_mul_table(void *c, const void *tab)                                    \
    {                                                                                              \
        host_ctx *h = (host_ctx *)c;                                                               \
        size_t n = (size_t)1 << h->log_n;                                                          \
        for (size_t t = 0; t < n; t++) NAME##_mul_table_body((FT *)h->x, (const FT *)tab, n, t);   \
    }

NTT_OPS(ntt_bn254, d_bn254_fr)
NTT_OPS(ntt_bls12_381, d_bls12_381_fr)

/* build_shoup_tables on the host, for the emulation. */
static void host_shoup_tables(ntt_tables *t)
{
    ntt_pass ps[4];
    int np = ntt_plan(t->log_n, ps);
    for (int i = 0; i < np; i++)
        for (int inv = 0; inv < 2; inv++) {
            int ntw = (1 << ps[i].k) - 1;
            if (t->stab[inv][ps[i].k]) continue;
            t->stab[inv][ps[i].k] = calloc((size_t)ntt_bn254_shoup_table_count(&ps[i]), 32);
            for (int j = 0; j < ntw; j++)
                ntt_bn254_shoup_entry(&ps[i], (d_bn254_fr *)t->stab[inv][ps[i].k], j,
                                      (const d_bn254_fr *)(inv ? t->itw : t->tw));
        }
}

/* The transform on the CPU through the kernels' own code (tests only). */
extern "C" int gpu_ntt_emulate(int curve, uint8_t *data, int log_n, int flags)
{
    size_t n = (size_t)1 << log_n, half = n / 2 ? n / 2 : 1;
    uint8_t w[32], iw[32], g[32], ig[32], inv_n[32];
    if (gpu_host_root(curve, log_n, 0, w) || gpu_host_root(curve, log_n, 1, iw) ||
        gpu_host_coset(curve, log_n, 0, g) || gpu_host_coset(curve, log_n, 1, ig))
        return -1;
    gpu_host_inv_n(curve, log_n, inv_n);
    uint8_t *tw = (uint8_t *)malloc(half * 32), *itw = (uint8_t *)malloc(half * 32);
    uint8_t *cos = (uint8_t *)malloc(n * 32), *icos = (uint8_t *)malloc(n * 32);
    uint8_t *cosbr = (uint8_t *)malloc(n * 32), *sh = (uint8_t *)malloc(32 * (1024 + 1024));
    gpu_host_powers(curve, w, half, tw);
    gpu_host_powers(curve, iw, half, itw);
    gpu_host_powers(curve, g, n, cos);
    gpu_host_powers(curve, ig, n, icos);
    for (size_t i = 0; i < n; i++) {
        size_t j = log_n ? (size_t)(g16_brev64(i) >> (64 - log_n)) : 0;
        gpu_host_mul(curve, icos + 32 * i, inv_n, icos + 32 * i);
        gpu_host_mul(curve, cos + 32 * j, inv_n, cosbr + 32 * i);
    }
    ntt_tables t = {curve, log_n, tw, itw, cos, icos, cosbr, inv_n, {{0}}};
    host_ctx h = {data, sh, log_n, ntt_mode(curve)};
    if (h.mode == NTT_SHOUP) host_shoup_tables(&t);
    ntt_ops bn = {&h, ntt_bn254_host_pass, ntt_bn254_host_bitrev, ntt_bn254_host_mul_table};
    ntt_ops bls = {&h, ntt_bls12_381_host_pass, ntt_bls12_381_host_bitrev,
                   ntt_bls12_381_host_mul_table};
    ntt_sequence(curve == FORMATS_CURVE_BN128 ? &bn : &bls, log_n, flags, &t);
    free(tw);
    free(itw);
    free(cos);
    free(icos);
    free(cosbr);
    free(sh);
    for (int inv = 0; inv < 2; inv++)
        for (int k = 0; k < 9; k++) free(t.stab[inv][k]);
    return 0;
}

extern "C" int gpu_ntt_dev(int curve, void *d_data, int log_n, int flags, cudaStream_t st,
                           char *err, size_t errlen)
{
    int max_log = curve == FORMATS_CURVE_BN128 ? 28 : 32;
    if (log_n < 0 || log_n > max_log) {
        snprintf(err, errlen, "gpu: NTT size 2^%d is out of range", log_n);
        return -1;
    }
    int slot;
    ntt_tables *t = get_tables(curve, log_n, flags, st, &slot, err, errlen);
    if (!t) return -1;
    dev_ctx d = {d_data, log_n, ntt_mode(curve), st, {0, 0, {0}, {0}}};
    ntt_ops bn = {&d, ntt_bn254_dev_pass, ntt_bn254_dev_bitrev, ntt_bn254_dev_mul_table};
    ntt_ops bls = {&d, ntt_bls12_381_dev_pass, ntt_bls12_381_dev_bitrev,
                   ntt_bls12_381_dev_mul_table};
    gpu_prof_begin(&d.prof, st);
    ntt_sequence(curve == FORMATS_CURVE_BN128 ? &bn : &bls, log_n, flags, t);
    put_tables(slot);
    gpu_prof_end(&d.prof, curve == FORMATS_CURVE_BN128 ? "ntt_bn254" : "ntt_bls12_381");
    GPU_CK_LAUNCH();
    return 0;
}

/* The proof's element-wise steps, for gpu.cu. */
extern "C" int gpu_build_ab_dev(int curve, void *out, const uint32_t *row_ptr, const uint32_t *sig,
                                const void *val, const void *w, size_t rows, cudaStream_t st,
                                char *err, size_t errlen)
{
    unsigned blocks = (unsigned)((rows + 127) / 128);
    if (curve == FORMATS_CURVE_BN128)
        ntt_bn254_build_ab<<<blocks, 128, 0, st>>>(
            (d_bn254_fr *)out, row_ptr, sig, (const d_bn254_fr *)val, (const d_bn254_fr *)w, rows);
    else
        ntt_bls12_381_build_ab<<<blocks, 128, 0, st>>>((d_bls12_381_fr *)out, row_ptr, sig,
                                                       (const d_bls12_381_fr *)val,
                                                       (const d_bls12_381_fr *)w, rows);
    GPU_CK_LAUNCH();
    return 0;
}

extern "C" int gpu_mul_into_dev(int curve, void *c, const void *a, const void *b, size_t n,
                                cudaStream_t st, char *err, size_t errlen)
{
    unsigned blocks = (unsigned)((n + 255) / 256);
    if (curve == FORMATS_CURVE_BN128)
        ntt_bn254_mul_into<<<blocks, 256, 0, st>>>((d_bn254_fr *)c, (const d_bn254_fr *)a,
                                                   (const d_bn254_fr *)b, n);
    else
        ntt_bls12_381_mul_into<<<blocks, 256, 0, st>>>(
            (d_bls12_381_fr *)c, (const d_bls12_381_fr *)a, (const d_bls12_381_fr *)b, n);
    GPU_CK_LAUNCH();
    return 0;
}

extern "C" int gpu_join_abc_dev(int curve, void *a, const void *b, const void *c, size_t n,
                                cudaStream_t st, char *err, size_t errlen)
{
    unsigned blocks = (unsigned)((n + 255) / 256);
    if (curve == FORMATS_CURVE_BN128)
        ntt_bn254_join_abc<<<blocks, 256, 0, st>>>((d_bn254_fr *)a, (const d_bn254_fr *)b,
                                                   (const d_bn254_fr *)c, n);
    else
        ntt_bls12_381_join_abc<<<blocks, 256, 0, st>>>(
            (d_bls12_381_fr *)a, (const d_bls12_381_fr *)b, (const d_bls12_381_fr *)c, n);
    GPU_CK_LAUNCH();
    return 0;
}

/* a, b, c, the three coset round trips and h on the CPU through the
 * kernels' code, from a CSR (row_ptr[m]: n + 1 entries) as key.cu uploads
 * it; h (n elements, plain) is written over abc's first third (tests). */
extern "C" int gpu_build_h_emulate(int curve, uint8_t *abc, uint32_t *const row_ptr[2],
                                   uint32_t *const sig[2], uint8_t *const val[2], const uint8_t *w,
                                   int log_n)
{
    size_t n = (size_t)1 << log_n, vb = n * 32;
    for (int m = 0; m < 3; m++)
        for (size_t r = 0; r < n; r++) {
            if (curve == FORMATS_CURVE_BN128 && m < 2)
                ntt_bn254_build_ab_body((d_bn254_fr *)(abc + m * vb), row_ptr[m], sig[m],
                                        (const d_bn254_fr *)val[m], (const d_bn254_fr *)w, n, r);
            else if (m < 2)
                ntt_bls12_381_build_ab_body((d_bls12_381_fr *)(abc + m * vb), row_ptr[m], sig[m],
                                            (const d_bls12_381_fr *)val[m],
                                            (const d_bls12_381_fr *)w, n, r);
            else if (curve == FORMATS_CURVE_BN128)
                ntt_bn254_mul_into_body((d_bn254_fr *)(abc + 2 * vb), (d_bn254_fr *)abc,
                                        (d_bn254_fr *)(abc + vb), n, r);
            else
                ntt_bls12_381_mul_into_body((d_bls12_381_fr *)(abc + 2 * vb), (d_bls12_381_fr *)abc,
                                            (d_bls12_381_fr *)(abc + vb), n, r);
        }
    for (int m = 0; m < 3; m++)
        if (gpu_ntt_emulate(curve, abc + m * vb, log_n, GPU_NTT_ROUND_TRIP)) return -1;
    for (size_t t = 0; t < n; t++) {
        if (curve == FORMATS_CURVE_BN128)
            ntt_bn254_join_abc_body((d_bn254_fr *)abc, (d_bn254_fr *)(abc + vb),
                                    (d_bn254_fr *)(abc + 2 * vb), n, t);
        else
            ntt_bls12_381_join_abc_body((d_bls12_381_fr *)abc, (d_bls12_381_fr *)(abc + vb),
                                        (d_bls12_381_fr *)(abc + 2 * vb), n, t);
    }
    return 0;
}
