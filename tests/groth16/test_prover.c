/* The library API of include/g16.h, through its real entry points: keys
 * opened from memory buffers, many witnesses per key, the staged calls and
 * their ordering, public signals equal to snarkjs's, fresh randomness per
 * proof, and clear errors for witnesses that do not fit the key.  Whether
 * the proofs verify is checked by the e2e tests (snarkjs) and, when the
 * verifier is built, here through g16_verify_json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16.h"
#include "../common/test.h"
#include "../common/verdict.h"
#include "files.h"

/* The last stage of a job whose MSMs ran: its public signals are
 * snarkjs's, the proof verifies (when the verifier is built), it ran where
 * asked.  Frees the job. */
static void finish_and_check(g16_job *job, int on_gpu, const char *want_public, const char *vk)
{
    char err[512], *p, *q;
    CHECK(g16_job_finish(job, &p, &q, err, sizeof err) == 0);
    CHECK(g16_job_timings(job)->on_gpu == on_gpu);
    CHECK(strcmp(q, want_public) == 0);
#ifdef G16_TEST_VERIFY
    CHECK(test_verdict(vk, q, p, err, sizeof err) == 1);
#else
    (void)vk;
#endif
    free(p);
    free(q);
    g16_job_free(job);
}

/* The remaining stages of a new job, checked as finish_and_check. */
static void run_job_and_check(g16_job *job, int on_gpu, const char *want_public, const char *vk)
{
    char err[512];
    CHECK(g16_job_synthesize(job, err, sizeof err) == 0);
    CHECK(g16_job_msm(job, err, sizeof err) == 0);
    finish_and_check(job, on_gpu, want_public, vk);
}

/* g16_jobs_msm: a batch of jobs of one key (on the GPU one pass of each
 * MSM for all of them, on the CPU one after another) gives proofs that
 * verify, each with snarkjs's public signals; stages stay checked. */
static void check_jobs_msm(g16_key *key, const uint8_t *wtns, size_t w_len, int device,
                           const char *want_public, const char *vk)
{
    enum { N = 5 };
    char err[512];
    g16_job *jobs[N];
    g16_options opt;
    g16_options_default(&opt);
    opt.device = device;
    for (int i = 0; i < N; i++) {
        CHECK(g16_job_new(key, wtns, w_len, "w.wtns", &opt, &jobs[i], err, sizeof err) == 0);
        if (i < N - 1) CHECK(g16_job_synthesize(jobs[i], err, sizeof err) == 0);
    }
    /* one job not synthesized: refused, and the call runs none of them */
    CHECK(g16_jobs_msm(jobs, N, err, sizeof err) != 0 && strstr(err, "out of order"));
    CHECK(g16_job_synthesize(jobs[N - 1], err, sizeof err) == 0);
    CHECK(g16_jobs_msm(jobs, N, err, sizeof err) == 0);
    for (int i = 0; i < N; i++)
        finish_and_check(jobs[i], device == G16_DEVICE_GPU, want_public, vk);
}

