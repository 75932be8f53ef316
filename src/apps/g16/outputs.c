/* What the commands that write two outputs (prove, fullprove) check of
 * their paths before any work: that they are not one file. */
#define _GNU_SOURCE
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"

/* path with its directory resolved (symlinks, "..", "./"), the last
 * component kept as written: where rename() will put the file.  NULL when
 * the directory does not resolve (the output's own check says why). */
static char *resolved(const char *path)
{
    char *d = strdup(path), *b = strdup(path), dir[PATH_MAX], *out = NULL;
    if (d && b && realpath(dirname(d), dir) &&
        asprintf(&out, "%s/%s", strcmp(dir, "/") ? dir : "", basename(b)) < 0)
        out = NULL;
    free(d);
    free(b);
    return out;
}

static int same_output(const char *a, const char *b)
{
    struct stat sa, sb;
    /* lstat: a hard link is the same file; a symlink is replaced by the
     * rename, not written through, so two links to one target are not */
    if (lstat(a, &sa) == 0 && lstat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ra = resolved(a), *rb = resolved(b);
    int same = ra && rb ? !strcmp(ra, rb) : !strcmp(a, b);
    free(ra);
    free(rb);
    return same;
}

int cli_distinct_outputs(const char *cmd, const char *a, const char *b)
{
    if (!same_output(a, b)) return 0;
    fprintf(stderr, "%s: %s and %s are the same file: one output would be lost\n", cmd, a, b);
    return -1;
}
