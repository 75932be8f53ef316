/* Pippenger MSM for one group, stamped out by one msm_*.cu file each.
 * Expects DG (device point prefix, already stamped by dpoint_template.cuh),
 * MSM_NAME (prefix of this group's functions, e.g. bn254_g1), MSM_R (the
 * scalar field modulus as 64-bit limbs), MSM_RBITS (its bit length),
 * MSM_ACC_MIN_BLOCKS and MSM_ACC_CAPPED (see acc_first), MSM_CURVE
 * (formats_curve) and MSM_G2 (0 or 1).
 *
 * Pipeline (steps 1-4 on the device, on one stream, enqueued by _msm_start_copies
 * so several MSMs can run at once on their own streams):
 *  1. digits: each scalar (reduced mod r) becomes W signed c-bit digits;
 *     digit d != 0 of window w gives an entry (key = w*2^(c-1) + |d| - 1,
 *     value = point index | sign << 31).  Scalars 0 and 1 are taken out of
 *     the buckets: 0 gives no entry, 1 one entry in a separate "ones" slot.
 *  2. CUB radix sort of the entries by key (only the key's bits).
 *  3. accumulation: the sorted list is cut into equal segments, one thread
 *     each, so a huge bucket (many equal scalars) is split over threads
 *     rather than serialised; runs cut by a segment edge go to a partial
 *     list that is reduced again the same way until one segment remains.
 *  4. bucket reduction: each window's buckets are cut into segments whose
 *     weighted sums (running-sum trick) and plain sums are taken; a second
 *     level weights the plain sums by their segments' offsets, and the
 *     results are added pairwise into one sum per window (bucket_sums).
 *  5. gpu_msm_wait (msm_finish.c) combines the window sums on the host.
 */

#define M_(name) G16_CAT(MSM_NAME, _##name)
#define P_(name) G16_CAT(DG, _##name)
#define AFF      G16_CAT(DG, _aff)

static __constant__ uint64_t M_(r64)[4] = {MSM_R};
static const uint64_t M_(r64h)[4] = {MSM_R};

static HD uint32_t M_(r32)(int j)
{
#ifdef __CUDA_ARCH__
    return (uint32_t)(M_(r64)[j >> 1] >> (32 * (j & 1)));
#else
    return (uint32_t)(M_(r64h)[j >> 1] >> (32 * (j & 1)));
#endif
}

/* Loads through 16-byte vectors: every point size is a multiple of 16.
 * VLOAD goes through the read-only cache; VLOAD_RW is for memory written
 * earlier in the same kernel (that cache is not coherent with it).  VSTORE:
 * a struct copy compiles to 4-byte accesses (docs/gpu-notes.md, NTT v3). */
#ifdef __CUDA_ARCH__
#define VLOAD_WITH(dst, src, type, fetch)                                                          \
    do {                                                                                           \
        union {                                                                                    \
            type t;                                                                                \
            uint4 u[sizeof(type) / 16];                                                            \
        } v_;                                                                                      \
        const uint4 *s_ = (const uint4 *)(src);                                                    \
        _Pragma("unroll") for (int k_ = 0; k_ < (int)(sizeof(type) / 16); k_++) v_.u[k_] =         \
            fetch(s_ + k_);                                                                        \
        (dst) = v_.t;                                                                              \
    } while (0)
#define FETCH_PLAIN(p)           (*(p))
#define VLOAD(dst, src, type)    VLOAD_WITH(dst, src, type, __ldg)
#define VLOAD_RW(dst, src, type) VLOAD_WITH(dst, src, type, FETCH_PLAIN)
#define VSTORE(dst, src, type)                                                                     \
    do {                                                                                           \
        union {                                                                                    \
            type t;                                                                                \
            uint4 u[sizeof(type) / 16];                                                            \
        } v_;                                                                                      \
        uint4 *d_ = (uint4 *)(dst);                                                                \
        v_.t = (src);                                                                              \
        _Pragma("unroll") for (int k_ = 0; k_ < (int)(sizeof(type) / 16); k_++) d_[k_] = v_.u[k_]; \
    } while (0)
#else
#define VLOAD(dst, src, type)    ((dst) = *(src))
#define VLOAD_RW(dst, src, type) ((dst) = *(src))
#define VSTORE(dst, src, type)   (*(dst) = (src))
#endif

/* Each kernel is a body run for one thread index (host and device) plus a
 * __global__ wrapper, so msm_emulate can run the same code on the CPU. */
#define KERNEL_1D(name, params, args)                                                              \
    static __global__ void name params { G16_CAT(name, _body) args; }
#define TID ((size_t)blockIdx.x * blockDim.x + threadIdx.x)

static __host__ __device__ int M_(geq_r)(const uint32_t *s)
{
    for (int j = 7; j >= 0; j--) {
        uint32_t rj = M_(r32)(j);
        if (s[j] != rj) return s[j] > rj;
    }
    return 1;
}

static __host__ __device__ void M_(sub_r)(uint32_t *s)
{
    uint64_t borrow = 0;
    for (int j = 0; j < 8; j++) {
        uint64_t rj = M_(r32)(j);
        uint64_t d = (uint64_t)s[j] - rj - borrow;
        s[j] = (uint32_t)d;
        borrow = (d >> 32) & 1;
    }
}

/* With shift copies (copies > 1: the points are a table of copies x n,
 * copy k holding 2^(c k) P_i, shift_copies), window w's digit goes to
 * the buckets of window group w / copies with the point of copy w % copies,
 * so ceil(nw / copies) bucket sets serve all nw windows.
 * With nsets scalar sets over the same points (a batch of proofs of one
 * key), entry i of the nsets x n is scalar i % n of set s = i / n, read at
 * scalars[s stride + i % n], and its digits go to set s's own ng bucket
 * sets (s ng + w / copies) and ones slot (nsets ng nb + s): one sort and
 * one accumulation serve every set, each set's sums stay apart. */
typedef struct {
    int c, nw, copies, nsets;
    size_t n, stride; /* points; scalars from one set to the next */
} M_(digit_plan);

