/* msm_plan: the GPU MSM's sizing rules (window, segments, bucket sums,
 * work buffers), one source of truth for the kernels (msm_template.cuh)
 * and for the prover's estimate of their device memory (groth16/prover.c,
 * which is also built without CUDA: so plain C in a header, no CUDA).
 *
 * Contract
 * - rbits is the scalar field's bit length (gpu_msm_plan_rbits); digits
 *   are signed, so c-bit windows cover rbits + 1 bits.
 * - copies is the number of shift copies the points are stored as (1: the
 *   points alone); a table of copies shares one bucket set among that many
 *   windows (msm_template.cuh, shift copies).
 * - gpu_msm_plan_workspace_bytes is what one MSM's work buffers (gpu_ws
 *   slots) grow to for n points and sets scalar sets (a batch of proofs),
 *   CUB's sort storage estimated.
 * - gpu_plan_lanes and gpu_plan_batch are the resident key's policy: how
 *   many proof calls it serves at once and how many proofs a call batches,
 *   from the domain alone, so the library, the daemon and the estimates
 *   agree.
 */
#ifndef G16_GPU_MSM_PLAN_H
#define G16_GPU_MSM_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "formats/formats.h"

/* Scalar bits of the curve's group order r. */
static inline int gpu_msm_plan_rbits(int curve) { return curve == FORMATS_CURVE_BN128 ? 254 : 255; }

/* Windows of c bits over rbits + 1 bits. */
static inline int gpu_msm_plan_windows(int rbits, int c) { return (rbits + 1 + c - 1) / c; }

/* The window c minimising n W (bucket additions) + 3 G 2^(c-1) (the bucket
 * sums' full additions over G = ceil(W / copies) bucket sets): c <= 21 for
 * the points alone, so the buckets stay within a few GB, up to 24 with
 * copies (one bucket set serves several windows). */
static inline int gpu_msm_plan_window(size_t n, int rbits, int copies)
{
    int best_c = 3, max_c = copies > 1 ? 24 : 21;
    double best = 1e300;
    if (copies < 1) copies = 1;
    for (int c = 3; c <= max_c; c++) {
        int w = gpu_msm_plan_windows(rbits, c), ng = (w + copies - 1) / copies;
        double cost = (double)n * w + 3.0 * ng * (double)(1u << (c - 1));
        if (cost < best) {
            best = cost;
            best_c = c;
        }
    }
    return best_c;
}

/* Level-1 accumulation segment for e sorted entries: ~2^20 threads for big
 * inputs, 8 entries at least (2^19 and 2^21 threads: within 1%,
 * docs/gpu-notes.md, "The per-group build"). */
static inline size_t gpu_msm_plan_first_seg(size_t e) { return e >> 20 > 8 ? e >> 20 : 8; }

/* The bucket sums of a window's nb buckets: segments of len buckets (8
 * measured slower, docs/gpu-notes.md v4), nseg of them, whose plain sums
 * level 2 weighs in segments of len2 (2, 4, 8: slower, "MSM v7"). */
typedef struct {
    uint32_t len, nseg, len2;
} gpu_msm_bucket_plan;

static inline gpu_msm_bucket_plan gpu_msm_plan_buckets(uint32_t nb)
{
    gpu_msm_bucket_plan p;
    p.len = nb < 32 ? nb : 32;
    p.nseg = nb / p.len;
    p.len2 = p.nseg < 16 ? p.nseg : 16;
    return p;
}

/* One MSM's work buffers for n points whose XYZZ form takes xyzz bytes,
 * window c (0: gpu_msm_plan_window's): keys and values and their sorted
 * copies (16 bytes an entry), the radix sort's temporary storage (about 8
 * bytes an entry), the buckets of G bucket sets plus the ones slot, the
 * bucket sums' two points a segment, and the accumulation's two ping-pong
 * partial lists (a key and a point at each end of a level-1 segment). */
