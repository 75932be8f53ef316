/* The device memory plan (gpu/msm_plan.h): which keys run whole, in
 * chunks or streamed under a budget, at the sizes the seeds' scale needs
 * (2^25 to 2^27, both curves), and the chunk schedule's index arithmetic
 * past 2^31 and 2^32.  Plain C: runs on machines without a GPU. */
#include <string.h>

#include "../common/test.h"
#include "g16.h"
#include "gpu/msm_plan.h"

#define GIB ((size_t)1 << 30)

/* A key of 2^log_n constraints shaped like the synthetic circuits: as many
 * signals as constraints, four coefficients a constraint in A and B. */
static gpu_mem_need key_need(int curve, int log_n, size_t budget)
{
    gpu_mem_need need;
    size_t n = (size_t)1 << log_n;
    gpu_plan_need(curve, log_n, n, 1, 4 * n, &need);
    need.budget = budget;
    return need;
}

/* What any plan must be: within the budget, with the largest chunk of its
 * mode that is, and in the first mode that fits. */
static void check_plan(const gpu_mem_need *need, const char *what)
{
    gpu_mem_plan p;
    int rc = gpu_plan_memory(need, &p);
    size_t largest = 0;
    for (int i = 0; i < GPU_PLAN_MSMS; i++)
        largest = need->count[i] > largest ? need->count[i] : largest;
    if (rc) {
        CHECK(gpu_plan_bytes(need, GPU_PLAN_MIN_CHUNK, 1) > need->budget);
        return;
    }
    CHECK(p.device_bytes <= need->budget);
    CHECK(p.device_bytes == gpu_plan_bytes(need, p.chunk, p.mode == GPU_MEM_STREAMED));
    if (p.mode == GPU_MEM_WHOLE) {
        CHECK(p.chunk == largest);
        return;
    }
    CHECK(gpu_plan_bytes(need, largest, 0) > need->budget);
    CHECK(p.chunk >= GPU_PLAN_MIN_CHUNK && (p.chunk & (p.chunk - 1)) == 0 && p.chunk < largest);
    if (p.chunk * 2 < largest)
        CHECK(gpu_plan_bytes(need, p.chunk * 2, p.mode == GPU_MEM_STREAMED) > need->budget);
    if (p.mode == GPU_MEM_STREAMED)
        CHECK(gpu_plan_bytes(need, GPU_PLAN_MIN_CHUNK, 0) > need->budget);
    if (test_failures) fprintf(stderr, "  in %s\n", what);
}

static int mode_of(int curve, int log_n, size_t budget, size_t *chunk)
{
    gpu_mem_need need = key_need(curve, log_n, budget);
    gpu_mem_plan p;
    if (gpu_plan_memory(&need, &p)) return -1;
    *chunk = p.chunk;
    return p.mode;
}

/* The H100 (about 78 GiB less the margin) and the H200 (about 139 GiB). */
static void seeds_sizes(void)
{
    size_t h100 = 75 * GIB, h200 = 134 * GIB, chunk;
    /* 2^24 fits whole (proved so on an H100); 2^25 did not (out of memory
     * with a 16 GB key): its five MSMs' work buffers alone are ~55 GB */
    CHECK(mode_of(FORMATS_CURVE_BN128, 24, h100, &chunk) == GPU_MEM_WHOLE);
    CHECK(mode_of(FORMATS_CURVE_BN128, 25, h100, &chunk) == GPU_MEM_CHUNKED);
    CHECK(chunk >= (size_t)1 << 23);
    CHECK(mode_of(FORMATS_CURVE_BLS12381, 26, h100, &chunk) == GPU_MEM_CHUNKED);
    CHECK(chunk >= (size_t)1 << 21);
    CHECK(mode_of(FORMATS_CURVE_BLS12381, 26, h200, &chunk) == GPU_MEM_CHUNKED);
    /* 2^27 BLS12-381: 72 GiB of points, streamed on the H100 */
    CHECK(mode_of(FORMATS_CURVE_BLS12381, 27, h100, &chunk) == GPU_MEM_STREAMED);
    CHECK(mode_of(FORMATS_CURVE_BLS12381, 27, h200, &chunk) == GPU_MEM_CHUNKED);
    /* a small device: streamed, then nothing */
    CHECK(mode_of(FORMATS_CURVE_BLS12381, 26, 40 * GIB, &chunk) == GPU_MEM_STREAMED);
    CHECK(mode_of(FORMATS_CURVE_BLS12381, 27, 8 * GIB, &chunk) == -1);
}