static __host__ __device__ void M_(digits_body)(const uint32_t *scalars, M_(digit_plan) dp,
                                                uint32_t *keys, uint32_t *vals, size_t i)
{
    size_t total = (size_t)dp.nsets * dp.n;
    if (i >= total) return;
    size_t set = i / dp.n, j = i % dp.n;
    int c = dp.c, copies = dp.copies;
    uint32_t s[9];
    for (int k = 0; k < 8; k++) s[k] = scalars[8 * (set * dp.stride + j) + k];
    s[8] = 0;
    while (M_(geq_r)(s)) M_(sub_r)(s);
    uint32_t nb = 1u << (c - 1), ng = (uint32_t)((dp.nw + copies - 1) / copies);
    uint32_t base = (uint32_t)set * ng, ones = (uint32_t)dp.nsets * ng * nb + (uint32_t)set;
    uint32_t sent = (uint32_t)dp.nsets * ng * nb + (uint32_t)dp.nsets;
    uint32_t rest = s[1] | s[2] | s[3] | s[4] | s[5] | s[6] | s[7];
    int special = rest == 0 && s[0] <= 1;
    uint32_t carry = 0;
    for (int w = 0; w < dp.nw; w++) {
        int off = w * c, limb = off >> 5, sh = off & 31;
        uint64_t word = (((uint64_t)s[limb + 1] << 32) | s[limb]) >> sh;
        uint32_t d = ((uint32_t)word & ((1u << c) - 1)) + carry, neg = 0;
        if (d > nb) {
            d = (1u << c) - d;
            neg = 1;
            carry = 1;
        } else
            carry = 0;
        uint32_t key = d ? (base + (uint32_t)(w / copies)) * nb + d - 1 : sent;
        if (special) key = (w == 0 && s[0] == 1) ? ones : sent;
        keys[(size_t)w * total + i] = key;
        uint32_t point = (uint32_t)(w % copies) * (uint32_t)dp.n + (uint32_t)j;
        vals[(size_t)w * total + i] = point | (neg << 31);
    }
}

KERNEL_1D(M_(digits), (const uint32_t *scalars, M_(digit_plan) dp, uint32_t *keys, uint32_t *vals),
          (scalars, dp, keys, vals, TID))

/* Copy k of point i is 2^(c k) P_i: c doublings a copy, made affine
 * SHIFT_BATCH copies at a time with one inversion (Montgomery's trick).
 * Why: an inversion is ~600 products against a copy's ~10 c of doublings,
 * so one a copy made the table cost ~3x the doublings (the first 2^24
 * proof with 12 copies took 13.0 s against 3.8 s without, docs/gpu-notes.md,
 * "Shift copies: batched inversion"); 8 a batch keeps the scratch at 2 x 8 coordinates a thread.
 * x = X / ZZ = X ZZZ / d and y = Y ZZZ^-1 = Y ZZ / d with d = ZZ ZZZ, so
 * the slot holds (X ZZZ, Y ZZ) until the batch's inverse comes back.  A
 * copy at infinity (only from a point of small order, not in a valid key)
 * takes d = 1 and stays (0, 0). */
#define SHIFT_BATCH 8
typedef G16_CAT(DG, _fe) M_(fe);
static __host__ __device__ void M_(shift_batch)(DG *q, int c, int m, AFF *slot, size_t stride)
{
    M_(fe) d[SHIFT_BATCH], pre[SHIFT_BATCH], acc, inv, t;
    P_(fe_one)(&acc);
    for (int b = 0; b < m; b++) {
        AFF s;
        for (int j = 0; j < c; j++) P_(dbl)(q, q);
        if (P_(is_inf)(q)) {
            P_(fe_zero)(&s.x);
            P_(fe_zero)(&s.y);
            P_(fe_one)(&d[b]);
        } else {
            P_(fe_mul)(&s.x, &q->x, &q->zzz);
            P_(fe_mul)(&s.y, &q->y, &q->zz);
            P_(fe_mul)(&d[b], &q->zz, &q->zzz);
        }
        slot[b * stride] = s;
        pre[b] = acc;
        P_(fe_mul)(&acc, &acc, &d[b]);
    }
    P_(fe_inv)(&inv, &acc);
    for (int b = m - 1; b >= 0; b--) {
        AFF s = slot[b * stride];
        P_(fe_mul)(&t, &inv, &pre[b]); /* 1 / d[b] */
        P_(fe_mul)(&inv, &inv, &d[b]); /* 1 / (d[0] .. d[b - 1]) */
        P_(fe_mul)(&s.x, &s.x, &t);
        P_(fe_mul)(&s.y, &s.y, &t);
        slot[b * stride] = s;
    }
}

static __host__ __device__ void M_(shift_copies_body)(const AFF *pts, size_t n, int c, int copies,
                                                      AFF *table, size_t i)
{
    if (i >= n) return;
    AFF a = pts[i];
    DG q;
    table[i] = a;
    if (P_(aff_is_inf)(&a)) { /* every copy of infinity is infinity */
        for (int k = 1; k < copies; k++) table[(size_t)k * n + i] = a;
        return;
    }
    P_(from_aff)(&q, &a);
    for (int k = 1; k < copies; k += SHIFT_BATCH) {
        int m = copies - k < SHIFT_BATCH ? copies - k : SHIFT_BATCH;
        M_(shift_batch)(&q, c, m, table + (size_t)k * n + i, n);
    }
}

KERNEL_1D(M_(shift_copies), (const AFF *pts, size_t n, int c, int copies, AFF *table),
          (pts, n, c, copies, table, TID))

static HD void M_(load_signed)(AFF *a, const AFF *pts, uint32_t v)
{
    VLOAD(*a, pts + (v & 0x7fffffffu), AFF);
    if (v >> 31) P_(aff_neg)(a);
}

/* Marks the partial slots of segment t that no cut run filled: flag 0,
 * infinity, and the segment's first key, which keeps the list sorted. */
static __host__ __device__ void M_(fill_unused)(uint32_t *pkeys, DG *ppts, size_t t,
                                                uint32_t first_key, int wrote_head, int wrote_tail)
{
    DG inf;
    P_(zero_all)(&inf);
    if (!wrote_head) {
        pkeys[2 * t] = first_key << 1;
        ppts[2 * t] = inf;
    }
    if (!wrote_tail) {
        pkeys[2 * t + 1] = first_key << 1;
        ppts[2 * t + 1] = inf;
    }
}

/* A finished run's sum into its bucket.  A pass finishes each bucket
 * once, by one thread at one level, so the store races with nothing.  A
 * chunk of an MSM whose buckets persist across chunks (key.cu's chunked
 * and streamed keys) stores into buckets of its own, which merge_buckets
 * then adds in: a full addition here, in the loop of mixed additions,
 * would cost every thread its registers (chunk_add). */
static HD void M_(bucket_put)(DG *buckets, uint32_t k, const DG *acc) { buckets[k] = *acc; }

/* Sums the runs of the sorted entries [0, m) (keys, and vals: signed
 * indices into pts), one flat loop with one mixed
 * addition an entry: a run wholly inside goes straight to its bucket; the
 * run that continues from the previous segment (head) or into the next
 * (last_next, the key after entry m - 1) goes to the partial list as
 * (key << 1 | 1, sum).  The branch where a run ends is short, so every
 * thread of a warp adds in lockstep (a loop per run made a warp wait at
 * each run's end for its longest run: a third of the accumulation,
 * docs/gpu-notes.md v4). */
