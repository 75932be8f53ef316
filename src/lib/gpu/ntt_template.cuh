/* NTT kernels for one scalar field, stamped out by ntt.cu.  Expects NF (the
 * device field prefix, d_bn254_fr or d_bls12_381_fr) and NTT_NAME (prefix).
 *
 * Radix-2 passes of up to 8 levels through shared memory, so a 2^24
 * transform reads and writes device memory 3 times instead of 24 (see
 * N_(pass_addr)).  A natural-order transform is DIF passes then an
 * in-place bit-reversal pass (which also applies the 1/n of the inverse);
 * the prover's coset round trip is DIF then DIT passes, no bit reversal.
 * Twiddles: a table of omega^t, t < n/2, built once per size. */

#define N_(name)   G16_CAT(NTT_NAME, _##name)
#define NFE_(name) G16_CAT(NF, _##name)

/* Element copies through 16-byte vectors.  NF is a struct of 32-bit limbs
 * (4-byte aligned), so a plain copy is 8 scalar accesses: in shared
 * memory, elements 32 bytes apart put 8 threads of a warp on each bank (8
 * times the wavefronts of two 16-byte accesses), and in global memory each
 * instruction touches 32 sectors for 128 useful bytes.  Every NF array
 * here is 16-byte aligned (cudaMalloc, shared memory, offsets of whole
 * elements). */
static __host__ __device__ __forceinline__ NF N_(ld)(const NF *p)
{
#ifdef __CUDA_ARCH__
    union {
        NF t;
        uint4 u[sizeof(NF) / 16];
    } v;
#pragma unroll
    for (int i = 0; i < (int)(sizeof(NF) / 16); i++) v.u[i] = ((const uint4 *)p)[i];
    return v.t;
#else
    return *p;
#endif
}
static __host__ __device__ __forceinline__ void N_(st)(NF *p, NF x)
{
#ifdef __CUDA_ARCH__
    union {
        NF t;
        uint4 u[sizeof(NF) / 16];
    } v;
    v.t = x;
#pragma unroll
    for (int i = 0; i < (int)(sizeof(NF) / 16); i++) ((uint4 *)p)[i] = v.u[i];
#else
    *p = x;
#endif
}

/* Shared memory holds elements split in 16-byte parts: part h of element
 * i of an array of count elements at 16-byte slot h count + i.  A warp
 * reading consecutive elements then reads consecutive slots, 8 threads a
 * wavefront on 32 banks; whole 32-byte elements put two of every 8 threads
 * on one bank group (two wavefronts for one of data). */
static __host__ __device__ __forceinline__ NF N_(sp_ld)(const NF *base, int count, int i)
{
    union {
        NF t;
        uint4 u[sizeof(NF) / 16];
    } v;
#pragma unroll
    for (int h = 0; h < (int)(sizeof(NF) / 16); h++) {
#ifdef __CUDA_ARCH__
        v.u[h] = ((const uint4 *)base)[h * count + i];
#else
        memcpy(&v.u[h], (const uint4 *)base + h * count + i, 16);
#endif
    }
    return v.t;
}
static __host__ __device__ __forceinline__ void N_(sp_st)(NF *base, int count, int i, NF x)
{
    union {
        NF t;
        uint4 u[sizeof(NF) / 16];
    } v;
    v.t = x;
#pragma unroll
    for (int h = 0; h < (int)(sizeof(NF) / 16); h++) {
#ifdef __CUDA_ARCH__
        ((uint4 *)base)[h * count + i] = v.u[h];
#else
        memcpy((uint4 *)base + h * count + i, &v.u[h], 16);
#endif
    }
}

/* A warp pass's column in shared memory: radix-4 steps of half-size 2, 4
 * and 8 read runs of 1, 2 or 4 elements 4 apart, which put the 8 lanes of
 * a wavefront on 2 or 4 of the 8 16-byte bank groups.  Flipping the low
 * three index bits by (bit 3) * 3 ^ (bit 4) * 5 spreads every pattern of
 * the pass (and consecutive runs) over all 8; the matrix was found by
 * searching the 8^5 linear ones for the fewest wavefronts.  A bijection
 * within each aligned 8, so any column of 8 or more elements keeps its
 * room; block passes keep the plain index. */
