/* Writers: wtns and r1cs round trips, atomic output files. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "formats/formats.h"
#include "test_util.h"

/* snarkjs writes .wtns exactly as wtns_write does, so a rewrite of a
 * fixture must reproduce it byte for byte. */
static void wtns_round_trip(const char *curve, const char *circuit)
{
    char err[256];
    wtns w, back;
    const char *src = test_fixture(curve, circuit, "witness.wtns");
    if (wtns_open(src, &w, err, sizeof err)) {
        CHECK(0, "%s", err);
        return;
    }
    const char *out = test_tmp("rt.wtns");
    CHECK(wtns_write(out, w.n8, w.prime, w.n_witness, w.values, err, sizeof err) == 0, "%s", err);
    size_t la, lb;
    uint8_t *a = test_load(src, &la), *b = test_load(out, &lb);
    CHECK(la == lb && !memcmp(a, b, la), "%s/%s: rewrite differs", curve, circuit);
    CHECK(wtns_open(out, &back, err, sizeof err) == 0 && back.n_witness == w.n_witness, "%s", err);
    wtns_close(&back);
    wtns_close(&w);
    free(a);
    free(b);
}

static void r1cs_compare(const r1cs *a, const r1cs *b, const char *what)
{
    CHECK(a->n8 == b->n8 && !memcmp(a->prime, b->prime, a->n8), "%s", what);
    CHECK(a->n_wires == b->n_wires && a->n_pub_out == b->n_pub_out && a->n_pub_in == b->n_pub_in &&
              a->n_prv_in == b->n_prv_in && a->n_labels == b->n_labels &&
              a->n_constraints == b->n_constraints,
          "%s: header numbers", what);
    CHECK(a->size == b->size && !memcmp(a->constraints, b->constraints, (size_t)a->size),
          "%s: constraints", what);
}

static r1cs_desc desc_of(const r1cs *r)
{
    r1cs_desc d = {r->n8,       r->prime,    r->n_wires,       r->n_pub_out,   r->n_pub_in,
                   r->n_prv_in, r->n_labels, r->n_constraints, r->constraints, r->size};
    return d;
}

static void r1cs_round_trip(const char *curve, const char *circuit)
{
    char err[256];
    r1cs r, back;
    if (r1cs_open(test_fixture(curve, circuit, "circuit.r1cs"), &r, err, sizeof err)) {
        CHECK(0, "%s", err);
        return;
    }
    const char *out = test_tmp("rt.r1cs");
    r1cs_desc d = desc_of(&r);
    CHECK(r1cs_write(out, &d, err, sizeof err) == 0, "%s", err);
    if (r1cs_open(out, &back, err, sizeof err) == 0) {
        r1cs_compare(&r, &back, circuit);
        CHECK(back.wire_labels &&
                  formats_u64le(back.wire_labels + 8ull * (r.n_wires - 1)) == r.n_wires - 1,
              "identity labels");
        r1cs_close(&back);
    } else {
        CHECK(0, "%s", err);
    }
    r1cs_close(&r);
}

/* r1cs_write validates what it is given, and leaves no file behind. */
static void r1cs_write_rejects(void)
{
    char err[256];
    r1cs r;
    if (r1cs_open(test_fixture("bn128", "multiplier", "circuit.r1cs"), &r, err, sizeof err)) {
        CHECK(0, "%s", err);
        return;
    }
    r1cs_desc d = desc_of(&r);
    d.n_wires = 3; /* the constraint uses wire 3 */
    d.n_prv_in = 1;
    const char *out = test_tmp("bad.r1cs");
    CHECK_ERR(r1cs_write(out, &d, err, sizeof err), err, out, "wire 3 is not below nWires (3)");
    CHECK(access(out, F_OK) != 0, "no output left behind");
    d = desc_of(&r);
    d.n_prv_in = 3;
    CHECK_ERR(r1cs_write(out, &d, err, sizeof err), err, out,
              "1 + outputs + inputs (5) exceeds nWires (4)");
    r1cs_close(&r);
}

/* 1 if test_tmpdir holds a leftover "*.tmp.*" file. */
static int temp_files_left(void)
{
    DIR *d = opendir(test_tmpdir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d))) found |= strstr(e->d_name, ".tmp.") != NULL;
    if (d) closedir(d);
    return found;
}