static HD void M_(acc_chain)(const uint32_t *keys, const uint32_t *vals, const AFF *pts, size_t m,
                             int head, uint32_t last_next, uint32_t first_key, DG *buckets,
                             uint32_t sent, uint32_t *pkeys, DG *ppts, size_t t)
{
    uint32_t k = m ? keys[0] : sent;
    int wrote_head = 0, wrote_tail = 0, open = 0;
    DG acc;
    P_(set_inf)(&acc);
    for (size_t i = 0; i < m && k < sent; i++) {
        AFF a;
        M_(load_signed)(&a, pts, vals[i]);
        P_(add_aff)(&acc, &a);
        uint32_t next = i + 1 < m ? keys[i + 1] : last_next;
        open = next == k;
        if (open) continue;
        if (head) {
            pkeys[2 * t] = k << 1 | 1;
            ppts[2 * t] = acc;
            wrote_head = 1;
            head = 0;
        } else {
            M_(bucket_put)(buckets, k, &acc);
        }
        P_(set_inf)(&acc);
        k = next;
    }
    if (open) { /* the last run goes on in the next segment */
        int slot = head ? 0 : 1;
        pkeys[2 * t + slot] = k << 1 | 1;
        ppts[2 * t + slot] = acc;
        if (head)
            wrote_head = 1;
        else
            wrote_tail = 1;
    }
    M_(fill_unused)(pkeys, ppts, t, first_key, wrote_head, wrote_tail);
}

/* Level 1: entries (key, signed point index) sorted by key, seg a thread. */
static HD void M_(acc_first_body)(uint32_t *keys, const uint32_t *vals, size_t e, size_t seg,
                                  const AFF *pts, DG *buckets, uint32_t sent, uint32_t *pkeys,
                                  DG *ppts, size_t t)
{
    size_t start = t * seg, end = start + seg;
    if (start >= e) return;
    if (end > e) end = e;
    uint32_t k = keys[start], first_key = k < sent ? k : sent;
    int head = start > 0 && keys[start - 1] == k;
    M_(acc_chain)
    (keys + start, vals + start, pts, end - start, head, end < e ? keys[end] : sent, first_key,
     buckets, sent, pkeys, ppts, t);
}

/* Where MSM_ACC_CAPPED is 1 the kernel's registers are capped so
 * MSM_ACC_MIN_BLOCKS blocks of 128 fit an SM: more warps to hide the
 * products' latency, at the price of a few spills.  At 2^24 capped /
 * uncapped (docs/gpu-notes.md, "Per-group choices, and two that lost"):
 * BN254 G1 49.6 / 50.9 ms, BLS12-381 G2 315.9 / 316.1; uncapped wins for
 * BLS12-381 G1 (113.6 / 112.1) and BN254 G2 (161.9 / 155.0, since the
 * product no longer needs the registers the cap once took away from
 * spills: in v4 capping took it 286 -> 256). */
#if MSM_ACC_CAPPED
#define MSM_ACC_BOUNDS __launch_bounds__(128, MSM_ACC_MIN_BLOCKS)
#else
#define MSM_ACC_BOUNDS
#endif
static __global__ void MSM_ACC_BOUNDS M_(acc_first)(uint32_t *keys, const uint32_t *vals, size_t e,
                                                    size_t seg, const AFF *pts, DG *buckets,
                                                    uint32_t sent, uint32_t *pkeys, DG *ppts)
{
    M_(acc_first_body)(keys, vals, e, seg, pts, buckets, sent, pkeys, ppts, TID);
}
#undef MSM_ACC_BOUNDS

/* Level >= 2: the same flat loop over the partial list (full additions); a
 * run is written to its bucket only when it holds a real partial (flag 1). */
static HD void M_(acc_next_body)(const uint32_t *keys, const DG *pts, size_t e, size_t seg,
                                 DG *buckets, uint32_t sent, uint32_t *okeys, DG *opts, size_t t)
{
    size_t start = t * seg, end = start + seg;
    if (start >= e) return;
    if (end > e) end = e;
    uint32_t k = keys[start] >> 1, first_key = k, real = 0;
    int head = start > 0 && (keys[start - 1] >> 1) == k, wrote_head = 0, wrote_tail = 0;
    int open = 0;
    DG acc;
    P_(set_inf)(&acc);
    for (size_t i = start; i < end && k < sent; i++) {
        DG q;
        VLOAD(q, pts + i, DG);
        real |= keys[i] & 1;
        P_(add)(&acc, &q);
        uint32_t next = i + 1 < e ? keys[i + 1] >> 1 : sent;
        open = next == k;
        if (open) continue;
        if (head) {
            okeys[2 * t] = k << 1 | real;
            opts[2 * t] = acc;
            wrote_head = 1;
            head = 0;
        } else if (real) {
            M_(bucket_put)(buckets, k, &acc);
        }
        P_(set_inf)(&acc);
        real = 0;
        k = next;
    }
    if (open) {
        int slot = head ? 0 : 1;
        okeys[2 * t + slot] = k << 1 | real;
        opts[2 * t + slot] = acc;
        if (head)
            wrote_head = 1;
        else
            wrote_tail = 1;
    }
    M_(fill_unused)(okeys, opts, t, first_key, wrote_head, wrote_tail);
}

KERNEL_1D(M_(acc_next),
          (const uint32_t *keys, const DG *pts, size_t e, size_t seg, DG *buckets, uint32_t sent,
           uint32_t *okeys, DG *opts),
          (keys, pts, e, seg, buckets, sent, okeys, opts, TID))

/* A chunk's buckets added into its MSM's (chunk_add after the first). */
static HD void M_(merge_buckets_body)(DG *buckets, const DG *part, size_t nbk, size_t i)
{
    if (i >= nbk) return;
    DG b, q;
    VLOAD_RW(b, buckets + i, DG);
    VLOAD(q, part + i, DG);
    P_(add)(&b, &q);
    VSTORE(buckets + i, b, DG);
}
KERNEL_1D(M_(merge_buckets), (DG * buckets, const DG *part, size_t nbk), (buckets, part, nbk, TID))

/* Step 4, the bucket sums: window w's sum_b (b + 1) B_b over its nb
 * buckets (bucket b holds digit b + 1).  With b = s L + j (segment s of
 * L buckets),
 *     sum_b (b + 1) B_b = sum_s S_s + L * sum_s s A_s,
 *     S_s = sum_j (j + 1) B_{sL+j},   A_s = sum_j B_{sL+j}:
 * level 1 (bucket_sums, one thread a segment) is two full additions a
 * bucket (the running-sum trick) and no scalar multiple.  The second sum
 * has nseg = nb / L terms; level 2 (bucket_scale) cuts it into segments
 * of L2, each thread its own running sum plus the offset s2 L2 times its
 * segment's sum (a double-and-add of at most 14 bits, run by 1/16 as many
 * threads), times L, added into slot s2 of the level-1 sums; a pairwise
 * tree (add_pairs) then adds each window's nseg slots.  When every
 * level-1 thread multiplied its sum by its offset (up to 19 bits) the
 * phase took 4.9 ms for BN254 G1 at 2^24; now 3.3 + 0.4 (docs/gpu-notes.md,
 * "MSM v7").  L and L2: gpu_msm_plan_buckets (msm_plan.h). */