static __host__ __device__ __forceinline__ int N_(slot)(const ntt_pass *ps, int i)
{
    return ps->warp ? i ^ ((((i >> 3) & 1) * 3) ^ (((i >> 4) & 1) * 5)) : i;
}

/* out[t] = lo[t mod 4096] * hi[t / 4096]: big power tables from two small
 * host-made ones, one product per entry. */
static __global__ void N_(expand)(NF *out, const NF *lo, const NF *hi, size_t count)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= count) return;
    NF a = N_(ld)(&lo[t & 4095]), b = N_(ld)(&hi[t >> 12]);
    NFE_(mul)(&a, &a, &b);
    N_(st)(&out[t], a);
}

static __host__ __device__ void N_(mul_table_body)(NF *x, const NF *tab, size_t n, size_t t)
{
    if (t >= n) return;
    NF a = N_(ld)(&x[t]), b = N_(ld)(&tab[t]);
    NFE_(mul)(&a, &a, &b);
    N_(st)(&x[t], a);
}

static __global__ void N_(mul_table)(NF *x, const NF *tab, size_t n)
{
    N_(mul_table_body)(x, tab, n, (size_t)blockIdx.x * blockDim.x + threadIdx.x);
}

/* One pass: levels s0 .. s0+k-1 of the radix-2 network, run by each block
 * on 2^k elements spaced hlo = 2^(L-s0-k) apart ("rows"), for m = 2^mlog
 * consecutive offsets ("columns", so loads come in runs of m elements).
 *
 * Why the passes look like a four-step transform: the level-s twiddle of
 * a butterfly in column lo is w^((j hlo + lo) 2^s) = (small root)^(j 2^ll)
 * * beta^(2^ll) with beta = w^(lo 2^s0).  The first factor depends on k
 * only, so it comes from a 2^k - 1 entry table in shared memory (the
 * earlier kernel read every twiddle from the 2^(L-1) table, strided and
 * uncoalesced: about a sixth of its time, docs/gpu-notes.md, NTT v2); the beta factors
 * collapse into one product per element, beta^r for the row's frequency
 * r = bitrev_k(row), after the pass's butterflies (DIF) or before them
 * (DIT, the transpose: it runs the passes and the levels in reverse order
 * with (u, v) -> (u + w v, u - w v)).  DIF takes natural order to
 * bit-reversed, DIT bit-reversed to natural: an inverse DIF followed by
 * a forward DIT needs no bit reversal at all.  The index arithmetic and
 * the element steps are host+device helpers so the emulation shares them. */
/* The column lo < hlo of shared index idx in block.  Shifts and masks
 * only: a 64-bit division is a long subroutine on the device, and this
 * runs for every element. */
static __host__ __device__ size_t N_(column)(const ntt_pass *ps, size_t block, int idx)
{
    int groups_log = ps->L - ps->s0 - ps->k - ps->mlog;
    return ((block & (((size_t)1 << groups_log) - 1)) << ps->mlog) +
           (size_t)(idx & ((1 << ps->mlog) - 1));
}

static __host__ __device__ size_t N_(pass_addr)(const ntt_pass *ps, size_t block, int idx)
{
    int hlo_log = ps->L - ps->s0 - ps->k, groups_log = hlo_log - ps->mlog;
    return ((block >> groups_log) << (ps->L - ps->s0)) + ((size_t)(idx >> ps->mlog) << hlo_log) +
           N_(column)(ps, block, idx);
}

/* v *= beta^r for the element at shared index idx: w^((lo r) 2^s0), an
 * exponent below n; tw holds w^t for t < n/2 and w^(n/2) = -1. */
static __host__ __device__ void N_(column_twiddle)(const ntt_pass *ps, NF *v, size_t block, int idx,
                                                   const NF *tw)
{
    size_t lo = N_(column)(ps, block, idx);
    size_t r = (size_t)(G16_BREV64((unsigned long long)(idx >> ps->mlog)) >> (64 - ps->k));
    size_t e = (lo * r) << ps->s0, half = (size_t)1 << (ps->L - 1);
    if (!e) return;
    NF w = N_(ld)(&tw[e & (half - 1)]);
    if (e & half) NFE_(neg)(&w, &w);
    NFE_(mul)(v, v, &w);
}