static inline size_t gpu_msm_plan_workspace_bytes(size_t n, int rbits, int copies, int c,
                                                  size_t xyzz, int sets)
{
    if (n == 0) return 0;
    if (copies < 1) copies = 1;
    if (sets < 1) sets = 1;
    if (c == 0) c = gpu_msm_plan_window(n, rbits, copies);
    size_t nw = (size_t)gpu_msm_plan_windows(rbits, c), ng = (nw + copies - 1) / copies * sets;
    size_t e = nw * n * sets, nb = (size_t)1 << (c - 1), seg = gpu_msm_plan_first_seg(e);
    size_t nt = (e + seg - 1) / seg;
    gpu_msm_bucket_plan bp = gpu_msm_plan_buckets((uint32_t)nb);
    size_t buckets = (ng * nb + sets) * xyzz, sums = 2 * ng * bp.nseg * xyzz;
    size_t packed = (ng + sets) * xyzz; /* the results, packed for the copy back */
    return 24 * e + buckets + sums + packed + 2 * (2 * nt * 4 + 2 * nt * xyzz);
}

/* Lanes of a resident key (gpu_key_desc.lanes): 2 up to 2^22, so a second
 * proof's upload and a/b/c overlap the first's MSMs; 1 above, where a
 * second set of work buffers (~5 GB a G1 MSM at 2^24) would not pay for
 * itself: there one proof's MSMs already fill the device. */
static inline int gpu_plan_lanes(int domain_log) { return domain_log <= 22 ? 2 : 1; }

/* Proofs a daemon batches into one call (gpu_prove_msms_batch): up to 2^18
 * a domain, as many as make 2^20 domain elements (so a batch's MSMs are
 * about one 2^20 proof's, where the device is busy: 4 at 2^18, 16 at
 * 2^16), at most 16; 1 above 2^18, where one proof's launches are already
 * a small share of its time. */
static inline int gpu_plan_batch(int domain_log)
{
    if (domain_log > 18) return 1;
    int k = 1 << (20 - domain_log);
    return k > 16 ? 16 : k;
}

/* ---- device memory of a resident key (gpu_key_upload's plan) ----
 *
 * A proof on the device holds: the fixed part (the coefficients by row,
 * the witness, the a/b/c vectors, the NTT tables), the five MSMs' points,
 * and the five MSMs' work buffers, which at the whole size are far larger
 * than the points (24 bytes a window a point: 10.5 GB for one BN254 G1
 * MSM at 2^25, against 2 GB of its points).  So when the whole does not
 * fit the budget, the MSMs run over chunks of points (each chunk sorted
 * and accumulated into the MSM's one set of buckets, at the window of a
 * full chunk, the window sums taken once: the same affine point, so the
 * same proof; gpu/msm_stream.h), and only when even that does not fit
 * with the points resident do the points stay in pinned host memory and
 * stream through two device buffers an MSM, chunk by chunk.  Costs, in
 * order of preference: whole (none); resident chunks (a chunk's window is
 * narrower than the whole MSM's: more windows, more entries a point);
 * streamed (every point crosses PCIe every proof: 2.3 s for a 2^26
 * BLS12-381 key at 20 GB/s). */
#define GPU_PLAN_MSMS      5
#define GPU_PLAN_MIN_CHUNK ((size_t)1 << 16)

typedef struct {
    size_t count[GPU_PLAN_MSMS];       /* points of each MSM */
    size_t point_bytes[GPU_PLAN_MSMS]; /* affine; XYZZ is twice that */
    size_t fixed;                      /* coefficients, witness, a/b/c, NTT tables */
    int rbits;
    size_t budget; /* device bytes the key may hold, work buffers included */
} gpu_mem_need;

enum { GPU_MEM_WHOLE, GPU_MEM_CHUNKED, GPU_MEM_STREAMED };

typedef struct {
    int mode;            /* GPU_MEM_* */
    size_t chunk;        /* points an MSM pass takes (>= every count when whole) */
    size_t device_bytes; /* what the plan holds on the device at most */
} gpu_mem_plan;

static inline size_t gpu_plan_min(size_t a, size_t b) { return a < b ? a : b; }

/* The needs of a key: A, B1, B2 (G2), C (the private signals) and H (the
 * domain) points, affine of two (G2: four) base field elements; the fixed
 * part is the coefficients by row (two row pointers a row, a signal and a
 * scalar a coefficient), the witness, a/b/c and the NTT tables (3n
 * scalars), scalars 32 bytes. */