/* Over v[0, n): *acc = sum_j v_j and *sum = sum_j (j + 1) v_j, the
 * running-sum trick.  (Three points live; for G2 that is 255 registers
 * and ~1.2 KB of spills, but writing the suffix sums over v and adding
 * them in a second pass, two live points, was slower for every group:
 * docs/gpu-notes.md, "Per-group choices, and two that lost".) */
static HD void M_(running_sum)(const DG *v, int n, DG *acc, DG *sum)
{
    DG q;
    P_(set_inf)(acc);
    P_(set_inf)(sum);
    for (int j = n - 1; j >= 0; j--) {
        VLOAD(q, v + j, DG);
        P_(add)(acc, &q);
        P_(add)(sum, acc);
    }
}

static __host__ __device__ void M_(bucket_sums_body)(const DG *buckets, int nw, uint32_t nb,
                                                     uint32_t len, DG *segs, DG *accs, size_t t)
{
    uint32_t nseg = nb / len;
    if (t >= (size_t)nw * nseg) return;
    DG acc, sum;
    M_(running_sum)(buckets + (t / nseg) * nb + (t % nseg) * len, (int)len, &acc, &sum);
    segs[t] = sum;
    accs[t] = acc;
}

KERNEL_1D(M_(bucket_sums),
          (const DG *buckets, int nw, uint32_t nb, uint32_t len, DG *segs, DG *accs),
          (buckets, nw, nb, len, segs, accs, TID))

/* Level 2: segs[w][s2] += L (sum_j (s2 L2 + j) A_{s2 L2 + j}), j < L2. */
static __host__ __device__ void M_(bucket_scale_body)(const DG *accs, int nw, uint32_t nseg,
                                                      uint32_t len, uint32_t len2, DG *segs,
                                                      size_t t)
{
    uint32_t n2 = nseg / len2;
    if (t >= (size_t)nw * n2) return;
    uint32_t s2 = (uint32_t)(t % n2);
    const DG *a = accs + (t / n2) * nseg + (size_t)s2 * len2;
    DG acc, sum, q;
    M_(running_sum)(a + 1, (int)len2 - 1, &acc, &sum); /* weights j; A_0 only joins acc */
    VLOAD(q, a, DG);
    P_(add)(&acc, &q);
    if (s2) {
        P_(mul_small)(&acc, s2 * len2);
        P_(add)(&sum, &acc);
    }
    P_(mul_small)(&sum, len);
    DG *dst = segs + (t / n2) * nseg + s2;
    P_(add)(dst, &sum);
}

KERNEL_1D(M_(bucket_scale),
          (const DG *accs, int nw, uint32_t nseg, uint32_t len, uint32_t len2, DG *segs),
          (accs, nw, nseg, len, len2, segs, TID))

static __host__ __device__ void M_(add_pairs_body)(DG *segs, int nw, uint32_t nseg, uint32_t half,
                                                   size_t t)
{
    if (t >= (size_t)nw * half) return;
    size_t w = t / half, i = t % half;
    DG *base = segs + w * nseg;
    DG q = base[i + half];
    P_(add)(&base[i], &q);
}

KERNEL_1D(M_(add_pairs), (DG * segs, int nw, uint32_t nseg, uint32_t half),
          (segs, nw, nseg, half, TID))

/* The results in the layout the host's Horner takes (gpu_msm_pending):
 * for each set its ng window sums, then its ones slot; one copy back. */
static __host__ __device__ void M_(pack_sums_body)(const DG *segs, uint32_t nseg, const DG *ones,
                                                   int ng, int nsets, DG *out, size_t t)
{
    if (t >= (size_t)nsets * (ng + 1)) return;
    size_t set = t / (ng + 1), j = t % (ng + 1);
    out[t] = j < (size_t)ng ? segs[(set * ng + j) * nseg] : ones[set];
}

KERNEL_1D(M_(pack_sums),
          (const DG *segs, uint32_t nseg, const DG *ones, int ng, int nsets, DG *out),
          (segs, nseg, ones, ng, nsets, out, TID))

/* The window: msm_plan.h's cost model for n points stored as copies shift
 * copies (1: the points alone), unless a test forces one
 * (gpu_tune.msm_window: up to 21 for the points alone, 24 with copies). */
extern "C" int G16_CAT(MSM_NAME, _copies_window)(size_t n, int copies)
{
    int forced = gpu_tune.msm_window, max_c = copies > 1 ? 24 : 21;
    if (forced >= 3 && forced <= max_c) return forced;
    return gpu_msm_plan_window(n, MSM_RBITS, copies);
}

enum {
    WS_KEYS,
    WS_VALS,
    WS_KEYS2,
    WS_VALS2,
    WS_TEMP,
    WS_BUCKETS,
    WS_PK1,
    WS_PP1,
    WS_PK2,
    WS_PP2,
    WS_SEGS,
    WS_ACCS,
    WS_OUT,
    WS_PART /* a chunk's own buckets (chunk_add) */
};

/* Partial lists after level 1 are reduced LEVEL_SEG entries a thread: the
 * list shrinks 4x a level, each level a chain of 8 dependent additions.
 * (32 made each level's chain 4x longer for 16x shrinkage; at 2^20 the
 * levels were ~4 ms of latency, docs/gpu-notes.md v4.) */
#define LEVEL_SEG 8

/* Step 3 of the pipeline (after the sort): the entries into the buckets
 * of nw window groups (every set's) and nsets ones slots after them. */
