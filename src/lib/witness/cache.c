/* The compiled-circuit cache (see witness.h).
 *
 * An entry is <cache_dir>/<sha256 of the wasm>-<recipe>.so, where recipe
 * hashes everything else that shapes the object (glue texts, the rewrites
 * of wasm2c's output, compiler flags), so a new libg16 never loads an
 * object built for an old glue.
 * The object ends with a trailer (entry.c: the SHA-256 of the wasm and of
 * the recipe it was built from, and of the bytes before it) that is
 * checked on an open file descriptor, and the loader dlopens that same
 * descriptor: a truncated or damaged entry, or one built from another
 * wasm or recipe, is rebuilt, and a file swapped in after the check is
 * never the one loaded.
 *
 * The trailer is no proof of who wrote the entry: loading it runs its
 * code, so the directory is checked first (g16_dir_private: no one but
 * this user and root may change it or its ancestors) and an entry file is
 * opened only when it is a regular file of this user's with one link that
 * others may not write (docs/security.md).
 *
 * Building happens in a private directory under cache_dir from a copy of
 * the very bytes that were hashed; the result is renamed into place, so
 * processes that build the same circuit at once each leave a whole file. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <nettle/sha2.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "formats/formats.h"
#include "g16.h"
#include "witness/witness.h"

extern char **environ;

/* -w: the generated code is not ours to warn about.  No sanitizers: the
 * object is loaded by sanitized and plain builds alike.  -O3 over -O2:
 * 7% fewer instructions a witness (2^20: 6.07 -> 5.65 G) for half as much
 * again compile time, paid once per circuit (docs/cpu-notes.md).  No
 * -march=native: a cache directory may be shared between hosts. */
#define CC_FLAGS      "-O3", "-shared", "-fPIC", "-fvisibility=hidden", "-pthread", "-w"
#define CC_FLAGS_TEXT "-O3 -shared -fPIC -fvisibility=hidden -pthread -w"
/* The tracing object runs once per circuit (a graph is made of its one
 * calculation): -O1 compiles in a fraction of -O3's time. */
#define CC_TRACE_FLAGS      "-O1", "-shared", "-fPIC", "-fvisibility=hidden", "-pthread", "-w"
#define CC_TRACE_FLAGS_TEXT "-O1 -shared -fPIC -fvisibility=hidden -pthread -w"

static void hex(const uint8_t *bytes, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", bytes[i]);
}

/* Puts the wasm m maps into pages of its own (m then maps those) and
 * their SHA-256 into digest: a mapping of the file shows what a writer
 * changes in place, and the bytes compiled must be the bytes hashed.
 * G16_ERR_MISMATCH (m unmapped) when the caller expects another digest
 * (expect; NULL: any), so nothing is compiled or loaded from bytes other
 * than those it names. */
static int wasm_digest(const char *wasm_path, formats_mapping *m, const uint8_t *expect,
                       uint8_t digest[SHA256_DIGEST_SIZE], char *err, size_t errlen)
{
    void *own = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (own == MAP_FAILED) {
        snprintf(err, errlen, "%s: out of memory for its %zu bytes", wasm_path, m->len);
        formats_unmap_file(m);
        return G16_ERR_NOMEM;
    }
    memcpy(own, m->addr, m->len);
    munmap(m->addr, m->len);
    m->addr = own;
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, m->len, m->addr);
    sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
    if (!expect || !memcmp(digest, expect, SHA256_DIGEST_SIZE)) return 0;
    char got[2 * SHA256_DIGEST_SIZE + 1], want[2 * SHA256_DIGEST_SIZE + 1];
    hex(digest, SHA256_DIGEST_SIZE, got);
    hex(expect, SHA256_DIGEST_SIZE, want);
    snprintf(err, errlen, "%s: SHA-256 %s, but %s was expected", wasm_path, got, want);
    formats_unmap_file(m);
    return G16_ERR_MISMATCH;
}

static void sha256(const void *data, size_t len, uint8_t digest[SHA256_DIGEST_SIZE])
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, len, data);
    sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
}

/* The digests of the wasm and of the recipe (the tools' paths in it: an
 * object another compiler made is another entry; trace: the tracing
 * object's). */
