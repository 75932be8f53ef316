/* `g16 client ...`: talks to g16d over its Unix socket (or loopback TCP
 * with a token) through the g16_client library.  Replies are printed as
 * the daemon sends them (JSON), so scripts can pipe them into jq; errors
 * are one line on stderr and exit status 1 (2 for usage errors). */
#define _GNU_SOURCE
#include "client.h"
#include "commands.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "g16.h"
#include "g16_client.h"

static const char k_help[] =
    "usage: g16 client [--socket PATH | --tcp PORT --token-file FILE] COMMAND ...\n"
    "\n"
    "Talks to a running g16d (default socket $XDG_RUNTIME_DIR/g16d.sock, else\n"
    "/tmp/g16d-$UID/g16d.sock; $G16D_SOCKET overrides).  The token file must\n"
    "be private to its owner (mode 600), as g16d requires.  --out DIR is made\n"
    "and checked before anything is submitted or fetched.\n"
    "\n"
    "commands:\n"
    "  keys load NAME KEY.zkey [--wasm CIRCUIT.wasm]\n"
    "                               load a proving key and keep it resident; with --wasm its\n"
    "                               circuit too (compiled once), so jobs may send inputs\n"
    "  keys list                    resident keys\n"
    "  keys evict NAME              unload a key\n"
    "  prove --key NAME [--priority N] [--upload] [--wait] [--out DIR] WITNESS.wtns...\n"
    "                               queue one job (one partition per witness); prints its id,\n"
    "                               or with --wait the finished job (--out: write\n"
    "                               DIR/proof-I.json and DIR/public-I.json). --upload sends\n"
    "                               the witnesses' bytes instead of their paths\n"
    "  prove --key NAME [...] --input INPUT.json [INPUT.json...]\n"
    "                               the same from circom inputs (one partition per file; the\n"
    "                               key must carry its circuit); --input may be repeated\n"
    "  wait ID [--timeout S] [--out DIR]   wait for a job (exit 1 if it failed)\n"
    "  get ID [--out DIR]           a job's state (and results once finished)\n"
    "  jobs                         every job the daemon knows\n"
    "  cancel ID                    cancel a job\n"
    "  status                       budget, stages, keys, memory\n"
    "  metrics                      the Prometheus text\n"
    "  memory [--since UNIX_S] [--json] [-o FILE] [--plot OUT.svg]\n"
    "                               the daemon's memory timeline (memwatch CSV); --plot\n"
    "                               draws it with `memwatch plot`\n";

static g16_client_target g_t;

static int fail(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "g16 client: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 1;
}

/* Sends one request; prints the daemon's error message on a non-2xx. */
static int call(const char *method, const char *path, const char *body, double timeout,
                g16_client_response *r)
{
    char err[512];
    if (g16_client_request(&g_t, method, path, body, body ? strlen(body) : 0, timeout, r, err,
                           sizeof err))
        return fail("%s%s", err, "");
    if (r->status >= 200 && r->status < 300) return 0;
    json_t *o = json_loads(r->body, 0, NULL);
    const char *msg = json_string_value(json_object_get(o, "error"));
    char code[16];
    snprintf(code, sizeof code, "%d", r->status);
    fail("%s (HTTP %s)", msg ? msg : r->body, code);
    json_decref(o);
    g16_client_response_free(r);
    return 1;
}

static int simple(const char *method, const char *path, const char *body)
{
    g16_client_response r;
    if (call(method, path, body, 60, &r)) return 1;
    fputs(r.body, stdout);
    if (r.len && r.body[r.len - 1] != '\n') fputc('\n', stdout);
    g16_client_response_free(&r);
    return 0;
}

static int keys(int argc, char **argv)
{
    char path[PATH_MAX + 16];
    if (argc >= 2 && !strcmp(argv[1], "list")) return simple("GET", "/v1/keys", NULL);
    if (argc == 3 && !strcmp(argv[1], "evict")) {
        snprintf(path, sizeof path, "/v1/keys/%s", argv[2]);
        return simple("DELETE", path, NULL);
    }
    int wasm = argc == 6 && !strcmp(argv[4], "--wasm");
    if ((argc == 4 || wasm) && !strcmp(argv[1], "load")) {
        char real[PATH_MAX], real_wasm[PATH_MAX];
        if (!realpath(argv[3], real)) return fail("%s: %s", argv[3], strerror(errno));
        if (wasm && !realpath(argv[5], real_wasm)) return fail("%s: %s", argv[5], strerror(errno));
        json_t *o = json_pack("{s:s,s:s}", "name", argv[2], "path", real);
        if (wasm) json_object_set_new(o, "wasm", json_string(real_wasm));
        char *body = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        int rc = simple("POST", "/v1/keys", body);
        free(body);
        return rc;
    }
    fputs("usage: g16 client keys load NAME KEY.zkey [--wasm CIRCUIT.wasm] | keys list | "
          "keys evict NAME\n",
          stderr);
    return 2;
}