/* Shared twiddle table: level ll's 2^(k-1-ll) roots (small root)^(j 2^ll)
 * sit at 2^k - 2^(k-ll) + j, so a warp's reads are consecutive. */
static __host__ __device__ int N_(small_level)(const ntt_pass *ps, int i)
{
    int ll = 0;
    while (i >= (1 << ps->k) - (1 << (ps->k - ll - 1))) ll++;
    return ll;
}
static __host__ __device__ size_t N_(small_index)(const ntt_pass *ps, int i)
{
    int ll = N_(small_level)(ps, i);
    int j = i - ((1 << ps->k) - (1 << (ps->k - ll)));
    return ((size_t)j << ll) << (ps->L - ps->k);
}
static __host__ __device__ void N_(small_twiddle)(const ntt_pass *ps, NF *stw, int i, const NF *tw)
{
    N_(sp_st)(stw, (1 << ps->k) - 1, i, N_(ld)(&tw[N_(small_index)(ps, i)]));
}

/* The same table for Shoup's product (NTT_SHOUP): plain roots at i <
 * 2^k - 1, their quotients floor(w R / p) after them.  Built once per
 * (size, k, direction) by ntt.cu, since the quotient is a long division. */
static __host__ __device__ void N_(shoup_entry)(const ntt_pass *ps, NF *stab, int i, const NF *tw)
{
    int ntw = (1 << ps->k) - 1;
    NF w = N_(ld)(&tw[N_(small_index)(ps, i)]), plain, wq;
    NFE_(to_plain)(&plain, &w);
    NFE_(shoup_quotient)(&wq, &plain);
    N_(st)(&stab[i], plain);
    N_(st)(&stab[ntw + i], wq);
}

static __global__ void N_(shoup_table)(NF *stab, ntt_pass ps, const NF *tw)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (1 << ps.k) - 1) N_(shoup_entry)(&ps, stab, i, tw);
}

/* Element steps.  dit: the DIT pass (beta before the butterflies); else
 * DIF (beta, then scale, after them).  scale (may be NULL; DIF passes
 * only: the round trip folds its coset into the last inverse pass)
 * multiplies element x[addr] by scale[addr]. */
static __host__ __device__ void N_(load)(const ntt_pass *ps, NF *sh, const NF *x, size_t block,
                                         int idx, const NF *tw, int dit)
{
    size_t a = N_(pass_addr)(ps, block, idx);
    NF v = N_(ld)(&x[a]);
    if (dit) N_(column_twiddle)(ps, &v, block, idx, tw);
    N_(sp_st)(sh, (1 << ps->mlog) << ps->k, N_(slot)(ps, idx), v);
}

static __host__ __device__ void N_(store)(const ntt_pass *ps, const NF *sh, NF *x, size_t block,
                                          int idx, const NF *tw, const NF *scale, int dit, int lazy)
{
    size_t a = N_(pass_addr)(ps, block, idx);
    NF v = N_(sp_ld)(sh, (1 << ps->mlog) << ps->k, N_(slot)(ps, idx));
    if (lazy) NFE_(reduce)(&v, v.v); /* [0, 2p) -> [0, p) */
    if (!dit) N_(column_twiddle)(ps, &v, block, idx, tw);
    if (!dit && scale) {
        NF f = N_(ld)(&scale[a]);
        NFE_(mul)(&v, &v, &f);
    }
    N_(st)(&x[a], v);
}

/* The butterflies, on shared memory, two levels at a time: a thread takes
 * the 4 elements that levels ll and ll+1 mix only among themselves (rows
 * b, b+h/2, b+h, b+3h/2 for half-size h), keeps them in registers across
 * both levels and has two independent products in flight at each: half
 * the barriers and shared-memory round trips of one level at a time.
 * (Measured before the vector loads, it was no faster than one level at a
 * time: the scalar shared-memory accesses were the limit then; docs/gpu-notes.md,
 * NTT v3.)  DIF runs level ll then ll+1, DIT (its transpose) ll+1 then ll. */
/* Whether a pass keeps its values in [0, 2p) (dfield_template.cuh, the
 * lazy forms): Shoup's passes where 4p < R. */
static __host__ __device__ __forceinline__ int N_(lazy)(int mode)
{
    return mode == NTT_SHOUP && NFE_(lazy_ok)();
}