static void check_fixture(const char *fixtures, const char *curve, const char *circuit)
{
    char dir[1024], err[512];
    size_t key_len, w_len, pub_len, vk_len;
    snprintf(dir, sizeof dir, "%s/%s/%s", fixtures, curve, circuit);
    uint8_t *key_buf = read_file(dir, "circuit.zkey", &key_len);
    uint8_t *wtns = read_file(dir, "witness.wtns", &w_len);
    char *want_public = (char *)read_file(dir, "public.json", &pub_len);
    char *vk = (char *)read_file(dir, "verification_key.json", &vk_len);
    g16_key *key;
    CHECK(g16_key_open_buffer(key_buf, key_len, "k.zkey", &key, err, sizeof err) == 0);
    CHECK(strcmp(g16_key_curve(key), curve) == 0);
    CHECK(g16_key_job_bytes(key) > g16_key_job_abc_bytes(key));

    char *proof[2], *pub[2];
    for (int i = 0; i < 2; i++) { /* one key, several witnesses */
        g16_options opt;
        g16_options_default(&opt);
        opt.threads = 1 + i;
        g16_timings t;
        CHECK(g16_prove(key, wtns, w_len, "w.wtns", &opt, &proof[i], &pub[i], &t, err,
                        sizeof err) == 0);
        CHECK(strcmp(pub[i], want_public) == 0);
        CHECK(strstr(proof[i], "\"protocol\": \"groth16\"") != NULL);
        CHECK(t.total > 0);
#ifdef G16_TEST_VERIFY
        CHECK(test_verdict(vk, pub[i], proof[i], err, sizeof err) == 1);
#endif
    }
    CHECK(strcmp(proof[0], proof[1]) != 0); /* r and s are fresh each time */

    /* stages out of order are refused, not run */
    g16_job *job;
    char *p, *q;
    CHECK(g16_job_new(key, wtns, w_len, "w.wtns", NULL, &job, err, sizeof err) == 0);
    CHECK(g16_job_msm(job, err, sizeof err) != 0 && strstr(err, "out of order"));
    CHECK(g16_job_synthesize(job, err, sizeof err) == 0);
    CHECK(g16_job_synthesize(job, err, sizeof err) != 0);
    CHECK(g16_job_msm(job, err, sizeof err) == 0);
    CHECK(g16_job_finish(job, &p, &q, err, sizeof err) == 0);
    CHECK(strcmp(q, want_public) == 0);
    free(p);
    free(q);
    g16_job_free(job);

    /* --device gpu: a proof equal in its public part (and verified) where
     * a GPU is usable; elsewhere a refusal that says why, never a silent
     * CPU proof */
    g16_options gpu_opt;
    g16_options_default(&gpu_opt);
    gpu_opt.device = G16_DEVICE_GPU;
    for (int g2_cpu = 0; g2_cpu < 2; g2_cpu++) {
        gpu_opt.g2_on_cpu = g2_cpu;
        int rc = g16_job_new(key, wtns, w_len, "w.wtns", &gpu_opt, &job, err, sizeof err);
        if (!g16_gpu_available()) {
            CHECK(rc != 0 && strstr(err, "w.wtns: --device gpu: ") == err);
            CHECK(strstr(err, "CUDA") != NULL);
            break;
        }
        CHECK(rc == 0);
        run_job_and_check(job, 1, want_public, vk);
    }
    check_jobs_msm(key, wtns, w_len, G16_DEVICE_CPU, want_public, vk);
    if (g16_gpu_available()) check_jobs_msm(key, wtns, w_len, G16_DEVICE_GPU, want_public, vk);
    /* borrow_witness: the job reads the caller's buffer (proof still
     * right); without it the buffer may be scribbled on after job_new */
    for (int borrow = 0; borrow < 2; borrow++) {
        g16_options bo;
        g16_options_default(&bo);
        bo.device = G16_DEVICE_CPU;
        bo.borrow_witness = borrow;
        uint8_t *w2 = malloc(w_len);
        memcpy(w2, wtns, w_len);
        CHECK(g16_job_new(key, w2, w_len, "w.wtns", &bo, &job, err, sizeof err) == 0);
        if (!borrow) memset(w2, 0xff, w_len);
        run_job_and_check(job, 0, want_public, vk);
        free(w2);
    }
    /* --device cpu never touches the GPU */
    g16_options cpu_opt;
    g16_options_default(&cpu_opt);
    cpu_opt.device = G16_DEVICE_CPU;
    CHECK(g16_job_new(key, wtns, w_len, "w.wtns", &cpu_opt, &job, err, sizeof err) == 0);
    CHECK(g16_job_synthesize(job, err, sizeof err) == 0 && g16_job_msm(job, err, sizeof err) == 0);
    CHECK(g16_job_timings(job)->on_gpu == 0);
    g16_job_free(job);

    /* a witness one value short names itself and the key */
    uint8_t *short_w = malloc(w_len);
    memcpy(short_w, wtns, w_len);
    CHECK(g16_job_new(key, short_w, w_len - 32, "short.wtns", NULL, &job, err, sizeof err) != 0);
    CHECK(strstr(err, "short.wtns") != NULL);
    free(short_w);

    for (int i = 0; i < 2; i++) {
        free(proof[i]);
        free(pub[i]);
    }
    g16_key_free(key);
    free(key_buf);
    free(wtns);
    free(want_public);
    free(vk);
}

