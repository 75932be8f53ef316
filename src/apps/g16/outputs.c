/* What the commands that write files check of their paths before any
 * work: that no output is one of the inputs, which it would replace, and
 * that no two outputs are one file, where one would be lost. */
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

/* Whether writing output out replaces the file that input in is read
 * from: the entry out names (lstat, as the rename sees it) is in's file
 * (stat: an input is read through its symlinks).  That is one path
 * however spelled (".", "..", a symlinked directory), a hard link to it,
 * or an input that is a symlink to the output.  An output that does not
 * exist yet is no input's file (an input that does not exist fails as
 * such); an output that is a symlink to an input is replaced by the
 * rename, the input untouched, as same_output has it. */
static int replaces_input(const char *out, const char *in)
{
    struct stat so, si;
    return lstat(out, &so) == 0 && stat(in, &si) == 0 && so.st_dev == si.st_dev &&
           so.st_ino == si.st_ino;
}

int cli_check_outputs(const char *cmd, const char *const *in, int nin, const char *const *out,
                      int nout)
{
    for (int o = 0; o < nout; o++) {
        for (int i = 0; i < nin; i++)
            if (replaces_input(out[o], in[i])) {
                fprintf(stderr,
                        "%s: output %s and input %s are the same file: the input would be lost\n",
                        cmd, out[o], in[i]);
                return -1;
            }
        for (int p = o + 1; p < nout; p++)
            if (same_output(out[o], out[p])) {
                fprintf(stderr, "%s: %s and %s are the same file: one output would be lost\n", cmd,
                        out[o], out[p]);
                return -1;
            }
    }
    return 0;
}