/* v *= the small twiddle at stw[t]: mode NTT_MONT, stw holds w R (the
 * Montgomery product); NTT_SHOUP, the plain w with its quotient at stw[ntw
 * + t] (Shoup's product, ~0.8 of the wide multiplies); the modes are
 * ntt.cu's. */
static __host__ __device__ __forceinline__ void N_(twiddle_mul)(NF *v, const NF *stw, int ntw,
                                                                int t, int mode)
{
    int count = mode == NTT_SHOUP ? 2 * ntw : ntw;
    NF w = N_(sp_ld)(stw, count, t);
    if (mode == NTT_SHOUP) {
        NF wq = N_(sp_ld)(stw, count, ntw + t);
        if (N_(lazy)(mode))
            NFE_(mul_shoup_lazy)(v, v, &w, &wq);
        else
            NFE_(mul_shoup)(v, v, &w, &wq);
    } else {
        NFE_(mul)(v, v, &w);
    }
}

/* (u, v) -> DIF (u + v, (u - v) w) or DIT (u + w v, u - w v) with w =
 * stw[t]; no product when has_w is 0 (w = 1).  Lazy: in and out in [0,
 * 2p), and DIF's difference goes to the product unreduced. */
static __host__ __device__ __forceinline__ void N_(bfly2)(NF *u, NF *v, const NF *stw, int ntw,
                                                          int t, int has_w, int dit, int mode)
{
    NF s;
    if (dit && has_w) N_(twiddle_mul)(v, stw, ntw, t, mode);
    s = *u;
    if (!N_(lazy)(mode)) {
        NFE_(add)(u, &s, v);
        NFE_(sub)(v, &s, v);
    } else {
        NFE_(add_lazy)(u, &s, v);
        if (!dit && has_w)
            NFE_(sub_lazy4)(v, &s, v);
        else
            NFE_(sub_lazy)(v, &s, v);
    }
    if (!dit && has_w) N_(twiddle_mul)(v, stw, ntw, t, mode);
}

static __host__ __device__ __forceinline__ void
N_(radix4)(const ntt_pass *ps, NF *sh, const NF *stw, int ll, int q, int dit, int mode)
{
    int hl_log = ps->k - 1 - ll, h2 = 1 << (hl_log - 1), ml = ps->mlog, ntw = (1 << ps->k) - 1;
    int l = q & ((1 << ml) - 1), p = q >> ml, t = p & (h2 - 1), cnt = (1 << ml) << ps->k;
    int b = ((p >> (hl_log - 1)) << (hl_log + 1)) + t;
    int i0 = N_(slot)(ps, (b << ml) + l), i1 = N_(slot)(ps, ((b + h2) << ml) + l);
    int i2 = N_(slot)(ps, ((b + 2 * h2) << ml) + l), i3 = N_(slot)(ps, ((b + 3 * h2) << ml) + l);
    NF r0 = N_(sp_ld)(sh, cnt, i0), r1 = N_(sp_ld)(sh, cnt, i1);
    NF r2 = N_(sp_ld)(sh, cnt, i2), r3 = N_(sp_ld)(sh, cnt, i3);
    /* level ll's roots, then level ll + 1's; t = 0: wa = wc = 1 */
    int lv = (1 << ps->k) - (1 << (ps->k - ll)), lv1 = lv + 2 * h2;
    if (!dit) {
        N_(bfly2)(&r0, &r2, stw, ntw, lv + t, t, 0, mode);
        N_(bfly2)(&r1, &r3, stw, ntw, lv + t + h2, 1, 0, mode);
    }
    N_(bfly2)(&r0, &r1, stw, ntw, lv1 + t, t, dit, mode);
    N_(bfly2)(&r2, &r3, stw, ntw, lv1 + t, t, dit, mode);
    if (dit) {
        N_(bfly2)(&r0, &r2, stw, ntw, lv + t, t, 1, mode);
        N_(bfly2)(&r1, &r3, stw, ntw, lv + t + h2, 1, 1, mode);
    }
    N_(sp_st)(sh, cnt, i0, r0);
    N_(sp_st)(sh, cnt, i1, r1);
    N_(sp_st)(sh, cnt, i2, r2);
    N_(sp_st)(sh, cnt, i3, r3);
}

