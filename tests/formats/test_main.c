/* test_formats GROUP FIXTURES DATA: runs one group of formats tests. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"

void test_group_fixtures(void);
void test_group_truncation(void);
void test_group_corruption(void);
void test_group_targeted(void);
void test_group_files(void);
void test_group_writers(void);

static const struct {
    const char *name;
    void (*run)(void);
} groups[] = {
    {"fixtures", test_group_fixtures},     {"truncation", test_group_truncation},
    {"corruption", test_group_corruption}, {"targeted", test_group_targeted},
    {"files", test_group_files},           {"writers", test_group_writers},
};

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(test_tmpdir, 4096, "%s/g16-formats-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(test_tmpdir)) {
        perror(test_tmpdir);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s GROUP FIXTURES DATA\n", argv[0]);
        return 2;
    }
    test_fixtures = argv[2];
    test_data = argv[3];
    make_tmpdir();
    int found = 0;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (!strcmp(argv[1], groups[i].name)) {
            groups[i].run();
            found = 1;
        }
    nftw(test_tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (!found) {
        fprintf(stderr, "unknown group %s\n", argv[1]);
        return 2;
    }
    printf("%s: %d failures\n", argv[1], test_failures);
    return test_failures ? 1 : 0;
}