static int M_(accumulate)(uint32_t *keys, const uint32_t *vals, size_t e, const AFF *pts,
                          DG *buckets, int c, int nw, int nsets, gpu_ws *ws, cudaStream_t st,
                          gpu_prof *prof, char *err, size_t errlen)
{
    uint32_t nb = 1u << (c - 1), sent = (uint32_t)nw * nb + (uint32_t)nsets;
    size_t seg = gpu_msm_plan_first_seg(e), nt = (e + seg - 1) / seg;
    uint32_t *pk[2];
    DG *pp[2];
    void *v;
    for (int k = 0; k < 2; k++) {
        if (gpu_ws_get(ws, WS_PK1 + 2 * k, 2 * nt * 4, &v, err, errlen)) return -1;
        pk[k] = (uint32_t *)v;
        if (gpu_ws_get(ws, WS_PP1 + 2 * k, 2 * nt * sizeof(DG), &v, err, errlen)) return -1;
        pp[k] = (DG *)v;
    }
    M_(acc_first)<<<(unsigned)((nt + 127) / 128), 128, 0, st>>>(keys, vals, e, seg, pts, buckets,
                                                                sent, pk[0], pp[0]);
    GPU_CK_LAUNCH();
    gpu_prof_mark(prof, "acc", st);
    for (int cur = 0, level = 1; nt > 1; cur ^= 1, level++) {
        size_t m = 2 * nt;
        nt = (m + LEVEL_SEG - 1) / LEVEL_SEG;
        M_(acc_next)<<<(unsigned)((nt + 127) / 128), 128, 0, st>>>(
            pk[cur], pp[cur], m, LEVEL_SEG, buckets, sent, pk[cur ^ 1], pp[cur ^ 1]);
        GPU_CK_LAUNCH();
        if (level == 1) gpu_prof_mark(prof, "partials1", st);
    }
    gpu_prof_mark(prof, "partials", st);
    return 0;
}

/* Step 4: the window sums of nw window groups from their buckets, each
 * window's at segs[w nseg] (*segs_out, *nseg_out). */
static int M_(window_sums)(const DG *buckets, int c, int nw, gpu_ws *ws, cudaStream_t st,
                           gpu_prof *prof, DG **segs_out, uint32_t *nseg_out, char *err,
                           size_t errlen)
{
    uint32_t nb = 1u << (c - 1);
    void *v;
    gpu_msm_bucket_plan bp = gpu_msm_plan_buckets(nb);
    uint32_t nseg = bp.nseg;
    size_t total = (size_t)nw * nseg, total2 = (size_t)nw * (nseg / bp.len2);
    if (gpu_ws_get(ws, WS_SEGS, total * sizeof(DG), &v, err, errlen)) return -1;
    DG *segs = (DG *)v;
    if (gpu_ws_get(ws, WS_ACCS, total * sizeof(DG), &v, err, errlen)) return -1;
    DG *accs = (DG *)v;
    M_(bucket_sums)<<<(unsigned)((total + 127) / 128), 128, 0, st>>>(buckets, nw, nb, bp.len, segs,
                                                                     accs);
    GPU_CK_LAUNCH();
    gpu_prof_mark(prof, "buckets", st);
    if (nseg > 1) {
        M_(bucket_scale)<<<(unsigned)((total2 + 127) / 128), 128, 0, st>>>(accs, nw, nseg, bp.len,
                                                                           bp.len2, segs);
        GPU_CK_LAUNCH();
    }
    gpu_prof_mark(prof, "scale", st);
    for (uint32_t half = nseg / 2; half >= 1; half /= 2) {
        size_t th = (size_t)nw * half;
        M_(add_pairs)<<<(unsigned)((th + 127) / 128), 128, 0, st>>>(segs, nw, nseg, half);
        GPU_CK_LAUNCH();
    }
    gpu_prof_mark(prof, "pairs", st);
    *segs_out = segs;
    *nseg_out = nseg;
    return 0;
}

/* Steps 1 and 2: the digits of nsets sets of dp.n scalars (e entries,
 * keys below sent) sorted by key, into the ws's second key and value
 * buffers (*keys, *vals). */
static int M_(sorted_entries)(const uint32_t *d_scalars, M_(digit_plan) dp, size_t e, uint32_t sent,
                              gpu_ws *ws, cudaStream_t st, gpu_prof *prof, uint32_t **keys,
                              uint32_t **vals, char *err, size_t errlen)
{
    int end_bit = 32 - __builtin_clz(sent);
    void *k1, *v1, *k2, *v2, *tmp;
    size_t tmp_bytes = 0;
    if (gpu_ws_get(ws, WS_KEYS, e * 4, &k1, err, errlen) ||
        gpu_ws_get(ws, WS_VALS, e * 4, &v1, err, errlen) ||
        gpu_ws_get(ws, WS_KEYS2, e * 4, &k2, err, errlen) ||
        gpu_ws_get(ws, WS_VALS2, e * 4, &v2, err, errlen))
        return -1;
    GPU_CK(cub::DeviceRadixSort::SortPairs(NULL, tmp_bytes, (uint32_t *)k1, (uint32_t *)k2,
                                           (uint32_t *)v1, (uint32_t *)v2, (int)e, 0, end_bit, st));
    if (gpu_ws_get(ws, WS_TEMP, tmp_bytes, &tmp, err, errlen)) return -1;
    size_t entries = (size_t)dp.nsets * dp.n;
    M_(digits)<<<(unsigned)((entries + 255) / 256), 256, 0, st>>>(d_scalars, dp, (uint32_t *)k1,
                                                                  (uint32_t *)v1);
    GPU_CK_LAUNCH();
    gpu_prof_mark(prof, "digits", st);
    GPU_COUNT(sorts);
    GPU_CK(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, (uint32_t *)k1, (uint32_t *)k2,
                                           (uint32_t *)v1, (uint32_t *)v2, (int)e, 0, end_bit, st));
    gpu_prof_mark(prof, "sort", st);
    *keys = (uint32_t *)k2;
    *vals = (uint32_t *)v2;
    return 0;
}

/* Step 4 and the copy back: the window sums of the ng window groups of
 * each of nsets sets from buckets (and the sets' ones slots after them),
 * packed and copied into the ws's pinned host buffer (pend->host). */
static int M_(land_sums)(const DG *buckets, int c, int ng, int nsets, gpu_ws *ws, cudaStream_t st,
                         gpu_msm_pending *pend, char *err, size_t errlen)
{
    int groups = nsets * ng;
    size_t nout = (size_t)nsets * (ng + 1), nb = (size_t)1 << (c - 1);
    void *out;
    DG *segs;
    uint32_t nseg;
    if (gpu_ws_get(ws, WS_OUT, nout * sizeof(DG), &out, err, errlen) ||
        gpu_ws_host(ws, nout * sizeof(DG), &pend->host, err, errlen) ||
        M_(window_sums)(buckets, c, groups, ws, st, &pend->prof, &segs, &nseg, err, errlen))
        return -1;
    M_(pack_sums)<<<(unsigned)((nout + 127) / 128), 128, 0, st>>>(
        segs, nseg, buckets + (size_t)groups * nb, ng, nsets, (DG *)out);
    GPU_CK_LAUNCH();
    GPU_COUNT(copies);
    GPU_CK(cudaMemcpyAsync(pend->host, out, nout * sizeof(DG), cudaMemcpyDeviceToHost, st));
    gpu_prof_mark(&pend->prof, "copy", st);
    pend->nw = ng;
    return 0;
}

/* What a pending MSM of window c (Horner's shift: c copies) and nsets
 * sets is, before anything is enqueued. */