/* Level k-1 alone (odd k): half-size 1, every twiddle 1, so DIF and DIT
 * butterflies agree. */
static __host__ __device__ void N_(radix2_last)(const ntt_pass *ps, NF *sh, int q, int mode)
{
    int ml = ps->mlog, l = q & ((1 << ml) - 1), j = (q >> ml) << 1, cnt = (1 << ml) << ps->k;
    int iu = N_(slot)(ps, (j << ml) + l), iv = N_(slot)(ps, ((j + 1) << ml) + l);
    NF u = N_(sp_ld)(sh, cnt, iu), v = N_(sp_ld)(sh, cnt, iv);
    N_(bfly2)(&u, &v, NULL, 0, 0, 0, 0, mode);
    N_(sp_st)(sh, cnt, iu, u);
    N_(sp_st)(sh, cnt, iv, v);
}

/* Step s of a pass (DIF order: radix-4 on levels 0-1, 2-3, ..., then the
 * odd level; DIT: the reverse), for the item (quad or pair) q. */
static __host__ __device__ int N_(steps)(const ntt_pass *ps) { return (ps->k + 1) / 2; }
static __host__ __device__ int N_(step_items)(const ntt_pass *ps, int s, int dit)
{
    int cnt = (1 << ps->mlog) << ps->k, odd_step = dit ? 0 : N_(steps)(ps) - 1;
    return (ps->k & 1) && s == odd_step ? cnt / 2 : cnt / 4;
}
static __host__ __device__ __forceinline__ void N_(step)(const ntt_pass *ps, NF *sh, const NF *stw,
                                                         int s, int q, int dit, int mode)
{
    int n4 = ps->k / 2;                          /* radix-4 steps */
    int r = dit ? ((ps->k & 1) ? s - 1 : s) : s; /* index among the radix-4 steps, in order */
    if ((ps->k & 1) && (dit ? s == 0 : s == n4)) {
        N_(radix2_last)(ps, sh, q, mode);
        return;
    }
    N_(radix4)(ps, sh, stw, dit ? 2 * (n4 - 1 - r) : 2 * r, q, dit, mode);
}

/* The small twiddles into shared memory: gathered from tw, or for
 * NTT_SHOUP copied from the prebuilt table stab (roots and quotients). */
static __host__ __device__ __forceinline__ void
N_(small_load)(const ntt_pass *ps, NF *stw, int i, const NF *tw, const NF *stab, int mode)
{
    int ntw = (1 << ps->k) - 1;
    if (mode == NTT_SHOUP)
        N_(sp_st)(stw, 2 * ntw, i, N_(ld)(&stab[i]));
    else
        N_(small_twiddle)(ps, stw, i, tw);
}
/* In elements. */
static __host__ __device__ int N_(small_count)(const ntt_pass *ps, int mode)
{
    return ((1 << ps->k) - 1) * (mode == NTT_SHOUP ? 2 : 1);
}
/* The prebuilt table's size in elements (ntt.cu allocates it). */
static __host__ __device__ int N_(shoup_table_count)(const ntt_pass *ps)
{
    return N_(small_count)(ps, NTT_SHOUP);
}

static __device__ __forceinline__ void N_(pass_dev)(NF *x, const ntt_pass &ps, const NF *tw,
                                                    const NF *stab, const NF *scale, int dit,
                                                    int mode)
{
    extern __shared__ uint4 smem_raw[];
    int cnt = (1 << ps.mlog) << ps.k, nsmall = N_(small_count)(&ps, mode);
    NF *sh = (NF *)smem_raw, *stw = sh + cnt;
    for (int i = threadIdx.x; i < nsmall; i += blockDim.x)
        N_(small_load)(&ps, stw, i, tw, stab, mode);
    for (int idx = threadIdx.x; idx < cnt; idx += blockDim.x)
        N_(load)(&ps, sh, x, blockIdx.x, idx, tw, dit);
    __syncthreads();
    for (int s = 0; s < N_(steps)(&ps); s++) {
        int items = N_(step_items)(&ps, s, dit);
        for (int q = threadIdx.x; q < items; q += blockDim.x)
            N_(step)(&ps, sh, stw, s, q, dit, mode);
        __syncthreads();
    }
    for (int idx = threadIdx.x; idx < cnt; idx += blockDim.x)
        N_(store)(&ps, sh, x, blockIdx.x, idx, tw, scale, dit, N_(lazy)(mode));
}