/* A witness of the other curve is refused with both names in the message. */
static void check_wrong_curve(const char *fixtures)
{
    char dir[1024], err[512];
    size_t key_len, w_len;
    snprintf(dir, sizeof dir, "%s/bn128/multiplier", fixtures);
    uint8_t *key_buf = read_file(dir, "circuit.zkey", &key_len);
    snprintf(dir, sizeof dir, "%s/bls12381/multiplier", fixtures);
    uint8_t *wtns = read_file(dir, "witness.wtns", &w_len);
    g16_key *key;
    g16_job *job;
    CHECK(g16_key_open_buffer(key_buf, key_len, "bn.zkey", &key, err, sizeof err) == 0);
    CHECK(g16_job_new(key, wtns, w_len, "bls.wtns", NULL, &job, err, sizeof err) ==
          G16_ERR_MISMATCH);
    CHECK(strstr(err, "bls.wtns") && strstr(err, "bls12381") && strstr(err, "bn128"));
    char *p, *q;
    CHECK(g16_prove(key, wtns, w_len, "bls.wtns", NULL, &p, &q, NULL, err, sizeof err) ==
          G16_ERR_MISMATCH);
    g16_key_free(key);
    free(key_buf);
    free(wtns);
}

/* Each failure returns the status that says what kind it was, which a
 * program passes on (the Node.js package as an Error's code). */
static void check_statuses(const char *fixtures)
{
    char path[1024], err[512], *p, *q;
    g16_key *key;
    g16_job *job;
    snprintf(path, sizeof path, "%s/bn128/multiplier/no-such.zkey", fixtures);
    CHECK(g16_key_open(path, &key, err, sizeof err) == G16_ERR_NOT_FOUND && !key);
    CHECK(strstr(err, "no-such.zkey") != NULL);
    CHECK(g16_key_open(fixtures, &key, err, sizeof err) == G16_ERR_IO && !key);
    snprintf(path, sizeof path, "%s/bn128/multiplier/witness.wtns", fixtures);
    CHECK(g16_key_open(path, &key, err, sizeof err) == G16_ERR_FORMAT && !key);
    snprintf(path, sizeof path, "%s/bn128/multiplier/circuit.zkey", fixtures);
    CHECK(g16_key_open(path, &key, err, sizeof err) == G16_OK);
    static const uint8_t junk[] = "not a witness";
    CHECK(g16_prove(key, junk, sizeof junk, "junk.wtns", NULL, &p, &q, NULL, err, sizeof err) ==
          G16_ERR_FORMAT);
    size_t w_len;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/bn128/multiplier", fixtures);
    uint8_t *wtns = read_file(dir, "witness.wtns", &w_len);
    g16_options opt;
    g16_options_default(&opt);
    opt.device = G16_DEVICE_CPU;
    CHECK(g16_job_new(key, wtns, w_len, "w.wtns", &opt, &job, err, sizeof err) == G16_OK);
    CHECK(g16_job_msm(job, err, sizeof err) == G16_ERR_ARG); /* before synthesize */
    g16_job_free(job);
    if (!g16_gpu_available()) {
        opt.device = G16_DEVICE_GPU;
        CHECK(g16_prove(key, wtns, w_len, "w.wtns", &opt, &p, &q, NULL, err, sizeof err) ==
              G16_ERR_UNSUPPORTED);
    }
    free(wtns);
    g16_key_free(key);
}

int main(int argc, char **argv)
{
    const char *fixtures = argc > 1 ? argv[1] : "../shared/fixtures";
    static const char *const cases[][2] = {
        {"bn128", "multiplier"},    {"bn128", "chain"},      {"bn128", "pubmany"},
        {"bls12381", "multiplier"}, {"bls12381", "pubmany"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_fixture(fixtures, cases[i][0], cases[i][1]);
    check_wrong_curve(fixtures);
    check_statuses(fixtures);
    return test_finish("groth16");
}