static void M_(pending_init)(gpu_msm_pending *pend, int c, int nsets, cudaStream_t st)
{
    memset(pend, 0, sizeof *pend);
    pend->curve = MSM_CURVE;
    pend->g2 = MSM_G2;
    pend->st = st;
    pend->c = c; /* Horner's shift from one window group to the next */
    pend->nsets = nsets;
    pend->xyzz = sizeof(DG);
}

/* Enqueues the whole device part on st; the window sums (and the ones
 * slot) of each of the nsets scalar sets land in pinned host memory, and
 * gpu_msm_wait_sets finishes on the host.  d_points holds copies x n points
 * (shift_copies; copies = 1: the plain points) and c is the window the
 * table was made for (ignored when copies = 1: the cost model's for n,
 * which is also the best for a batch: its additions and bucket sums both
 * grow nsets times).  Set s's scalars start at d_scalars + 8 s stride. */
extern "C" int G16_CAT(MSM_NAME, _msm_start_sets)(const void *d_points, int copies, int c,
                                                  const uint32_t *d_scalars, size_t n, int nsets,
                                                  size_t stride, gpu_ws *ws, cudaStream_t st,
                                                  gpu_msm_pending *pend, char *err, size_t errlen)
{
    if (copies <= 1) {
        copies = 1;
        c = G16_CAT(MSM_NAME, _copies_window)(n, 1);
    }
    M_(pending_init)(pend, c * copies, nsets, st);
    if (c < 3 || c > 24 || nsets < 1) {
        snprintf(err, errlen, "gpu: MSM window %d or %d scalar sets out of range", c, nsets);
        return -1;
    }
    int nw = gpu_msm_plan_windows(MSM_RBITS, c), ng = (nw + copies - 1) / copies;
    size_t e = (size_t)nw * n * nsets, nbk = (size_t)nsets * ng * ((size_t)1 << (c - 1)) + nsets;
    if (n == 0) return 0; /* nw = 0: every sum is infinity */
    /* keys carry a flag bit in the partial lists: 2 nbk must fit 32 bits */
    if (e > 0x7fffffffu || (size_t)copies * n > 0x7fffffffu || nbk > 0x7fffffffu) {
        snprintf(err, errlen, "gpu: MSM of %zu points x %d sets is too large", n, nsets);
        return -1;
    }
    void *bk;
    uint32_t *keys, *vals;
    if (gpu_ws_get(ws, WS_BUCKETS, nbk * sizeof(DG), &bk, err, errlen)) return -1;
    gpu_prof_begin(&pend->prof, st);
    GPU_COUNT(copies);
    GPU_CK(cudaMemsetAsync(bk, 0, nbk * sizeof(DG), st));
    M_(digit_plan) dp = {c, nw, copies, nsets, n, stride};
    if (M_(sorted_entries)(d_scalars, dp, e, (uint32_t)nbk, ws, st, &pend->prof, &keys, &vals, err,
                           errlen) ||
        M_(accumulate)(keys, vals, e, (const AFF *)d_points, (DG *)bk, c, nsets * ng, nsets, ws, st,
                       &pend->prof, err, errlen) ||
        M_(land_sums)((const DG *)bk, c, ng, nsets, ws, st, pend, err, errlen))
        return -1;
    snprintf(pend->what, sizeof pend->what, "%s n=%zu c=%d copies=%d sets=%d", G16_STR(MSM_NAME), n,
             c, copies, nsets);
    return 0;
}

/* One MSM over chunks whose buckets persist from chunk to chunk (key.cu's
 * chunked and streamed keys), so that the bucket sums, the copy back and
 * Horner run once an MSM rather than once a chunk.  chunk_add adds the
 * terms of n points (d_points: this chunk's, d_scalars: their scalars)
 * into the buckets of window c, clearing them first when first (the MSM's
 * first chunk); chunk_finish lands the window sums of all chunks as
 * start_sets does (one set; total: the MSM's points, 0 gives infinity).
 * All chunks of an MSM: the same c and ws, on one stream. */
extern "C" int G16_CAT(MSM_NAME, _msm_chunk_add)(const void *d_points, const uint32_t *d_scalars,
                                                 size_t n, int c, int first, gpu_ws *ws,
                                                 cudaStream_t st, char *err, size_t errlen)
{
    if (c < 3 || c > 21) {
        snprintf(err, errlen, "gpu: chunked MSM window %d out of range", c);
        return -1;
    }
    int nw = gpu_msm_plan_windows(MSM_RBITS, c);
    size_t e = (size_t)nw * n, nbk = (size_t)nw * ((size_t)1 << (c - 1)) + 1;
    if (e > 0x7fffffffu) {
        snprintf(err, errlen, "gpu: MSM chunk of %zu points is too large", n);
        return -1;
    }
    /* a later chunk that grew the buckets would lose the earlier ones */
    if (!first && ws->cap[WS_BUCKETS] < nbk * sizeof(DG)) {
        snprintf(err, errlen, "gpu: chunked MSM's buckets were not set up by its first chunk");
        return -1;
    }
    void *bk, *part;
    uint32_t *keys, *vals;
    gpu_prof prof; /* BENCH_PROFILE's phases of the chunk (waits for st when on) */
    memset(&prof, 0, sizeof prof);
    if (gpu_ws_get(ws, WS_BUCKETS, nbk * sizeof(DG), &bk, err, errlen)) return -1;
    if (first) {
        GPU_COUNT(copies);
        GPU_CK(cudaMemsetAsync(bk, 0, nbk * sizeof(DG), st));
    }
    if (n == 0) return 0;
    /* the first chunk accumulates straight into the MSM's buckets; a later
     * one into its own (cleared: it stores only the buckets it touches),
     * then adds them in, one full addition a bucket */
    if (first) {
        part = bk;
    } else {
        if (gpu_ws_get(ws, WS_PART, nbk * sizeof(DG), &part, err, errlen)) return -1;
        GPU_COUNT(copies);
        GPU_CK(cudaMemsetAsync(part, 0, nbk * sizeof(DG), st));
    }
    M_(digit_plan) dp = {c, nw, 1, 1, n, n};
    gpu_prof_begin(&prof, st);
    if (M_(sorted_entries)(d_scalars, dp, e, (uint32_t)nbk, ws, st, &prof, &keys, &vals, err,
                           errlen) ||
        M_(accumulate)(keys, vals, e, (const AFF *)d_points, (DG *)part, c, nw, 1, ws, st, &prof,
                       err, errlen))
        return -1;
    if (!first) {
        M_(merge_buckets)<<<(unsigned)((nbk + 127) / 128), 128, 0, st>>>((DG *)bk, (const DG *)part,
                                                                         nbk);
        GPU_CK_LAUNCH();
        gpu_prof_mark(&prof, "merge", st);
    }
    gpu_prof_end(&prof, G16_STR(MSM_NAME) " chunk_add");
    return 0;
}