/* A warp pass's loads with no column twiddle (DIF passes, DIT's last)
 * four a lane at a time, all issued before the first shared store: one
 * memory latency a batch instead of one an element (4.38 -> 4.31 ms a
 * 2^24 transform; batching the twiddled loads and stores too spilled at
 * 128 registers: docs/gpu-notes.md, "Plain loads in batches"). */
static __host__ __device__ __forceinline__ void N_(warp_copy_in)(const ntt_pass *ps, NF *sh,
                                                                 const NF *x, size_t col, int lane)
{
    int cnt = 1 << ps->k;
    for (int base = lane; base < cnt; base += 128) {
        NF v[4];
#pragma unroll
        for (int u = 0; u < 4; u++) v[u] = N_(ld)(&x[N_(pass_addr)(ps, col, base + 32 * u)]);
#pragma unroll
        for (int u = 0; u < 4; u++) N_(sp_st)(sh, cnt, N_(slot)(ps, base + 32 * u), v[u]);
    }
}
static __host__ __device__ __forceinline__ int N_(copy_in)(const ntt_pass *ps, int dit)
{
    return ps->warp && (!dit || ps->L == ps->s0 + ps->k);
}

/* The warp pass: warp w of the block runs column (block 8 + w) of the
 * mlog-0 geometry from load to store with nothing but __syncwarp between
 * its steps, so one warp's loads, gathers and stores overlap the others'
 * products instead of every warp of a block waiting at each barrier for
 * the slowest (the block pass was latency-bound at 0.78 eligible warps a
 * scheduler, docs/gpu-notes.md, "Warp passes").  The 8 warps of a block read a row's
 * 8 consecutive columns, 256 bytes, together (the last pass, hlo = 1:
 * each warp its own run of 2^k). */
static __device__ __forceinline__ void N_(pass_warp_dev)(NF *x, const ntt_pass &ps, const NF *tw,
                                                         const NF *stab, const NF *scale, int dit,
                                                         int mode)
{
    extern __shared__ uint4 smem_raw[];
    int warps = blockDim.x >> 5, w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int cnt = 1 << ps.k, nsmall = N_(small_count)(&ps, mode);
    NF *stw = (NF *)smem_raw + warps * cnt, *sh = (NF *)smem_raw + w * cnt;
    size_t col = (size_t)blockIdx.x * warps + w;
    for (int i = threadIdx.x; i < nsmall; i += blockDim.x)
        N_(small_load)(&ps, stw, i, tw, stab, mode);
    __syncthreads();
    if (N_(copy_in)(&ps, dit))
        N_(warp_copy_in)(&ps, sh, x, col, lane);
    else
        for (int idx = lane; idx < cnt; idx += 32) N_(load)(&ps, sh, x, col, idx, tw, dit);
    __syncwarp();
    for (int s = 0; s < N_(steps)(&ps); s++) {
        int items = N_(step_items)(&ps, s, dit);
        for (int q = lane; q < items; q += 32) N_(step)(&ps, sh, stw, s, q, dit, mode);
        __syncwarp();
    }
    for (int idx = lane; idx < cnt; idx += 32)
        N_(store)(&ps, sh, x, col, idx, tw, scale, dit, N_(lazy)(mode));
}

/* 2 blocks of 256 threads an SM (104 registers with Montgomery's
 * butterflies, 116 with Shoup's): asking for 3 or 4 (80 or 64 registers,
 * spilling) was slower (docs/gpu-notes.md, NTT v3 and "Latency, not
 * throughput").  One kernel per butterfly product, so each is
 * compiled without the other's registers. */
#define NTT_PASS_KERNEL(suffix, mode)                                                              \
    static __global__ void __launch_bounds__(256, 2) N_(pass_##suffix)(                            \
        NF * x, ntt_pass ps, const NF *tw, const NF *stab, const NF *scale, int dit)               \
    {                                                                                              \
        N_(pass_dev)(x, ps, tw, stab, scale, dit, mode);                                           \
    }                                                                                              \
    static __global__ void __launch_bounds__(256, 2) N_(pass_warp_##suffix)(                       \
        NF * x, ntt_pass ps, const NF *tw, const NF *stab, const NF *scale, int dit)               \
    {                                                                                              \
        N_(pass_warp_dev)(x, ps, tw, stab, scale, dit, mode);                                      \
    }