static void entry_id(const void *wasm, size_t len, const witness_tools *tools, int trace,
                     witness_entry_id *id)
{
    sha256(wasm, len, id->wasm);
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    const char *parts[] = {witness_glue_abi_h, witness_glue_c, witness_tick_recipe,
                           CC_FLAGS_TEXT,      tools->wasm2c,  tools->cc};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        sha256_update(&ctx, strlen(parts[i]) + 1, (const uint8_t *)parts[i]);
    sha256_update(&ctx, strlen(witness_native_fr_h) + 1, (const uint8_t *)witness_native_fr_h);
    sha256_update(&ctx, strlen(witness_field_asm_h) + 1, (const uint8_t *)witness_field_asm_h);
    witness_native_recipe(&ctx);
    if (trace) {
        const char *more[] = {witness_trace_glue_c, witness_trace_hooks_h, witness_trace_abi_h,
                              CC_TRACE_FLAGS_TEXT};
        for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
            sha256_update(&ctx, strlen(more[i]) + 1, (const uint8_t *)more[i]);
        witness_trace_recipe(&ctx);
    }
    sha256_digest(&ctx, sizeof id->recipe, id->recipe);
}

/* "<wasm sha256>-<first 16 hex digits of the recipe's sha256><suffix>":
 * ".so" for the calculator, ".trace.so" for the tracing object,
 * ".wgraph" for the graph. */
static void entry_name(const witness_entry_id *id, const char *suffix, char out[96])
{
    hex(id->wasm, sizeof id->wasm, out);
    out[64] = '-';
    hex(id->recipe, 8, out + 65);
    snprintf(out + 81, 96 - 81, "%s", suffix);
}

/* Whether fd may be loaded: a regular file of this user's, with no other
 * name (a hard link's other name may be in a directory others change)
 * and no writer but its owner.  Anything else in a private directory was
 * put there by root or by a mistake: rebuilt over, never loaded. */