static void atomic_basics(void)
{
    char err[256];
    size_t len;
    const char *p = test_tmp("atomic.txt");
    mode_t old = umask(022);
    CHECK(atomic_write_file(p, "first", 5, err, sizeof err) == 0, "%s", err);
    CHECK(atomic_write_file(p, "second!", 7, err, sizeof err) == 0, "%s", err);
    uint8_t *b = test_load(p, &len);
    CHECK(len == 7 && !memcmp(b, "second!", 7), "overwritten");
    free(b);
    struct stat st;
    CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0644, "mode %o", (unsigned)st.st_mode & 0777);
    umask(old);
    CHECK(atomic_write_file(test_tmp("empty.out"), "", 0, err, sizeof err) == 0, "%s", err);
}

static void atomic_failures(void)
{
    char err[256];
    const char *p = test_tmp("no/such/dir/out.json");
    CHECK_ERR(atomic_write_file(p, "x", 1, err, sizeof err), err, p, "No such file or directory");
    const char *dir = test_tmp("a-directory");
    mkdir(dir, 0755);
    CHECK_ERR(atomic_write_file(dir, "x", 1, err, sizeof err), err, dir, "Is a directory");
    CHECK(!temp_files_left(), "temporary file removed");
    if (geteuid() != 0) { /* root ignores directory permissions */
        const char *ro = test_tmp("read-only");
        mkdir(ro, 0555);
        char path[4400];
        snprintf(path, sizeof path, "%s/out", ro);
        CHECK_ERR(atomic_write_file(path, "x", 1, err, sizeof err), err, path, "Permission denied");
    }
    atomic_file f;
    CHECK(atomic_file_open(&f, test_tmp("aborted"), err, sizeof err) == 0, "%s", err);
    CHECK(atomic_file_write(&f, "abc", 3, err, sizeof err) == 0, "%s", err);
    atomic_file_abort(&f);
    atomic_file_abort(&f); /* idempotent */
    CHECK(access(test_tmp("aborted"), F_OK) != 0 && !temp_files_left(), "abort leaves nothing");
}

/* atomic_file_write_direct: the file holds exactly the bytes given,
 * whether the bulk went with O_DIRECT (an aligned buffer at an aligned
 * offset, a tail that is not a whole block) or could not (an offset or an
 * address out of alignment: buffered). */
static void atomic_direct(void)
{
    char err[256];
    size_t n = ((size_t)3 << 20) + 1234, len;
    void *mem = NULL;
    CHECK(posix_memalign(&mem, 4096, n + 4096) == 0, "memory");
    uint8_t *buf = mem;
    if (!buf) return;
    for (size_t i = 0; i < n + 1; i++) buf[i] = (uint8_t)(i * 7 + (i >> 12));
    for (int pre = 0; pre < 3; pre++) { /* nothing first; 5 bytes first; an unaligned source */
        const char *p = test_tmp("direct.out");
        const uint8_t *src = pre == 2 ? buf + 1 : buf;
        atomic_file f;
        CHECK(atomic_file_open(&f, p, err, sizeof err) == 0, "%s", err);
        if (pre == 1) CHECK(atomic_file_write(&f, "head!", 5, err, sizeof err) == 0, "%s", err);
        CHECK(atomic_file_write_direct(&f, src, n, err, sizeof err) == 0, "%s", err);
        CHECK(atomic_file_write(&f, "tail", 4, err, sizeof err) == 0, "%s", err);
        CHECK(atomic_file_commit(&f, err, sizeof err) == 0, "%s", err);
        uint8_t *b = test_load(p, &len);
        size_t at = pre == 1 ? 5 : 0;
        CHECK(b && len == at + n + 4 && (!at || !memcmp(b, "head!", 5)) &&
                  !memcmp(b + at, src, n) && !memcmp(b + at + n, "tail", 4),
              "direct write %d: %zu bytes back", pre, len);
        free(b);
    }
    CHECK(!temp_files_left(), "no temporary file left");
    free(buf);
}

void test_group_writers(void)
{
    wtns_round_trip("bn128", "pubmany");
    wtns_round_trip("bls12381", "chain");
    r1cs_round_trip("bn128", "multiplier");
    r1cs_round_trip("bls12381", "chain");
    r1cs_write_rejects();
    atomic_basics();
    atomic_failures();
    atomic_direct();
}