NTT_PASS_KERNEL(mont, NTT_MONT)
NTT_PASS_KERNEL(shoup, NTT_SHOUP)
#undef NTT_PASS_KERNEL

/* The same pass on the CPU, block by block (sh: room for 2^10 elements
 * and the largest small table, Shoup's 510 at k = 8). */
static void N_(pass_host)(NF *x, const ntt_pass *ps, const NF *tw, const NF *stab, const NF *scale,
                          int dit, int mode, NF *sh)
{
    int cnt = (1 << ps->mlog) << ps->k, nsmall = N_(small_count)(ps, mode);
    size_t blocks = ((size_t)1 << ps->L) / (size_t)cnt;
    NF *stw = sh + cnt;
    for (int i = 0; i < nsmall; i++) N_(small_load)(ps, stw, i, tw, stab, mode);
    for (size_t b = 0; b < blocks; b++) {
        if (N_(copy_in)(ps, dit))
            for (int lane = 0; lane < 32; lane++) N_(warp_copy_in)(ps, sh, x, b, lane);
        else
            for (int idx = 0; idx < cnt; idx++) N_(load)(ps, sh, x, b, idx, tw, dit);
        for (int s = 0; s < N_(steps)(ps); s++)
            for (int q = 0; q < N_(step_items)(ps, s, dit); q++)
                N_(step)(ps, sh, stw, s, q, dit, mode);
        for (int idx = 0; idx < cnt; idx++)
            N_(store)(ps, sh, x, b, idx, tw, scale, dit, N_(lazy)(mode));
    }
}

/* In-place bit reversal; scale (may be NULL) multiplies every element. */
static __host__ __device__ void N_(bitrev_body)(NF *x, int L, const NF *scale, size_t i)
{
    if (i >> L) return;
    size_t j = (size_t)(G16_BREV64((unsigned long long)i) >> (64 - L));
    if (j < i) return;
    NF a = N_(ld)(&x[i]), b = N_(ld)(&x[j]);
    if (scale) {
        NF s = N_(ld)(scale);
        NFE_(mul)(&a, &a, &s);
        NFE_(mul)(&b, &b, &s);
    }
    N_(st)(&x[i], b);
    N_(st)(&x[j], a);
}

static __global__ void N_(bitrev)(NF *x, int L, const NF *scale)
{
    N_(bitrev_body)(x, L, scale, (size_t)blockIdx.x * blockDim.x + threadIdx.x);
}

/* The same permutation by 16 x 16 tiles (L >= 8): index [a:4 | mid | c:4]
 * goes to [rev c | rev mid | rev a], so the tile at mid and the one at
 * rev mid trade places, read and written in runs of 16 consecutive
 * elements instead of one scattered element a thread.  Block mid works
 * only when mid <= rev mid, on both tiles.  Element e < 512 of the block:
 * tile e / 256, row a, column c; sh holds both tiles, rows padded to 17
 * elements so that reading a column does not put a warp on one bank. */