extern "C" int G16_CAT(MSM_NAME, _msm_chunk_finish)(size_t total, int c, gpu_ws *ws,
                                                    cudaStream_t st, gpu_msm_pending *pend,
                                                    char *err, size_t errlen)
{
    M_(pending_init)(pend, c, 1, st);
    if (total == 0) return 0; /* nw = 0: infinity */
    int nw = gpu_msm_plan_windows(MSM_RBITS, c);
    size_t nbk = (size_t)nw * ((size_t)1 << (c - 1)) + 1;
    void *bk;
    if (c < 3 || c > 21 || ws->cap[WS_BUCKETS] < nbk * sizeof(DG)) {
        snprintf(err, errlen, "gpu: chunked MSM finished without its buckets (window %d)", c);
        return -1;
    }
    if (gpu_ws_get(ws, WS_BUCKETS, nbk * sizeof(DG), &bk, err, errlen) ||
        M_(land_sums)((const DG *)bk, c, nw, 1, ws, st, pend, err, errlen))
        return -1;
    snprintf(pend->what, sizeof pend->what, "%s chunked n=%zu c=%d", G16_STR(MSM_NAME), total, c);
    return 0;
}

extern "C" int G16_CAT(MSM_NAME, _msm_start_copies)(const void *d_points, int copies, int c,
                                                    const uint32_t *d_scalars, size_t n, gpu_ws *ws,
                                                    cudaStream_t st, gpu_msm_pending *pend,
                                                    char *err, size_t errlen)
{
    return G16_CAT(MSM_NAME, _msm_start_sets)(d_points, copies, c, d_scalars, n, 1, n, ws, st, pend,
                                              err, errlen);
}

/* Builds the table of shift copies of n device points (copies x n points
 * at d_table, copy 0 the points themselves) for window c, on st. */
extern "C" int G16_CAT(MSM_NAME, _shift_copies)(const void *d_points, size_t n, int c, int copies,
                                                void *d_table, cudaStream_t st, char *err,
                                                size_t errlen)
{
    if (n == 0) return 0;
    M_(shift_copies)<<<(unsigned)((n + 127) / 128), 128, 0, st>>>((const AFF *)d_points, n, c,
                                                                  copies, (AFF *)d_table);
    GPU_CK_LAUNCH();
    return 0;
}

/* The synchronous form: start, then wait (one MSM alone on st). */
extern "C" int G16_CAT(MSM_NAME, _msm_dev)(const void *d_points, const uint32_t *d_scalars,
                                           size_t n, uint8_t *out, gpu_ws *ws, cudaStream_t st,
                                           char *err, size_t errlen)
{
    gpu_msm_pending p;
    if (G16_CAT(MSM_NAME, _msm_start_copies)(d_points, 1, 0, d_scalars, n, ws, st, &p, err, errlen))
        return -1;
    return gpu_msm_wait(&p, out, err, errlen);
}

static int M_(cmp_entry)(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x >> 32) < (y >> 32) ? -1 : (x >> 32) > (y >> 32);
}

/* Steps 1 and 2 on the CPU: the digits of dp's sets sorted by key into
 * keys and vals (e entries; qsort in place of CUB). */
static int M_(emulate_sorted)(const uint8_t *scalars, M_(digit_plan) dp, size_t e, uint32_t *keys,
                              uint32_t *vals)
{
    uint64_t *ent = (uint64_t *)malloc(e * 8);
    if (!ent) return -1;
    for (size_t i = 0; i < (size_t)dp.nsets * dp.n; i++)
        M_(digits_body)((const uint32_t *)scalars, dp, keys, vals, i);
    for (size_t i = 0; i < e; i++) ent[i] = (uint64_t)keys[i] << 32 | vals[i];
    qsort(ent, e, 8, M_(cmp_entry));
    for (size_t i = 0; i < e; i++) {
        keys[i] = (uint32_t)(ent[i] >> 32);
        vals[i] = (uint32_t)ent[i];
    }
    free(ent);
    return 0;
}

/* Step 3 thread by thread: the sorted entries into bk (groups window
 * groups of 2^(c - 1) buckets, then nsets ones slots), stored or added. */
static int M_(emulate_accumulate)(const uint32_t *keys, const uint32_t *vals, size_t e,
                                  const AFF *points, int c, int groups, int nsets, DG *bk)
{
    size_t seg = gpu_msm_plan_first_seg(e), nt = (e + seg - 1) / seg;
    uint32_t nb = 1u << (c - 1), sent = (uint32_t)groups * nb + (uint32_t)nsets;
    uint32_t *pk[2] = {(uint32_t *)malloc(2 * nt * 4), (uint32_t *)malloc(2 * nt * 4)};
    DG *pp[2] = {(DG *)malloc(2 * nt * sizeof(DG)), (DG *)malloc(2 * nt * sizeof(DG))};
    int rc = -1;
    if (!pk[0] || !pk[1] || !pp[0] || !pp[1]) goto done;
    for (size_t t = 0; t < nt; t++)
        M_(acc_first_body)((uint32_t *)keys, vals, e, seg, points, bk, sent, pk[0], pp[0], t);
    for (int cur = 0; nt > 1; cur ^= 1) {
        size_t m = 2 * nt;
        nt = (m + LEVEL_SEG - 1) / LEVEL_SEG;
        for (size_t t = 0; t < nt; t++) M_(acc_next_body)
        (pk[cur], pp[cur], m, LEVEL_SEG, bk, sent, pk[cur ^ 1], pp[cur ^ 1], t);
    }
    rc = 0;
done:
    free(pk[0]);
    free(pk[1]);
    free(pp[0]);
    free(pp[1]);
    return rc;
}

/* Step 4 thread by thread: bucket sums and the packed results (out:
 * nsets (nw + 1) points, nw window groups a set). */
static int M_(emulate_sums)(const DG *bk, int c, int nw, int nsets, DG *out)
{
    int groups = nw * nsets;
    uint32_t nb = 1u << (c - 1);
    gpu_msm_bucket_plan bp = gpu_msm_plan_buckets(nb);
    uint32_t nseg = bp.nseg;
    DG *segs = (DG *)malloc((size_t)groups * nseg * sizeof(DG));
    DG *accs = (DG *)malloc((size_t)groups * nseg * sizeof(DG));
    int rc = -1;
    if (!segs || !accs) goto done;
    for (size_t t = 0; t < (size_t)groups * nseg; t++)
        M_(bucket_sums_body)(bk, groups, nb, bp.len, segs, accs, t);
    for (size_t t = 0; nseg > 1 && t < (size_t)groups * (nseg / bp.len2); t++)
        M_(bucket_scale_body)(accs, groups, nseg, bp.len, bp.len2, segs, t);
    for (uint32_t half = nseg / 2; half >= 1; half /= 2)
        for (size_t t = 0; t < (size_t)groups * half; t++)
            M_(add_pairs_body)(segs, groups, nseg, half, t);
    for (size_t t = 0; t < (size_t)nsets * (nw + 1); t++)
        M_(pack_sums_body)(segs, nseg, bk + (size_t)groups * nb, nw, nsets, out, t);
    rc = 0;
done:
    free(segs);
    free(accs);
    return rc;
}

