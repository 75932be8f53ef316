/* The public entry points that take paths return g16_status codes that say
 * what kind of failure it was (include/g16.h's contract), and only the
 * public header is used: this is what an embedding program sees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g16.h"
#include "../common/test.h"

static char fixtures[4096];
static char tmpdir[] = "/tmp/g16-status-XXXXXX";

static const char *fixture(const char *curve, const char *file)
{
    static char path[2][4352];
    static int turn;
    turn ^= 1;
    snprintf(path[turn], sizeof path[turn], "%s/%s/multiplier/%s", fixtures, curve, file);
    return path[turn];
}

static const char *scratch(const char *name)
{
    static char path[4352];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static void write_bytes(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        perror(path);
        exit(2);
    }
}

/* rc must be `want`, and err must name `path` (the one-line rule). */
static void expect(int rc, int want, const char *err, const char *path, const char *what)
{
    if (rc != want || (want != G16_OK && !strstr(err, path)))
        fprintf(stderr, "%s: got %s (%s), want %s\n", what, g16_status_name(rc), err,
                g16_status_name(want));
    CHECK(rc == want);
    CHECK(want == G16_OK || strstr(err, path) != NULL);
}

static void key_open_statuses(void)
{
    char err[512] = "";
    g16_key *key = NULL;
    const char *missing = scratch("missing.zkey"), *junk = scratch("junk.zkey");
    expect(g16_key_open(missing, &key, err, sizeof err), G16_ERR_NOT_FOUND, err, missing,
           "key_open missing");
    write_bytes(junk, "zkey but not really");
    expect(g16_key_open(junk, &key, err, sizeof err), G16_ERR_FORMAT, err, junk, "key_open junk");
    CHECK(key == NULL);
    expect(g16_key_open(fixture("bn128", "circuit.zkey"), &key, err, sizeof err), G16_OK, err, "",
           "key_open fixture");
    g16_key_free(key);
}

static void check_files_statuses(void)
{
    char err[512] = "";
    g16_check_result res;
    char r1cs[4352];
    snprintf(r1cs, sizeof r1cs, "%s", fixture("bn128", "circuit.r1cs"));
    const char *missing = scratch("missing.wtns");
    expect(g16_check_files(r1cs, missing, 1, &res, err, sizeof err), G16_ERR_NOT_FOUND, err,
           missing, "check missing witness");
    const char *other = fixture("bls12381", "witness.wtns");
    expect(g16_check_files(r1cs, other, 1, &res, err, sizeof err), G16_ERR_MISMATCH, err, other,
           "check other curve");
    expect(g16_check_files(r1cs, fixture("bn128", "witness.wtns"), 1, &res, err, sizeof err),
           G16_OK, err, "", "check fixture");
    CHECK(res.satisfied);
}

static void setup_statuses(void)
{
    char err[512] = "";
    g16_setup_options opt = {.threads = 1, .seeded = 1, .seed = 7};
    const char *missing = scratch("missing.r1cs"), *zkey = scratch("out.zkey");
    expect(g16_setup_insecure_dev(missing, zkey, &opt, err, sizeof err), G16_ERR_NOT_FOUND, err,
           missing, "setup missing r1cs");
    CHECK(access(zkey, F_OK) != 0);
    const char *nodir = scratch("no/such/dir/vk.json");
    expect(g16_setup_write_vk(fixture("bn128", "circuit.zkey"), nodir, err, sizeof err), G16_ERR_IO,
           err, nodir, "write_vk into a missing directory");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_status FIXTURES\n");
        return 2;
    }
    snprintf(fixtures, sizeof fixtures, "%s", argv[1]);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    key_open_statuses();
    check_files_statuses();
    setup_statuses();
    unlink(scratch("junk.zkey"));
    rmdir(tmpdir);
    return test_finish("test_status");
}
