/* NTT kernels for one scalar field, stamped out by ntt.cu.  Expects NF (the
 * device field prefix, d_bn254_fr or d_bls12_381_fr) and NTT_NAME (prefix).
 *
 * Forward transform: radix-2 decimation in frequency (natural order in,
 * bit-reversed out), levels grouped 8 at a time through shared memory so a
 * 2^24 transform reads and writes device memory 3 times instead of 24, then
 * an in-place bit-reversal swap (which also applies the 1/n of the inverse).
 * Twiddles come from a table of omega^t, t < n/2, built once per size. */

#define N_(name) G16_CAT(NTT_NAME, _##name)
#define NFE_(name) G16_CAT(NF, _##name)

/* out[t] = lo[t mod 4096] * hi[t / 4096]: big power tables from two small
 * host-made ones, one product per entry. */
static __global__ void N_(expand)(NF *out, const NF *lo, const NF *hi, size_t count)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= count) return;
    NF a = lo[t & 4095], b = hi[t >> 12];
    NFE_(mul)(&out[t], &a, &b);
}

static __host__ __device__ void N_(mul_table_body)(NF *x, const NF *tab, size_t n, size_t t)
{
    if (t >= n) return;
    NF a = x[t], b = tab[t];
    NFE_(mul)(&x[t], &a, &b);
}

static __global__ void N_(mul_table)(NF *x, const NF *tab, size_t n)
{
    N_(mul_table_body)(x, tab, n, (size_t)blockIdx.x * blockDim.x + threadIdx.x);
}

/* Levels s0 .. s0+k-1 of the DIF (half-size h = 2^(L-1-s)).  One block owns
 * 2^k elements spaced hlo = 2^(L-s0-k) apart, for m = 2^mlog consecutive
 * offsets (so loads come in runs of m elements).  The index arithmetic and
 * the butterfly are host+device helpers so the emulation shares them. */
static __host__ __device__ size_t N_(dif_addr)(int L, int s0, int k, int mlog, size_t block,
                                               int idx)
{
    int hlo_log = L - s0 - k;
    size_t groups = ((size_t)1 << hlo_log) >> mlog;
    size_t hi = block / groups, lo0 = (block % groups) << mlog;
    return (hi << (L - s0)) + lo0 + ((size_t)(idx >> mlog) << hlo_log) +
           (size_t)(idx & ((1 << mlog) - 1));
}

static __host__ __device__ void N_(dif_bfly)(NF *sh, int L, int s0, int k, int mlog, size_t block,
                                             int ll, int q, const NF *tw)
{
    int hlo_log = L - s0 - k, hl_log = k - 1 - ll, hl = 1 << hl_log, m = 1 << mlog;
    int tw_shift = L - 1 - (hl_log + hlo_log);
    size_t lo0 = (block % (((size_t)1 << hlo_log) >> mlog)) << mlog;
    int l = q & (m - 1), p = q >> mlog;
    int j = ((p >> hl_log) << (hl_log + 1)) + (p & (hl - 1)), j2 = j + hl;
    NF u = sh[(j << mlog) + l], v = sh[(j2 << mlog) + l], d;
    size_t ti = ((((size_t)(p & (hl - 1))) << hlo_log) + lo0 + l) << tw_shift;
    NFE_(add)(&sh[(j << mlog) + l], &u, &v);
    NFE_(sub)(&d, &u, &v);
    if (ti) { NF w = tw[ti]; NFE_(mul)(&d, &d, &w); }
    sh[(j2 << mlog) + l] = d;
}

static __global__ void N_(dif)(NF *x, int L, int s0, int k, int mlog, const NF *tw)
{
    extern __shared__ uint4 smem_raw[];
    NF *sh = (NF *)smem_raw;
    int cnt = (1 << mlog) << k;
    for (int idx = threadIdx.x; idx < cnt; idx += blockDim.x)
        sh[idx] = x[N_(dif_addr)(L, s0, k, mlog, blockIdx.x, idx)];
    __syncthreads();
    for (int ll = 0; ll < k; ll++) {
        for (int q = threadIdx.x; q < cnt / 2; q += blockDim.x)
            N_(dif_bfly)(sh, L, s0, k, mlog, blockIdx.x, ll, q, tw);
        __syncthreads();
    }
    for (int idx = threadIdx.x; idx < cnt; idx += blockDim.x)
        x[N_(dif_addr)(L, s0, k, mlog, blockIdx.x, idx)] = sh[idx];
}

/* The same block on the CPU (sh: cnt elements of scratch). */
static void N_(dif_host)(NF *x, int L, int s0, int k, int mlog, const NF *tw, size_t block,
                         NF *sh)
{
    int cnt = (1 << mlog) << k;
    for (int idx = 0; idx < cnt; idx++) sh[idx] = x[N_(dif_addr)(L, s0, k, mlog, block, idx)];
    for (int ll = 0; ll < k; ll++)
        for (int q = 0; q < cnt / 2; q++) N_(dif_bfly)(sh, L, s0, k, mlog, block, ll, q, tw);
    for (int idx = 0; idx < cnt; idx++) x[N_(dif_addr)(L, s0, k, mlog, block, idx)] = sh[idx];
}

/* In-place bit reversal; scale (may be NULL) multiplies every element. */
static __host__ __device__ void N_(bitrev_body)(NF *x, int L, const NF *scale, size_t i)
{
    if (i >> L) return;
    size_t j = (size_t)(G16_BREV64((unsigned long long)i) >> (64 - L));
    if (j < i) return;
    NF a = x[i], b = x[j];
    if (scale) {
        NF s = *scale;
        NFE_(mul)(&a, &a, &s);
        NFE_(mul)(&b, &b, &s);
    }
    x[i] = b;
    x[j] = a;
}

static __global__ void N_(bitrev)(NF *x, int L, const NF *scale)
{
    N_(bitrev_body)(x, L, scale, (size_t)blockIdx.x * blockDim.x + threadIdx.x);
}

/* h = a*b - c, then to plain form: the H MSM takes plain scalars. */
static __host__ __device__ void N_(join_abc_body)(NF *a, const NF *b, const NF *c, size_t n,
                                                  size_t t)
{
    if (t >= n) return;
    NF x = a[t], y = b[t], z = c[t];
    NFE_(mul)(&x, &x, &y);
    NFE_(sub)(&x, &x, &z);
    NFE_(to_plain)(&a[t], &x);
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
        NF x = w[sig[e]], v = val[e];
        NFE_(mul)(&t, &x, &v);
        NFE_(add)(&acc, &acc, &t);
    }
    out[r] = acc;
}

static __host__ __device__ void N_(mul_into_body)(NF *c, const NF *a, const NF *b, size_t n,
                                                  size_t t)
{
    if (t >= n) return;
    NF x = a[t], y = b[t];
    NFE_(mul)(&c[t], &x, &y);
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