/* The whole pipeline on the CPU, thread by thread, through the same bodies
 * as the kernels (qsort in place of CUB): lets tests check the kernels'
 * logic on a machine without a GPU.  Slow; for small n only.  nsets scalar
 * sets of n, set s at scalars + 32 s stride; outs receives nsets affine
 * points.  Returns 0, or -1 when memory runs out. */
extern "C" int G16_CAT(MSM_NAME, _msm_emulate_sets)(const uint8_t *points, const uint8_t *scalars,
                                                    size_t n, int nsets, size_t stride, int copies,
                                                    uint8_t *outs)
{
    if (copies < 1) copies = 1;
    int c = G16_CAT(MSM_NAME, _copies_window)(n, copies);
    int nw = gpu_msm_plan_windows(MSM_RBITS, c), ng = (nw + copies - 1) / copies;
    size_t total = (size_t)nsets * n, e = (size_t)nw * total;
    size_t nbk = (size_t)nsets * ng * ((size_t)1 << (c - 1)) + nsets;
    if (n == 0) {
        memset(outs, 0, (size_t)nsets * sizeof(AFF));
        return 0;
    }
    AFF *table = (AFF *)malloc((size_t)copies * n * sizeof(AFF));
    uint32_t *keys = (uint32_t *)malloc(e * 4), *vals = (uint32_t *)malloc(e * 4);
    DG *sums = (DG *)malloc((size_t)nsets * (ng + 1) * sizeof(DG));
    DG *bk = (DG *)calloc(nbk, sizeof(DG));
    M_(digit_plan) dp = {c, nw, copies, nsets, n, stride};
    int rc = -1;
    if (!table || !keys || !vals || !sums || !bk) goto done;
    for (size_t i = 0; i < n; i++)
        M_(shift_copies_body)((const AFF *)points, n, c, copies, table, i);
    if (M_(emulate_sorted)(scalars, dp, e, keys, vals) ||
        M_(emulate_accumulate)(keys, vals, e, table, c, nsets * ng, nsets, bk) ||
        M_(emulate_sums)(bk, c, ng, nsets, sums))
        goto done;
    for (int set = 0; set < nsets; set++)
        gpu_msm_horner(MSM_CURVE, MSM_G2, (const uint8_t *)(sums + (size_t)set * (ng + 1)), ng,
                       c * copies, outs + (size_t)set * sizeof(AFF));
    rc = 0;
done:
    free(keys);
    free(vals);
    free(sums);
    free(bk);
    free(table);
    return rc;
}

/* chunk_add and chunk_finish on the CPU (tests of the chunked and
 * streamed schedules): buckets holds buckets_bytes(c), the device's
 * bucket slot, which persists from chunk to chunk. */
extern "C" size_t G16_CAT(MSM_NAME, _msm_emulate_buckets_bytes)(int c)
{
    return ((size_t)gpu_msm_plan_windows(MSM_RBITS, c) * ((size_t)1 << (c - 1)) + 1) * sizeof(DG);
}

extern "C" int G16_CAT(MSM_NAME, _msm_emulate_chunk_add)(void *buckets, int c, int first,
                                                         const uint8_t *points,
                                                         const uint8_t *scalars, size_t n)
{
    int nw = gpu_msm_plan_windows(MSM_RBITS, c);
    size_t e = (size_t)nw * n, bytes = G16_CAT(MSM_NAME, _msm_emulate_buckets_bytes)(c);
    size_t nbk = bytes / sizeof(DG);
    if (first) memset(buckets, 0, bytes);
    if (n == 0) return 0;
    /* as chunk_add: the first chunk into the buckets, a later one into its
     * own, then merged */
    DG *part = first ? (DG *)buckets : (DG *)calloc(nbk, sizeof(DG));
    uint32_t *keys = (uint32_t *)malloc(e * 4), *vals = (uint32_t *)malloc(e * 4);
    M_(digit_plan) dp = {c, nw, 1, 1, n, n};
    int rc = !part || !keys || !vals || M_(emulate_sorted)(scalars, dp, e, keys, vals) ||
             M_(emulate_accumulate)(keys, vals, e, (const AFF *)points, c, nw, 1, part);
    for (size_t i = 0; !rc && !first && i < nbk; i++)
        M_(merge_buckets_body)((DG *)buckets, part, nbk, i);
    if (!first) free(part);
    free(keys);
    free(vals);
    return rc ? -1 : 0;
}

extern "C" int G16_CAT(MSM_NAME, _msm_emulate_chunk_finish)(const void *buckets, int c,
                                                            size_t total, uint8_t *out)
{
    int nw = gpu_msm_plan_windows(MSM_RBITS, c);
    if (total == 0) {
        memset(out, 0, sizeof(AFF));
        return 0;
    }
    DG *sums = (DG *)malloc((size_t)(nw + 1) * sizeof(DG));
    int rc = !sums || M_(emulate_sums)((const DG *)buckets, c, nw, 1, sums);
    if (!rc) gpu_msm_horner(MSM_CURVE, MSM_G2, (const uint8_t *)sums, nw, c, out);
    free(sums);
    return rc ? -1 : 0;
}

extern "C" int G16_CAT(MSM_NAME, _msm_emulate_copies)(const uint8_t *points, const uint8_t *scalars,
                                                      size_t n, int copies, uint8_t *out)
{
    return G16_CAT(MSM_NAME, _msm_emulate_sets)(points, scalars, n, 1, n, copies, out);
}

extern "C" int G16_CAT(MSM_NAME, _msm_emulate)(const uint8_t *points, const uint8_t *scalars,
                                               size_t n, uint8_t *out)
{
    return G16_CAT(MSM_NAME, _msm_emulate_copies)(points, scalars, n, 1, out);
}

#undef VLOAD
#undef VLOAD_RW
#undef VLOAD_WITH
#undef FETCH_PLAIN
#undef VSTORE
#undef KERNEL_1D
#undef TID
#undef M_
#undef P_
#undef AFF
#undef DG
#undef MSM_NAME
#undef MSM_R
#undef MSM_RBITS
#undef MSM_ACC_MIN_BLOCKS
#undef MSM_ACC_CAPPED
#undef MSM_CURVE
#undef MSM_G2
#undef LEVEL_SEG