static char *b64(const unsigned char *p, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = malloc((n + 2) / 3 * 4 + 1), *q = o;
    if (!o) return NULL;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        *q++ = t[v >> 18 & 63];
        *q++ = t[v >> 12 & 63];
        *q++ = i + 1 < n ? t[v >> 6 & 63] : '=';
        *q++ = i + 2 < n ? t[v & 63] : '=';
    }
    *q = 0;
    return o;
}

/* The token is the file's first line. */
/* A token others may read is no secret: refused, as g16d refuses it (and
 * ssh such private keys). */
static int read_token(const char *path)
{
    char *text, err[512], mode[64];
    struct stat st;
    if (g16_file_read_text(path, 64 << 10, &text, err, sizeof err)) return fail("%s%s", err, "");
    if (stat(path, &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO))) {
        free(text);
        snprintf(mode, sizeof mode, "%04o", (unsigned)(st.st_mode & 07777));
        return fail("%s: the token file is accessible by group or others (mode %s): chmod 600 it",
                    path, mode);
    }
    size_t n = strcspn(text, "\r\n");
    int rc = 0;
    if (n == 0 || n >= sizeof g_t.token)
        rc = fail("%s: %s", path, n ? "token too long" : "no token on the first line");
    else
        snprintf(g_t.token, sizeof g_t.token, "%.*s", (int)n, text);
    free(text);
    return rc;
}

static json_t *witness(const char *file, int upload)
{
    char real[PATH_MAX];
    if (!realpath(file, real)) {
        fail("%s: %s", file, strerror(errno));
        return NULL;
    }
    if (!upload) return json_string(real);
    const uint8_t *data;
    size_t len;
    char err[512];
    /* the library's reader: a FIFO or device is refused, not waited on */
    if (g16_file_map(file, &data, &len, err, sizeof err)) {
        fail("%s%s", err, "");
        return NULL;
    }
    char *s = b64(data, len);
    g16_file_unmap(data, len);
    if (!s) {
        fail("%s: %s", file, "out of memory");
        return NULL;
    }
    json_t *o = json_pack("{s:s}", "base64", s);
    free(s);
    return o;
}

/* An input.json as the request's object: read as JavaScript reads it
 * (every number a double), checked to be an object here so the error
 * names the file. */
static json_t *input(const char *file)
{
    char *text, err[512];
    if (g16_file_read_text(file, (size_t)1 << 30, &text, err, sizeof err)) {
        fail("%s%s", err, "");
        return NULL;
    }
    json_error_t je;
    json_t *o = json_loads(text, JSON_DECODE_INT_AS_REAL, &je);
    free(text);
    if (!o)
        fprintf(stderr, "g16 client: %s: malformed JSON: line %d: %s\n", file, je.line, je.text);
    if (o && !json_is_object(o)) {
        fail("%s: %s", file, "not an object of signal names to values");
        json_decref(o);
        o = NULL;
    }
    return o;
}

static int write_json(const char *dir, const char *what, size_t i, json_t *v)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s-%zu.json", dir, what, i);
    if (json_dump_file(v, path, JSON_INDENT(1))) return fail("%s: %s", path, "cannot write");
    return 0;
}

/* The --out directory, made (one level) and checked before anything is
 * submitted or waited for: a job's results must not be fetched, and so
 * consumed, only to learn that they cannot be written. */
