/* g16_dir_private (include/g16.h): whether a directory that code is
 * loaded from, or secrets are kept in, can be changed by no one but this
 * user (and root).
 *
 * Checking the directory alone is not enough: whoever may write one of
 * its ancestors can rename the directory away and put their own in its
 * place.  So the directory's real path (symbolic links resolved: a link
 * to another user's directory is that directory) is walked component by
 * component up to the root, and every one must be a directory owned by
 * this user or root that neither its group nor others may write.  A
 * sticky ancestor (/tmp) is the one exception: others may add names to it
 * but neither rename nor remove ours, so it is accepted when the
 * component below it is ours (or root's); one that another user created
 * there is refused. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "g16.h"

static int trusted_owner(uid_t uid) { return uid == geteuid() || uid == 0; }

/* mkdir -p, missing components created 0700. */
static int make_dirs(const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        snprintf(err, errlen, "%s: path too long", dir);
        return G16_ERR_ARG;
    }
    for (char *s = path + 1;; s++) {
        if (*s != '/' && *s) continue;
        char c = *s;
        *s = 0;
        if (mkdir(path, 0700) && errno != EEXIST) {
            snprintf(err, errlen, "%s: cannot create the directory: %s", path, strerror(errno));
            return G16_ERR_IO;
        }
        if (!(*s = c)) return 0;
    }
}

/* The check of one component of dir's real path: path, dir itself when
 * child is NULL, else an ancestor whose component below is owned by
 * *child. */
static int check_component(const char *dir, const char *path, const struct stat *st,
                           const uid_t *child, char *err, size_t errlen)
{
    char who[PATH_MAX + 32] = "it";
    if (child)
        snprintf(who, sizeof who, "its ancestor %s", path);
    else if (strcmp(path, dir))
        snprintf(who, sizeof who, "its real path %s", path);
    unsigned owner = (unsigned)st->st_uid, mode = (unsigned)(st->st_mode & 07777);
    if (!S_ISDIR(st->st_mode)) {
        snprintf(err, errlen, "%s: %s is not a directory", dir, who);
        return G16_ERR_ARG;
    }
    if (!trusted_owner(st->st_uid)) {
        snprintf(err, errlen,
                 "%s: %s belongs to uid %u, not to this user (uid %u) or root (mode %04o): "
                 "refusing a directory another user controls (use a directory of your own)",
                 dir, who, owner, (unsigned)geteuid(), mode);
        return G16_ERR_ARG;
    }
    if (!(st->st_mode & (S_IWGRP | S_IWOTH))) return G16_OK;
    if (child && (st->st_mode & S_ISVTX) && trusted_owner(*child)) return G16_OK;
    snprintf(err, errlen,
             "%s: %s is writable by %s (owner uid %u, mode %04o): refusing a directory others "
             "may change (chmod go-w %s, or use another directory)",
             dir, who, st->st_mode & S_IWOTH ? "others" : "its group", owner, mode, path);
    return G16_ERR_ARG;
}

/* Walks real from the deepest component up to the root, so each knows the
 * owner of the one below it (lstat: a component that became a link since
 * realpath is refused as not a directory). */
static int check_path(const char *dir, const char *real, char *err, size_t errlen)
{
    char path[PATH_MAX];
    struct stat st;
    uid_t below = 0;
    size_t end = strcmp(real, "/") ? strlen(real) : 0;
    for (int self = 1;; self = 0) {
        snprintf(path, sizeof path, "%.*s", (int)(end ? end : 1), end ? real : "/");
        if (lstat(path, &st)) {
            snprintf(err, errlen, "%s: %s: %s", dir, path, strerror(errno));
            return G16_ERR_IO;
        }
        int rc = check_component(dir, path, &st, self ? NULL : &below, err, errlen);
        if (rc || end == 0) return rc;
        below = st.st_uid;
        while (end > 0 && real[--end] != '/') {}
    }
}

g16_status g16_dir_private(const char *dir, char *real, size_t real_cap, char *err, size_t errlen)
{
    if (!dir || !*dir) {
        snprintf(err, errlen, "no directory given");
        return G16_ERR_ARG;
    }
    int rc = make_dirs(dir, err, errlen);
    if (rc) return rc;
    char *resolved = realpath(dir, NULL);
    if (!resolved) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return G16_ERR_IO;
    }
    rc = check_path(dir, resolved, err, errlen);
    if (!rc && real && snprintf(real, real_cap, "%s", resolved) >= (int)real_cap) {
        snprintf(err, errlen, "%s: path too long", dir);
        rc = G16_ERR_ARG;
    }
    free(resolved);
    return rc;
}