static int entry_owned(const struct stat *st)
{
    return S_ISREG(st->st_mode) && st->st_uid == geteuid() && st->st_nlink == 1 &&
           !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* Whether fd holds a whole entry built from id (entry.c).  Read through a
 * mapping of the file: a copy would fault in and fill as many fresh pages
 * (4 MB at 2^20, a tenth of the load), where the mapping's pages are the
 * page cache's own, the ones dlopen maps next. */
static int entry_intact(int fd, const witness_entry_id *id)
{
    struct stat st;
    if (fstat(fd, &st) || !entry_owned(&st) || st.st_size <= WITNESS_TRAILER_SIZE) return 0;
    size_t len = (size_t)st.st_size;
    const uint8_t *buf = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (buf == MAP_FAILED) return 0;
    int ok = witness_entry_check(buf, len, id) == WITNESS_ENTRY_OK;
    munmap((void *)buf, len);
    return ok;
}

/* entry_open's answer for an entry to build (not a g16_status code) */
#define ENTRY_TO_BUILD (-1)

/* Opens the entry at path when it is intact: 0 and obj filled,
 * ENTRY_TO_BUILD when missing or not to be loaded, or an error (the object
 * would not load). */
static int entry_open(const char *path, const witness_entry_id *id, int trace,
                      const char *wasm_path, witness_object *obj, char *err, size_t errlen)
{
    /* no link followed, no FIFO waited on: such an entry is rebuilt over */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return ENTRY_TO_BUILD;
    if (!entry_intact(fd, id)) {
        close(fd);
        return ENTRY_TO_BUILD;
    }
    /* The descriptor stays open while the object is loaded: the dynamic
     * loader knows a loaded object by the name it was opened under, so a
     * later dlopen of the same /proc/self/fd/N name would return this
     * object instead of another circuit's. */
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    obj->handle = dlopen(self, RTLD_NOW | RTLD_LOCAL);
    obj->fd = fd;
    if (!obj->handle) {
        close(fd);
        snprintf(err, errlen, "%s: its compiled form %s does not load: %s", wasm_path, path,
                 dlerror());
        return G16_ERR_INTERNAL;
    }
    if (trace)
        obj->trace = dlsym(obj->handle, G16T_API_SYMBOL);
    else
        obj->api = dlsym(obj->handle, G16W_API_SYMBOL);
    if (trace ? !obj->trace || obj->trace->abi != G16T_ABI_VERSION
              : !obj->api || obj->api->abi != G16W_ABI_VERSION) {
        snprintf(err, errlen, "%s: its compiled form %s has no g16 glue", wasm_path, path);
        dlclose(obj->handle);
        close(fd);
        obj->handle = NULL;
        return G16_ERR_INTERNAL;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Building.                                                            */

typedef struct {
    char dir[PATH_MAX + 16]; /* private build directory */
    const char *wasm_path;   /* for messages */
    const witness_tools *tools;
    int trace; /* the tracing object */
    char *err;
    size_t errlen;
} build;

static void build_path(const build *b, const char *name, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", b->dir, name);
}

static int write_text(const build *b, const char *name, const void *data, size_t len)
{
    char path[4200];
    build_path(b, name, path, sizeof path);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f)) ok = 0;
    if (ok) return 0;
    snprintf(b->err, b->errlen, "%s: cannot write %s: %s", b->wasm_path, path, strerror(errno));
    return G16_ERR_IO;
}

/* The first line of a tool's output, for an error message. */
static void first_line(const build *b, char *out, size_t cap)
{
    char path[4200];
    build_path(b, "log.txt", path, sizeof path);
    out[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f) return;
    if (!fgets(out, (int)cap, f)) out[0] = 0;
    fclose(f);
    out[strcspn(out, "\n")] = 0;
}

/* Runs argv (argv[0] a path: nothing is looked up in PATH) in the build
 * directory with its output in log.txt; returns its exit status, or -1
 * when it could not run. */
static int run_tool(const build *b, char *const argv[])
{
    char log[4200];
    build_path(b, "log.txt", log, sizeof log);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        errno = rc;
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* tool: the path run; debian: the package that has it. */
static int tool_failed(const build *b, const char *tool, const char *debian, int status, int code,
                       const char *what)
{
    int e = errno; /* run_tool's, before first_line's calls */
    char line[512];
    first_line(b, line, sizeof line);
    if (status < 0)
        snprintf(b->err, b->errlen,
                 "%s: cannot run %s: %s (needed to compile circuits; Debian: %s)", b->wasm_path,
                 tool, strerror(e), debian);
    else
        snprintf(b->err, b->errlen, "%s: %s (%s: %s)", b->wasm_path, what, tool,
                 line[0] ? line : "no message");
    return status < 0 ? G16_ERR_UNSUPPORTED : code;
}

/* What glue.c needs from a circom 2 witness calculator, and what it
 * offers it: checked on wasm2c's header before the (slow) compile, so a
 * .wasm that is not one fails at once with a clear message. */
static const char *const needed_exports[] = {
    "getVersion",         "getMinorVersion",    "getPatchVersion",     "getFieldNumLen32",
    "getRawPrime",        "readSharedRWMemory", "writeSharedRWMemory", "init",
    "getInputSignalSize", "setInputSignal",     "getInputSize",        "getWitnessSize",
    "getWitness",         "getMessageChar",
};
static const char *const offered_imports[] = {
    "'runtime' 'exceptionHandler'",
    "'runtime' 'printErrorMessage'",
    "'runtime' 'writeBufferMessage'",
    "'runtime' 'showSharedRWMemory'",
};

static int check_interface(const build *b, const char *header)
{
    char tag[128];
    for (size_t i = 0; i < sizeof needed_exports / sizeof *needed_exports; i++) {
        snprintf(tag, sizeof tag, "/* export: '%s' */", needed_exports[i]);
        if (strstr(header, tag)) continue;
        snprintf(b->err, b->errlen, "%s: not a circom witness calculator (no export '%s')",
                 b->wasm_path, needed_exports[i]);
        return G16_ERR_FORMAT;
    }
    for (const char *p = header; (p = strstr(p, "/* import: ")); p++) {
        const char *name = p + strlen("/* import: "), *end = strstr(name, " */");
        size_t len = end ? (size_t)(end - name) : strlen(name), i;
        for (i = 0; i < sizeof offered_imports / sizeof *offered_imports; i++)
            if (strlen(offered_imports[i]) == len && !strncmp(offered_imports[i], name, len)) break;
        if (i < sizeof offered_imports / sizeof *offered_imports) continue;
        snprintf(b->err, b->errlen, "%s: not a circom 2 witness calculator (imports %.*s)",
                 b->wasm_path, (int)(len > 80 ? 80 : len), name);
        return G16_ERR_FORMAT;
    }
    return 0;
}

static int translate(const build *b, const void *wasm, size_t len)
{
    int rc = write_text(b, "module.wasm", wasm, len);
    if (rc) return rc;
    char in[4200], out[4200];
    build_path(b, "module.wasm", in, sizeof in);
    build_path(b, "circuit.c", out, sizeof out);
    char *argv[] = {(char *)b->tools->wasm2c, in, "-n", "circuit", "-o", out, NULL};
    int status = run_tool(b, argv);
    if (status)
        return tool_failed(b, b->tools->wasm2c, "wabt", status, G16_ERR_FORMAT,
                           "not a valid WebAssembly module");
    /* the interface first: a module that is no calculator (one without
     * functions, say) is the caller's error, not a rewrite's failure */
    char hpath[4200];
    build_path(b, "circuit.h", hpath, sizeof hpath);
    formats_mapping m;
    char ignored[256];
    if (formats_map_file(hpath, &m, ignored, sizeof ignored)) {
        snprintf(b->err, b->errlen, "%s: wasm2c wrote no header", b->wasm_path);
        return G16_ERR_INTERNAL;
    }
    char *header = strndup(m.addr ? m.addr : "", m.len);
    formats_unmap_file(&m);
    rc = header ? check_interface(b, header) : G16_ERR_NOMEM;
    free(header);
    if (rc) return rc;
    size_t native;
    if (b->trace)
        rc = witness_add_trace(out, b->wasm_path, b->err, b->errlen);
    else
        rc = witness_add_native(out, b->wasm_path, &native, b->err, b->errlen);
    return rc ? rc : witness_add_ticks(out, b->wasm_path, b->err, b->errlen);
}

static int compile(const build *b)
{
    int rc = write_text(b, "glue.c", witness_glue_c, strlen(witness_glue_c));
    if (!rc) rc = write_text(b, "glue_abi.h", witness_glue_abi_h, strlen(witness_glue_abi_h));
    if (!rc) rc = write_text(b, "native_fr.h", witness_native_fr_h, strlen(witness_native_fr_h));
    if (!rc)
        rc = write_text(b, "field_asm_x86.h", witness_field_asm_h, strlen(witness_field_asm_h));
    if (!rc && b->trace) {
        rc = write_text(b, "trace_glue.c", witness_trace_glue_c, strlen(witness_trace_glue_c));
        if (!rc)
            rc = write_text(b, "trace_hooks.h", witness_trace_hooks_h,
                            strlen(witness_trace_hooks_h));
        if (!rc)
            rc = write_text(b, "trace_abi.h", witness_trace_abi_h, strlen(witness_trace_abi_h));
    }
    if (rc) return rc;
    char src[4200], out[4200], inc[4300];
    build_path(b, b->trace ? "trace_glue.c" : "glue.c", src, sizeof src);
    build_path(b, "circuit.so", out, sizeof out);
    snprintf(inc, sizeof inc, "-I%s", b->dir);
    char *argv[] = {
        (char *)b->tools->cc, CC_FLAGS, "-I" G16_WASM2C_RUNTIME, inc, src, "-o", out, NULL};
    char *trace_argv[] = {
        (char *)b->tools->cc, CC_TRACE_FLAGS, "-I" G16_WASM2C_RUNTIME, inc, src, "-o", out, NULL};
    int status = run_tool(b, b->trace ? trace_argv : argv);
    /* the interface check passed by name, so C that does not compile
     * means exports of other kinds or types than a calculator's (a
     * global named getVersion, say): the module's fault, as wasm2c's
     * refusals are */
    return status ? tool_failed(b, b->tools->cc, "build-essential", status, G16_ERR_FORMAT,
                                "not a circom witness calculator (the C made of it does not "
                                "compile against the calculator's interface)")
                  : 0;
}

/* Copies the built object to the cache entry, trailer appended, atomically. */
static int install(const build *b, const witness_entry_id *id, const char *entry)
{
    char so[4200];
    build_path(b, "circuit.so", so, sizeof so);
    formats_mapping m;
    if (formats_map_file(so, &m, b->err, b->errlen) || !m.addr) return G16_ERR_IO;
    uint8_t trailer[WITNESS_TRAILER_SIZE];
    witness_entry_trailer(m.addr, m.len, id, trailer);
    atomic_file f;
    int rc = atomic_file_open(&f, entry, b->err, b->errlen) ||
             atomic_file_write(&f, m.addr, m.len, b->err, b->errlen) ||
             atomic_file_write(&f, trailer, sizeof trailer, b->err, b->errlen) ||
             atomic_file_commit(&f, b->err, b->errlen);
    formats_unmap_file(&m);
    return rc ? G16_ERR_IO : 0;
}

/* Removes the build directory and what the build wrote there. */
static void build_cleanup(const build *b)
{
    DIR *d = opendir(b->dir);
    if (!d) return;
    char path[4400];
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(path, sizeof path, "%s/%s", b->dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(b->dir);
}

static int build_entry(const char *cache_dir, const char *wasm_path, const void *wasm, size_t len,
                       const witness_tools *tools, int trace, const witness_entry_id *id,
                       const char *entry, char *err, size_t errlen)
{
    build b = {
        .wasm_path = wasm_path, .tools = tools, .trace = trace, .err = err, .errlen = errlen};
    snprintf(b.dir, sizeof b.dir, "%s/.build-XXXXXX", cache_dir);
    if (!mkdtemp(b.dir)) {
        snprintf(err, errlen, "%s: cannot create a build directory: %s", cache_dir,
                 strerror(errno));
        return G16_ERR_IO;
    }
    int rc = translate(&b, wasm, len);
    if (!rc) rc = compile(&b);
    if (!rc) rc = install(&b, id, entry);
    build_cleanup(&b);
    return rc;
}

static int wasm_read(const char *wasm_path, formats_mapping *m, char *err, size_t errlen)
{
    if (formats_map_file(wasm_path, m, err, errlen))
        return errno == ENOENT ? G16_ERR_NOT_FOUND : G16_ERR_IO;
    int rc = witness_wasm_check(m->addr, m->len, wasm_path, err, errlen);
    if (rc) formats_unmap_file(m);
    return rc;
}

static int object_load(const char *wasm_path, const char *cache_dir, const uint8_t *expect,
                       const witness_tools *tools, int trace, witness_object *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof *out);
    formats_mapping m;
    int rc = wasm_read(wasm_path, &m, err, errlen);
    if (!rc) rc = wasm_digest(wasm_path, &m, expect, out->wasm_sha256, err, errlen);
    if (rc) return rc;
    witness_entry_id id;
    entry_id(m.addr, m.len, tools, trace, &id);
    char dir[PATH_MAX], name[96], entry[PATH_MAX + 100];
    entry_name(&id, trace ? ".trace.so" : ".so", name);
    /* the directory's real path from here on: a link on the way may change */
    rc = g16_dir_private(cache_dir, dir, sizeof dir, err, errlen);
    if (rc) {
        char why[1024];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "%s: cache directory %s", wasm_path, why);
    } else {
        snprintf(entry, sizeof entry, "%s/%s", dir, name);
        rc = entry_open(entry, &id, trace, wasm_path, out, err, errlen);
    }
    if (rc == ENTRY_TO_BUILD) {
        rc = build_entry(dir, wasm_path, m.addr, m.len, tools, trace, &id, entry, err, errlen);
        out->compiled = 1;
        if (!rc) rc = entry_open(entry, &id, trace, wasm_path, out, err, errlen);
        if (rc == ENTRY_TO_BUILD) {
            snprintf(err, errlen, "%s: the cache entry %s vanished as it was written", wasm_path,
                     entry);
            rc = G16_ERR_IO;
        }
    }
    formats_unmap_file(&m);
    return rc;
}

int witness_wasm_sha256(const char *wasm_path, const uint8_t *expect,
                        uint8_t digest[SHA256_DIGEST_SIZE], char *err, size_t errlen)
{
    formats_mapping m;
    int rc = wasm_read(wasm_path, &m, err, errlen);
    if (rc) return rc;
    /* from the mapping, no copy: nothing is compiled from these bytes (a
     * load later hashes its own copy, expecting this digest) */
    sha256(m.addr, m.len, digest);
    formats_unmap_file(&m);
    if (!expect || !memcmp(digest, expect, SHA256_DIGEST_SIZE)) return 0;
    char got[2 * SHA256_DIGEST_SIZE + 1], want[2 * SHA256_DIGEST_SIZE + 1];
    hex(digest, SHA256_DIGEST_SIZE, got);
    hex(expect, SHA256_DIGEST_SIZE, want);
    snprintf(err, errlen, "%s: SHA-256 %s, but %s was expected", wasm_path, got, want);
    return G16_ERR_MISMATCH;
}

int witness_object_load(const char *wasm_path, const char *cache_dir, const uint8_t *expect,
                        const witness_tools *tools, witness_object *out, char *err, size_t errlen)
{
    return object_load(wasm_path, cache_dir, expect, tools, 0, out, err, errlen);
}

int witness_trace_load(const char *wasm_path, const char *cache_dir, const uint8_t *expect,
                       const witness_tools *tools, witness_object *out, char *err, size_t errlen)
{
    return object_load(wasm_path, cache_dir, expect, tools, 1, out, err, errlen);
}

void witness_object_unload(witness_object *obj)
{
    if (obj->handle) {
        dlclose(obj->handle);
        close(obj->fd);
    }
    memset(obj, 0, sizeof *obj);
}

/* ------------------------------------------------------------------ */
/* Graph files (wgraph.h): data, not code, but read under the objects'
 * rules all the same (a private directory, an entry of this user's, a
 * trailer binding it to its wasm and recipe): a graph from elsewhere
 * would give witnesses of another circuit's. */

static void graph_id(const uint8_t *wasm_sha256, witness_entry_id *id)
{
    memcpy(id->wasm, wasm_sha256, sizeof id->wasm);
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    /* the format, and the builder that made the graph (its passes) */
    const char *parts[] = {"g16wgr05 builder 3, xxh3-128 sum", witness_trace_glue_c,
                           witness_trace_hooks_h, witness_trace_abi_h, G16_WASM2C};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        sha256_update(&ctx, strlen(parts[i]) + 1, (const uint8_t *)parts[i]);
    witness_trace_recipe(&ctx);
    sha256_digest(&ctx, sizeof id->recipe, id->recipe);
}

/* "<dir>/<wasm sha256>-<recipe's first 16 hex digits>.wgraph" in the
 * private directory's real path for a circuit's first graph (the name a
 * circuit's one graph had before it could have several), ".<index>.wgraph"
 * for the others; 0, or an error. */
static int graph_path(const char *cache_dir, const witness_entry_id *id, unsigned index, char *out,
                      size_t cap, char *err, size_t errlen)
{
    _Static_assert(WITNESS_GRAPHS_MAX <= 10, "one digit a graph file's index");
    char dir[PATH_MAX], name[96], suffix[] = ".0.wgraph";
    int rc = g16_dir_private(cache_dir, dir, sizeof dir, err, errlen);
    if (rc) return rc;
    suffix[1] = (char)('0' + index);
    entry_name(id, index ? suffix : suffix + 2, name);
    snprintf(out, cap, "%s/%s", dir, name);
    return 0;
}

int witness_graph_map(const char *cache_dir, const uint8_t *wasm_sha256, unsigned index,
                      const uint8_t **bytes, size_t *len, size_t *map_len)
{
    witness_entry_id id;
    char path[PATH_MAX + 100], ignored[512];
    if (index >= WITNESS_GRAPHS_MAX) return G16_ERR_NOT_FOUND;
    graph_id(wasm_sha256, &id);
    if (graph_path(cache_dir, &id, index, path, sizeof path, ignored, sizeof ignored))
        return G16_ERR_NOT_FOUND;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return G16_ERR_NOT_FOUND;
    struct stat st;
    int rc = G16_ERR_NOT_FOUND;
    if (!fstat(fd, &st) && entry_owned(&st) && st.st_size > WITNESS_TRAILER_SIZE) {
        size_t n = (size_t)st.st_size;
        /* private: a writer of the file after this check (only this user
         * may write it) cannot change what the checks passed */
        void *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (m != MAP_FAILED && witness_graph_check(m, n, &id) == WITNESS_ENTRY_OK) {
            *bytes = m;
            *len = n - WITNESS_TRAILER_SIZE;
            *map_len = n;
            rc = 0;
        } else if (m != MAP_FAILED) {
            munmap(m, n);
            rc = G16_ERR_FORMAT; /* there, but damaged or another circuit's */
        }
    }
    close(fd);
    return rc;
}

int witness_graph_write(const char *cache_dir, const uint8_t *wasm_sha256, unsigned index,
                        const uint8_t *bytes, size_t len, char *err, size_t errlen)
{
    witness_entry_id id;
    char path[PATH_MAX + 100];
    if (index >= WITNESS_GRAPHS_MAX) {
        snprintf(err, errlen, "no graph file %u (at most %u a circuit)", index, WITNESS_GRAPHS_MAX);
        return G16_ERR_ARG;
    }
    graph_id(wasm_sha256, &id);
    int rc = graph_path(cache_dir, &id, index, path, sizeof path, err, errlen);
    if (rc) return rc;
    uint8_t trailer[WITNESS_TRAILER_SIZE];
    witness_graph_trailer(bytes, len, &id, trailer);
    atomic_file f;
    if (atomic_file_open(&f, path, err, errlen)) return G16_ERR_IO;
    if (atomic_file_write(&f, bytes, len, err, errlen) ||
        atomic_file_write(&f, trailer, sizeof trailer, err, errlen) ||
        atomic_file_commit(&f, err, errlen)) {
        atomic_file_abort(&f);
        return G16_ERR_IO;
    }
    return 0;
}