#define TILE_SH(tile, a, c) ((tile)*272 + (a)*17 + (c)) /* < 544 */
static __host__ __device__ size_t N_(tile_index)(int L, size_t mid, int e)
{
    return ((size_t)((e >> 4) & 15) << (L - 4)) + (mid << 4) + (size_t)(e & 15);
}
static __host__ __device__ size_t N_(tile_mid)(int L, size_t mid, int tile)
{
    return tile ? (size_t)(G16_BREV64((unsigned long long)mid) >> (64 - (L - 8))) : mid;
}
static __host__ __device__ void N_(tile_load)(const NF *x, NF *sh, int L, size_t mid, int e)
{
    N_(st)
    (&sh[TILE_SH(e >> 8, (e >> 4) & 15, e & 15)],
     N_(ld)(&x[N_(tile_index)(L, N_(tile_mid)(L, mid, e >> 8), e)]));
}
/* Element e of the output: tile e / 256 takes the other tile's (rev c', rev a'). */
static __host__ __device__ void N_(tile_store)(NF *x, const NF *sh, int L, size_t mid, int e,
                                               const NF *scale)
{
    int a = (e >> 4) & 15, c = e & 15;
    NF v = N_(ld)(&sh[TILE_SH(1 - (e >> 8), (int)(G16_BREV64((unsigned long long)c) >> 60),
                              (int)(G16_BREV64((unsigned long long)a) >> 60))]);
    if (scale) {
        NF f = N_(ld)(scale);
        NFE_(mul)(&v, &v, &f);
    }
    N_(st)(&x[N_(tile_index)(L, N_(tile_mid)(L, mid, e >> 8), e)], v);
}
static __global__ void N_(bitrev_tiles)(NF *x, int L, const NF *scale)
{
    __shared__ uint4 raw[544 * sizeof(NF) / 16]; /* 16-byte aligned */
    NF *sh = (NF *)raw;
    size_t mid = blockIdx.x;
    if (mid > N_(tile_mid)(L, mid, 1)) return;
    for (int e = threadIdx.x; e < 512; e += blockDim.x) N_(tile_load)(x, sh, L, mid, e);
    __syncthreads();
    for (int e = threadIdx.x; e < 512; e += blockDim.x) N_(tile_store)(x, sh, L, mid, e, scale);
}
static void N_(bitrev_tiles_host)(NF *x, int L, const NF *scale)
{
    NF sh[544];
    for (size_t mid = 0; mid < (size_t)1 << (L - 8); mid++) {
        if (mid > N_(tile_mid)(L, mid, 1)) continue;
        for (int e = 0; e < 512; e++) N_(tile_load)(x, sh, L, mid, e);
        for (int e = 0; e < 512; e++) N_(tile_store)(x, sh, L, mid, e, scale);
    }
}

/* h = a*b - c, then to plain form: the H MSM takes plain scalars. */
static __host__ __device__ void N_(join_abc_body)(NF *a, const NF *b, const NF *c, size_t n,
                                                  size_t t)
{
    if (t >= n) return;
    NF x = N_(ld)(&a[t]), y = N_(ld)(&b[t]), z = N_(ld)(&c[t]);
    NFE_(mul)(&x, &x, &y);
    NFE_(sub)(&x, &x, &z);
    NFE_(to_plain)(&y, &x);
    N_(st)(&a[t], y);
}

/* a[r], b[r] = sum over the row's coefficients of w[signal] * value: value
 * is c R^2 (zkey) and w plain, so the Montgomery product is (c w) R. */
static __host__ __device__ void N_(build_ab_body)(NF *out, const uint32_t *row_ptr,
                                                  const uint32_t *sig, const NF *val, const NF *w,
                                                  size_t rows, size_t r)
{
    if (r >= rows) return;
    NF acc, t;
    NFE_(zero)(&acc);
    for (uint32_t e = row_ptr[r]; e < row_ptr[r + 1]; e++) {
        NF x = N_(ld)(&w[sig[e]]), v = N_(ld)(&val[e]);
        NFE_(mul)(&t, &x, &v);
        NFE_(add)(&acc, &acc, &t);
    }
    N_(st)(&out[r], acc);
}

static __host__ __device__ void N_(mul_into_body)(NF *c, const NF *a, const NF *b, size_t n,
                                                  size_t t)
{
    if (t >= n) return;
    NF x = N_(ld)(&a[t]), y = N_(ld)(&b[t]);
    NFE_(mul)(&x, &x, &y);
    N_(st)(&c[t], x);
}

#define N_TID ((size_t)blockIdx.x * blockDim.x + threadIdx.x)
static __global__ void N_(join_abc)(NF *a, const NF *b, const NF *c, size_t n)
{
    N_(join_abc_body)(a, b, c, n, N_TID);
}
static __global__ void N_(build_ab)(NF *out, const uint32_t *row_ptr, const uint32_t *sig,
                                    const NF *val, const NF *w, size_t rows)
{
    N_(build_ab_body)(out, row_ptr, sig, val, w, rows, N_TID);
}
static __global__ void N_(mul_into)(NF *c, const NF *a, const NF *b, size_t n)
{
    N_(mul_into_body)(c, a, b, n, N_TID);
}
#undef N_TID

#undef N_
#undef NFE_
#undef NF
#undef NTT_NAME