static inline void gpu_plan_need(int curve, int domain_log, size_t n_vars, size_t n_public,
                                 size_t n_coefs, gpu_mem_need *need)
{
    size_t n = (size_t)1 << domain_log, fq = curve == FORMATS_CURVE_BN128 ? 32 : 48;
    size_t cnt[GPU_PLAN_MSMS] = {n_vars, n_vars, n_vars, n_vars - n_public - 1, n};
    for (int i = 0; i < GPU_PLAN_MSMS; i++) {
        need->count[i] = cnt[i];
        need->point_bytes[i] = (i == 2 ? 4 : 2) * fq;
    }
    need->fixed = 2 * (n + 1) * 4 + n_coefs * 36 + n_vars * 32 + 6 * n * 32;
    need->rbits = gpu_msm_plan_rbits(curve);
    need->budget = 0;
}

/* The buckets of one MSM pass of n points at the cost model's window
 * (one set, and the ones slot), xyzz bytes a bucket. */
static inline size_t gpu_msm_plan_bucket_bytes(size_t n, int rbits, size_t xyzz)
{
    int c = gpu_msm_plan_window(n, rbits, 1);
    return ((size_t)gpu_msm_plan_windows(rbits, c) * ((size_t)1 << (c - 1)) + 1) * xyzz;
}

/* Device bytes of the key and one proof when every MSM runs in chunks of
 * chunk points, the points resident or (streamed) two chunk buffers an
 * MSM; an MSM of more than one chunk also holds a second set of buckets,
 * where each chunk after its first accumulates before they are added in
 * (msm_template.cuh, chunk_add). */
static inline size_t gpu_plan_bytes(const gpu_mem_need *need, size_t chunk, int streamed)
{
    size_t total = need->fixed;
    for (int i = 0; i < GPU_PLAN_MSMS; i++) {
        size_t m = gpu_plan_min(need->count[i], chunk), pb = need->point_bytes[i];
        total += gpu_msm_plan_workspace_bytes(m, need->rbits, 1, 0, 2 * pb, 1);
        total += streamed ? 2 * m * pb : need->count[i] * pb;
        if (need->count[i] > chunk) total += gpu_msm_plan_bucket_bytes(m, need->rbits, 2 * pb);
    }
    return total;
}

/* Chunks a pass of chunk points makes of count points. */
static inline size_t gpu_plan_rounds(size_t count, size_t chunk)
{
    return chunk ? (count + chunk - 1) / chunk : 0;
}

/* Round j's slice of count points in chunks of chunk: its first point
 * (*off) and its length (0: this MSM has no round j). */
static inline size_t gpu_plan_slice(size_t count, size_t chunk, size_t j, size_t *off)
{
    *off = j * chunk;
    return *off >= count ? 0 : gpu_plan_min(chunk, count - *off);
}

/* The first of the modes (whole, chunked, streamed) that fits the budget,
 * with the largest power-of-two chunk that does; 0, or -1 when not even
 * GPU_PLAN_MIN_CHUNK streamed fits (out->device_bytes: that minimum). */
static inline int gpu_plan_memory(const gpu_mem_need *need, gpu_mem_plan *out)
{
    size_t largest = 0;
    for (int i = 0; i < GPU_PLAN_MSMS; i++)
        largest = largest > need->count[i] ? largest : need->count[i];
    out->mode = GPU_MEM_WHOLE;
    out->chunk = largest;
    out->device_bytes = gpu_plan_bytes(need, largest, 0);
    if (out->device_bytes <= need->budget) return 0;
    for (int streamed = 0; streamed < 2; streamed++) {
        size_t top = GPU_PLAN_MIN_CHUNK;
        while (top * 2 < largest) top *= 2;
        for (size_t c = top; c >= GPU_PLAN_MIN_CHUNK; c /= 2) {
            out->mode = streamed ? GPU_MEM_STREAMED : GPU_MEM_CHUNKED;
            out->chunk = c;
            out->device_bytes = gpu_plan_bytes(need, c, streamed);
            if (out->device_bytes <= need->budget) return 0;
        }
    }
    return -1;
}

static inline const char *gpu_plan_mode_name(int mode)
{
    return mode == GPU_MEM_WHOLE     ? "resident"
           : mode == GPU_MEM_CHUNKED ? "resident, chunked MSMs"
                                     : "streamed from host";
}

#endif