static int out_dir_ready(const char *dir)
{
    struct stat st;
    if (!dir) return 0;
    if (mkdir(dir, 0755) && errno != EEXIST) return fail("%s: %s", dir, strerror(errno));
    if (stat(dir, &st)) return fail("%s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return fail("%s: %s", dir, "not a directory");
    if (access(dir, W_OK | X_OK)) return fail("%s: %s", dir, strerror(errno));
    return 0;
}

/* Writes each finished partition's proof and public signals into dir
 * (out_dir_ready checked it). */
static int save(const char *dir, json_t *job)
{
    json_t *parts = json_object_get(job, "partitions");
    for (size_t i = 0; i < json_array_size(parts); i++) {
        json_t *p = json_array_get(parts, i), *proof = json_object_get(p, "proof");
        if (!proof) continue;
        if (write_json(dir, "proof", i, proof) ||
            write_json(dir, "public", i, json_object_get(p, "public")))
            return 1;
    }
    return 0;
}

static int finished(json_t *job)
{
    const char *s = json_string_value(json_object_get(job, "state"));
    return s && (!strcmp(s, "done") || !strcmp(s, "failed") || !strcmp(s, "cancelled"));
}

/* Long-polls in slices (the daemon caps one wait) until the job is done
 * or timeout seconds passed (< 0: forever). */
static int wait_job(const char *id, double timeout, const char *out, int strict)
{
    char path[256];
    double t0 = (double)time(NULL);
    for (;;) {
        double left = timeout < 0 ? 300 : timeout - ((double)time(NULL) - t0);
        if (left < 0) left = 0;
        if (left > 300) left = 300;
        snprintf(path, sizeof path, "/v1/proofs/%s?wait=%.0f", id, left);
        g16_client_response r;
        if (call("GET", path, NULL, left + 60, &r)) return 1;
        json_t *job = json_loads(r.body, 0, NULL);
        int done = finished(job);
        if (done || left <= 0) {
            fputs(r.body, stdout);
            fputc('\n', stdout);
            const char *st = json_string_value(json_object_get(job, "state"));
            int rc = out && save(out, job) ? 1
                     : !strict             ? 0
                     : !done ? fail("job %s still %s at the timeout", id, st ? st : "?")
                     : strcmp(st, "done") ? fail("job %s %s", id, st)
                                          : 0;
            json_decref(job);
            g16_client_response_free(&r);
            return rc;
        }
        json_decref(job);
        g16_client_response_free(&r);
    }
}

typedef struct {
    const char *key, *out;
    int priority, upload, wait, inputs;
    const char **files; /* the witnesses or inputs, in order */
    int nfiles;
} prove_opts;

/* Options may come anywhere; every other argument is a file.  --input
 * says the files are inputs (repeating it, as in --input a.json
 * --input b.json, reads the same). */
static int prove_args(int argc, char **argv, prove_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-')
            o->files[o->nfiles++] = a;
        else if (!strcmp(a, "--upload"))
            o->upload = 1;
        else if (!strcmp(a, "--wait"))
            o->wait = 1;
        else if (!strcmp(a, "--input"))
            o->inputs = 1;
        else if (i + 1 < argc && !strcmp(a, "--key"))
            o->key = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--out"))
            o->out = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--priority"))
            o->priority = atoi(argv[++i]);
        else
            return -1;
    }
    return o->key && o->nfiles > 0 && !(o->inputs && o->upload) ? 0 : -1;
}

/* The request's list: each file as a witness or as an input object. */
static json_t *parts_list(const prove_opts *o)
{
    json_t *ws = json_array();
    for (int i = 0; i < o->nfiles; i++) {
        json_t *w = o->inputs ? input(o->files[i]) : witness(o->files[i], o->upload);
        if (!w) {
            json_decref(ws);
            return NULL;
        }
        json_array_append_new(ws, w);
    }
    return ws;
}

static int submit(const prove_opts *o)
{
    json_t *ws = parts_list(o);
    if (!ws) return 1;
    json_t *req = json_pack("{s:s,s:o,s:i}", "key", o->key, o->inputs ? "inputs" : "witnesses", ws,
                            "priority", o->priority);
    /* 17 digits write each double of an input back exactly */
    char *body = json_dumps(req, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(req);
    g16_client_response r;
    int rc = call("POST", "/v1/proofs", body, 300, &r);
    free(body);
    if (rc) return 1;
    json_t *ack = json_loads(r.body, 0, NULL);
    const char *id = json_string_value(json_object_get(ack, "id"));
    if (!o->wait || !id) printf("%s\n", id ? id : r.body);
    rc = o->wait && id ? wait_job(id, -1, o->out, 1) : 0;
    json_decref(ack);
    g16_client_response_free(&r);
    return rc;
}

static int prove(int argc, char **argv)
{
    prove_opts o = {0};
    o.files = calloc((size_t)argc, sizeof *o.files);
    if (!o.files) return fail("%s%s", "out of memory", "");
    if (prove_args(argc, argv, &o)) {
        free(o.files);
        fputs("usage: g16 client prove --key NAME [--priority N] [--upload] [--wait] [--out DIR] "
              "WITNESS.wtns...\n"
              "       g16 client prove --key NAME [--priority N] [--wait] [--out DIR] "
              "--input INPUT.json...\n",
              stderr);
        return 2;
    }
    int rc = o.wait && out_dir_ready(o.out) ? 1 : submit(&o);
    free(o.files);
    return rc;
}

static int job_cmd(int argc, char **argv)
{
    const char *out = NULL;
    double timeout = -1;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--out"))
            out = argv[i + 1];
        else if (!strcmp(argv[i], "--timeout"))
            timeout = atof(argv[i + 1]);
        else
            argc = 0;
    }
    if (argc < 2 || argc % 2) {
        fprintf(stderr, "usage: g16 client %s ID [--out DIR]%s\n", argv[0],
                strcmp(argv[0], "wait") ? "" : " [--timeout S]");
        return 2;
    }
    if (out_dir_ready(out)) return 1;
    if (!strcmp(argv[0], "wait")) return wait_job(argv[1], timeout, out, 1);
    return wait_job(argv[1], 0, out, 0);
}

