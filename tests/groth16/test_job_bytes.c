/* g16_key_job_bytes_on against reality: the peak resident memory one CPU
 * proof adds to this process.  The key and witness are read into memory
 * first (their pages are resident before the baseline), one proof warms
 * up (thread stacks, the heap's first growth: the daemon's steady state),
 * then /proc/self/clear_refs resets VmHWM and a second proof runs; its
 * VmHWM minus the RSS at the reset is what the proof added.  Like g16d,
 * the test fixes glibc's mmap threshold, so large buffers go back to the
 * kernel when freed.  The estimate must cover the growth, and exceed it
 * by at most MAX_RATIO (it is a bound over every witness, so it charges
 * memory a given witness leaves untouched: bucket overflow arrays, GLV
 * arrays for other mixes of scalars, page rounding).  Not registered in
 * sanitizer builds, where RSS holds shadow memory and quarantine. */
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g16.h"
#include "../common/test.h"
#include "files.h"

#define MAX_RATIO 3.0

/* A field of /proc/self/status in KiB ("VmRSS", "VmHWM"). */
static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t len = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, field, len) && line[len] == ':') kb = strtol(line + len + 1, NULL, 10);
    if (f) fclose(f);
    return kb;
}

static int reset_hwm(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    int ok = fd >= 0 && write(fd, "5", 1) == 1;
    if (fd >= 0) close(fd);
    return ok ? 0 : -1;
}

static int prove(const g16_key *key, const uint8_t *w, size_t wlen, int threads)
{
    g16_options opt;
    char err[512], *proof, *pub;
    g16_options_default(&opt);
    opt.device = G16_DEVICE_CPU;
    opt.threads = threads;
    if (g16_prove(key, w, wlen, "w.wtns", &opt, &proof, &pub, NULL, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    free(proof);
    free(pub);
    return 0;
}

/* dir holds circuit.zkey and witness.wtns. */
static void check(const char *dir, int threads)
{
    char err[512];
    size_t klen, wlen;
    uint8_t *kbuf = read_file(dir, "circuit.zkey", &klen),
            *w = read_file(dir, "witness.wtns", &wlen);
    g16_key *key;
    CHECK(g16_key_open_buffer(kbuf, klen, dir, &key, err, sizeof err) == 0);
    CHECK(prove(key, w, wlen, threads) == 0); /* warm-up */
    malloc_trim(0);                           /* g16d's reaper does this after each proof */
    CHECK(reset_hwm() == 0);
    long base = status_kb("VmRSS");
    CHECK(prove(key, w, wlen, threads) == 0);
    long grew = (status_kb("VmHWM") - base) * 1024;
    size_t est = g16_key_job_bytes_on(key, G16_DEVICE_CPU, 0, threads);
    printf("%s threads=%d: estimate %9zu B, peak RSS growth %9ld B (%.2fx)\n", dir, threads, est,
           grew, grew > 0 ? (double)est / (double)grew : 0.0);
    CHECK(base > 0 && grew > 0);
    CHECK((long)est >= grew);
    CHECK((double)est <= MAX_RATIO * (double)grew);
    /* the estimate's structure: threads cost buckets, the GPU host side is
     * smaller than the CPU job, a/b/c are part of it */
    CHECK(g16_key_job_bytes_on(key, G16_DEVICE_CPU, 0, 64) > est);
    CHECK(g16_key_job_bytes_on(key, G16_DEVICE_GPU, 0, threads) < est);
    CHECK(g16_key_job_bytes_on(key, G16_DEVICE_GPU, 1, threads) >
          g16_key_job_bytes_on(key, G16_DEVICE_GPU, 0, threads));
    CHECK(g16_key_job_bytes_on(key, G16_DEVICE_AUTO, 0, threads) == est); /* not on the GPU */
    CHECK(est > g16_key_job_abc_bytes(key));
    /* device estimates: the copy holds the file's points and coefficients
     * (most of the file) plus the witness and a/b/c vectors; the MSMs'
     * sort buffers take at least 16 bytes per point and window */
    size_t n = g16_key_domain_size(key), v = g16_key_n_vars(key),
           gk = g16_key_gpu_key_bytes(key, 0);
    printf("  gpu estimates: key copy %zu B (file %zu B), workspace %zu B\n", gk, klen,
           g16_key_gpu_workspace_bytes(key));
    CHECK(gk > klen / 2 + 3 * n * 32 && gk < klen + (v + 3 * n) * 32 + 16 * n);
    CHECK(g16_key_gpu_workspace_bytes(key) > 16 * 12 * (size_t)v);
    /* shift copies multiply the points (most of the copy), nothing else */
    size_t pts = g16_key_gpu_key_bytes(key, 2) - gk;
    CHECK(g16_key_gpu_key_bytes(key, 1) == gk && pts > gk / 2 && pts < gk);
    CHECK(g16_key_gpu_key_bytes(key, 12) == gk + 11 * pts);
    g16_key_free(key);
    free(kbuf);
    free(w);
}

int main(int argc, char **argv)
{
    mallopt(M_MMAP_THRESHOLD, 128 * 1024); /* as g16d does */
    static const int threads[] = {1, 2, 8};
    for (int i = 1; i < argc; i++)
        for (int t = 0; t < 3; t++) check(argv[i], threads[t]);
    return test_finish("groth16.job_bytes");
}