/* Every budget from 1 GiB to 160 GiB, every size from 2^16 to 2^27. */
static void sweep(void)
{
    char what[96];
    for (int curve = 0; curve < 2; curve++)
        for (int log_n = 16; log_n <= 27; log_n++)
            for (size_t b = GIB; b <= 160 * GIB; b += 3 * GIB) {
                int cv = curve ? FORMATS_CURVE_BLS12381 : FORMATS_CURVE_BN128;
                gpu_mem_need need = key_need(cv, log_n, b);
                snprintf(what, sizeof what, "curve %d 2^%d budget %zu GiB", cv, log_n, b / GIB);
                check_plan(&need, what);
            }
}

/* The bytes grow with the chunk (the search relies on it), and a whole
 * MSM of 2^27 points is sized in 64 bits: its sort entries alone pass
 * 2^32 bytes. */
static void sizes_are_wide(void)
{
    gpu_mem_need need = key_need(FORMATS_CURVE_BLS12381, 27, 0);
    for (size_t c = GPU_PLAN_MIN_CHUNK; c < ((size_t)1 << 27); c *= 2) {
        CHECK(gpu_plan_bytes(&need, c, 0) < gpu_plan_bytes(&need, 2 * c, 0));
        CHECK(gpu_plan_bytes(&need, c, 1) < gpu_plan_bytes(&need, 2 * c, 1));
    }
    size_t n = (size_t)1 << 27;
    int c = gpu_msm_plan_window(n, 255, 1), nw = gpu_msm_plan_windows(255, c);
    size_t ws = gpu_msm_plan_workspace_bytes(n, 255, 1, 0, 192, 1);
    CHECK(ws >= 24 * (size_t)nw * n);
    CHECK(ws > ((size_t)1 << 32) * 8);
    /* the points of 2^27 BLS12-381: 4 G1 sets of 96 bytes and G2 of 192 */
    /* at chunk n, streaming holds two copies of every point, residency one:
     * (A, B1, C, H) 4n - 2 G1 points of 96 bytes and n G2 of 192 */
    CHECK(gpu_plan_bytes(&need, n, 1) - gpu_plan_bytes(&need, n, 0) == 576 * n - 192);
}

/* The schedule's slices past 2^31 and 2^32 points. */
static void slices(void)
{
    size_t count = ((size_t)1 << 32) + 5, chunk = (size_t)1 << 31, off;
    CHECK(gpu_plan_rounds(count, chunk) == 3);
    CHECK(gpu_plan_slice(count, chunk, 0, &off) == chunk && off == 0);
    CHECK(gpu_plan_slice(count, chunk, 1, &off) == chunk && off == chunk);
    CHECK(gpu_plan_slice(count, chunk, 2, &off) == 5 && off == (size_t)1 << 32);
    CHECK(gpu_plan_slice(count, chunk, 3, &off) == 0);
    CHECK(gpu_plan_rounds(0, chunk) == 0 && gpu_plan_rounds(7, 7) == 1 &&
          gpu_plan_rounds(8, 7) == 2);
    size_t total = 0;
    for (size_t j = 0; j < gpu_plan_rounds(count, (size_t)3 << 29); j++)
        total += gpu_plan_slice(count, (size_t)3 << 29, j, &off);
    CHECK(total == count);
}

/* g16 info's figures from a key's header: the plan's own, in order. */
static void header_needs(void)
{
    g16_file_info f;
    size_t needs[3], n = (size_t)1 << 25;
    memset(&f, 0, sizeof f);
    CHECK(g16_gpu_memory_needs(&f, needs) == G16_ERR_ARG); /* not typed */
    strcpy(f.type, "zkey");
    f.typed = 1;
    f.curve = "bn128";
    f.n_vars = (uint32_t)n;
    f.n_public = 1;
    f.domain_size = (uint32_t)n;
    f.log2_domain = 25;
    f.n_coefs = (uint32_t)(4 * n);
    CHECK(g16_gpu_memory_needs(&f, needs) == G16_OK);
    gpu_mem_need need = key_need(FORMATS_CURVE_BN128, 25, 0);
    CHECK(needs[0] == gpu_plan_bytes(&need, n, 0));
    CHECK(needs[1] == gpu_plan_bytes(&need, GPU_PLAN_MIN_CHUNK, 0));
    CHECK(needs[2] == gpu_plan_bytes(&need, GPU_PLAN_MIN_CHUNK, 1));
    CHECK(needs[0] > 75 * GIB && needs[1] < needs[0] && needs[2] < needs[1]);
    f.curve = "unknown";
    CHECK(g16_gpu_memory_needs(&f, needs) == G16_ERR_ARG);
}

int main(void)
{
    header_needs();
    seeds_sizes();
    sweep();
    sizes_are_wide();
    slices();
    return test_finish("test_gpu_plan");
}