/* `memwatch plot` draws the trace: the binary next to this one, else PATH. */
static int plot(const char *csv, const char *svg)
{
    char self[PATH_MAX], mw[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    snprintf(mw, sizeof mw, "memwatch");
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            snprintf(mw, sizeof mw, "%s/memwatch", self);
        }
        if (access(mw, X_OK)) snprintf(mw, sizeof mw, "memwatch");
    }
    pid_t pid = fork();
    if (pid == 0) {
        execlp(mw, "memwatch", "plot", csv, "-o", svg, (char *)NULL);
        fprintf(stderr, "g16 client: %s: %s\n", mw, strerror(errno));
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0) return fail("fork: %s%s", strerror(errno), "");
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

static int memory(int argc, char **argv)
{
    const char *since = "0", *out = NULL, *svg = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--since"))
            since = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-o"))
            out = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--plot"))
            svg = argv[++i];
        else {
            fputs("usage: g16 client memory [--since UNIX_S] [--json] [-o FILE] [--plot OUT.svg]\n",
                  stderr);
            return 2;
        }
    }
    /* the plot is drawn from the CSV that -o keeps */
    if (out && svg &&
        cli_check_outputs("g16 client memory", NULL, 0, (const char *[]){out, svg}, 2))
        return 1;
    char path[128], tmp[] = "/tmp/g16-memory-XXXXXX";
    snprintf(path, sizeof path, "/v1/memory?since=%s&format=%s", since,
             json && !svg ? "json" : "csv");
    g16_client_response r;
    if (call("GET", path, NULL, 60, &r)) return 1;
    int rc = 0;
    if (svg || out) {
        int fd = svg && !out ? mkstemp(tmp) : -1;
        const char *file = out ? out : tmp;
        FILE *f = fd >= 0 ? fdopen(fd, "w") : fopen(file, "w");
        if (!f || fwrite(r.body, 1, r.len, f) != r.len || fclose(f))
            rc = fail("%s: %s", file, "cannot write");
        if (!rc && svg) rc = plot(file, svg);
        if (!out) unlink(tmp);
    } else
        fputs(r.body, stdout);
    g16_client_response_free(&r);
    return rc;
}

static int target(int *i, int argc, char **argv)
{
    const char *env = getenv("G16D_SOCKET"), *x = getenv("XDG_RUNTIME_DIR");
    if (env && *env)
        snprintf(g_t.socket_path, sizeof g_t.socket_path, "%s", env);
    else if (x && *x)
        snprintf(g_t.socket_path, sizeof g_t.socket_path, "%s/g16d.sock", x);
    else
        snprintf(g_t.socket_path, sizeof g_t.socket_path, "/tmp/g16d-%u/g16d.sock",
                 (unsigned)getuid());
    for (; *i < argc && argv[*i][0] == '-'; (*i)++) {
        const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
        if (!v) return -1;
        if (!strcmp(a, "--socket"))
            snprintf(g_t.socket_path, sizeof g_t.socket_path, "%s", v);
        else if (!strcmp(a, "--tcp"))
            g_t.port = atoi(v);
        else if (!strcmp(a, "--token-file")) {
            if (read_token(v)) return -2;
        } else
            return -1;
        (*i)++;
    }
    return 0;
}

int cli_client(int argc, char **argv)
{
    int i = 1;
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(k_help, stdout);
        return 0;
    }
    int t = target(&i, argc, argv);
    if (t == -2) return 1;
    if (t || i >= argc) {
        fputs(k_help, stderr);
        return 2;
    }
    const char *c = argv[i];
    argc -= i;
    argv += i;
    if (!strcmp(c, "keys")) return keys(argc, argv);
    if (!strcmp(c, "prove")) return prove(argc, argv);
    if (!strcmp(c, "wait") || !strcmp(c, "get")) return job_cmd(argc, argv);
    if (!strcmp(c, "memory")) return memory(argc, argv);
    if (!strcmp(c, "status") && argc == 1) return simple("GET", "/v1/status", NULL);
    if (!strcmp(c, "metrics") && argc == 1) return simple("GET", "/metrics", NULL);
    if (!strcmp(c, "jobs") && argc == 1) return simple("GET", "/v1/proofs", NULL);
    if (!strcmp(c, "cancel") && argc == 2) {
        char path[256];
        snprintf(path, sizeof path, "/v1/proofs/%s", argv[1]);
        return simple("DELETE", path, NULL);
    }
    fprintf(stderr, "g16 client: unknown or malformed command '%s' (see g16 client --help)\n", c);
    return 2;
}
