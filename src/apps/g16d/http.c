/* The HTTP/1.1 front (libmicrohttpd): a Unix socket, mode 0600, in a
 * directory nobody else can write, and, when asked, a loopback TCP port
 * that demands a bearer token.  Bodies larger than --max-body are refused
 * from their Content-Length before a byte is read, and chunked ones as
 * soon as they cross the limit.
 *
 * One event thread per listener serves every connection, and nothing on
 * it waits: a request that reads files or frees a key (d_api_blocks) runs
 * on a thread of its own while its connection is suspended; a long-poll
 * (?wait=S) is parked, suspended and holding no thread, until the waker
 * thread sees its job change (d->changed), the daemon stop or S pass;
 * the rest (status, metrics, listings, a job's state) is answered at
 * once.  A waiting client costs a socket, not a worker, so /v1/status
 * answers under any number of them (up to --max-connections). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <libgen.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "d.h"

typedef struct {
    struct d_http *h;
    int tcp;
} front;

/* One request, from its headers to on_done. */
typedef struct req {
    char *buf;
    size_t len, cap;
    int too_big;    /* chunked beyond --max-body: its body is dropped */
    int answered;   /* refused from its headers (401, 413, 507): never served */
    size_t expect;  /* its Content-Length (0: none, chunked) */
    size_t held;    /* bytes of the memory budget it holds: its buffer, then its parse */
    int parse_held; /* the parse's share is among them */
    int refused;    /* its body did not fit the budget: this status, with why */
    char why[256];
    struct d_http *h;
    struct MHD_Connection *c;
    d_request rq;  /* what a thread of its own serves */
    d_reply reply; /* its reply, once has_reply */
    int has_reply;
    int resumed;        /* a parked long-poll whose wait is over */
    const char *job_id; /* while parked: the job waited for, until when */
    double deadline;
    struct req *next; /* in d_http.parked */
} req;

struct d_http {
    g16d *d;
    struct MHD_Daemon *ud, *td;
    int ufd;
    front uf, tf;
    req *parked;    /* suspended long-polls (d->mu) */
    int waker_stop; /* (d->mu) */
    int waker_started;
    pthread_t waker;
    pthread_mutex_t tmu; /* requests on threads of their own: */
    pthread_cond_t tcv;
    int threads, closing;
    int answering; /* resumed long-polls whose answer is not sent yet (tmu) */
};

static enum MHD_Result send_reply(struct MHD_Connection *c, d_reply *r)
{
    size_t n = r->body ? strlen(r->body) : 0;
    struct MHD_Response *resp = MHD_create_response_from_buffer(n, r->body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(r->body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type",
                            r->content_type ? r->content_type : "application/json");
    enum MHD_Result rc = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return rc;
}

static enum MHD_Result send_error(struct MHD_Connection *c, int status, const char *msg)
{
    d_reply r = {0};
    d_reply_error(&r, status, "%s", msg);
    return send_reply(c, &r);
}

/* Charges more bytes of the memory budget to the request: 0, or the HTTP
 * status that refuses it (413: more than the whole budget; 507: more than
 * is free now) with why.  Request bodies take what is free at once and
 * never wait or evict keys: a partition waiting for memory keeps its
 * place, and a body cannot push out the key it is about to name. */
static int reserve(g16d *d, req *r, size_t more, const char *what, size_t body_len)
{
    pthread_mutex_lock(&d->mu);
    size_t free_now = d_budget_free(d);
    d_body_fit_t fit = d_body_fit(d->cfg.budget, free_now, r->held, more);
    if (fit == D_BODY_FITS) {
        d->reserved += more;
        d->body_reserved += more;
        r->held += more;
    }
    pthread_mutex_unlock(&d->mu);
    if (fit == D_BODY_FITS) return 0;
    snprintf(r->why, sizeof r->why,
             "a request body of %zu bytes needs about %zu bytes of memory %s, %s (%zu of the "
             "%zu-byte --memory-budget free now)",
             body_len, r->held + more, what,
             fit == D_BODY_NEVER ? "more than the whole budget" : "more than is free: try later",
             free_now, d->cfg.budget);
    r->refused = d_http_status(fit == D_BODY_NEVER ? D_ERR_NEVER_FITS : D_ERR_TOO_LARGE);
    return r->refused;
}

static void release(g16d *d, req *r)
{
    if (!r->held) return;
    pthread_mutex_lock(&d->mu);
    d->reserved -= r->held;
    d->body_reserved -= r->held;
    pthread_cond_broadcast(&d->work); /* a partition may have waited for it */
    pthread_mutex_unlock(&d->mu);
    r->held = 0;
}

/* Constant time, so the token cannot be guessed byte by byte. */
static int token_ok(const char *want, const char *header)
{
    static const char prefix[] = "Bearer ";
    if (!header || strncmp(header, prefix, sizeof prefix - 1)) return 0;
    const char *got = header + sizeof prefix - 1;
    size_t n = strlen(want), m = strlen(got);
    unsigned diff = (unsigned)(n ^ m);
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)want[i] ^ (unsigned char)(i < m ? got[i] : 0);
    return diff == 0;
}

/* First call for a request: only headers are known.  Refusing here means
 * the body is never read. */
static enum MHD_Result on_headers(front *f, struct MHD_Connection *c, void **con_cls)
{
    g16d *d = f->h->d;
    req *r = calloc(1, sizeof *r);
    if (!r) return MHD_NO;
    *con_cls = r;
    if (f->tcp &&
        !token_ok(d->cfg.token, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization"))) {
        r->answered = 1;
        return send_error(c, 401, "missing or wrong bearer token");
    }
    const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
    if (cl && strtoull(cl, NULL, 10) > d->cfg.max_body) {
        char msg[128];
        snprintf(msg, sizeof msg, "request body of %s bytes exceeds --max-body (%zu bytes)", cl,
                 d->cfg.max_body);
        r->answered = 1;
        return send_error(c, d_http_status(D_ERR_NEVER_FITS), msg);
    }
    /* the buffer is charged before a byte is read, at its final size */
    r->expect = cl ? strtoull(cl, NULL, 10) : 0;
    if (r->expect && reserve(d, r, r->expect + 1, "to hold", r->expect)) {
        r->answered = 1;
        return send_error(c, r->refused, r->why);
    }
    return MHD_YES;
}

static void drop_body(req *r)
{
    free(r->buf);
    r->buf = NULL;
    r->len = r->cap = 0;
}

/* The body into one buffer: of its Content-Length at once (charged from
 * the headers), or, chunked, doubling, each growth charged first. */
static void take_body(g16d *d, req *r, const char *data, size_t n)
{
    if (r->too_big || r->answered || r->refused) return;
    if (r->len + n > d->cfg.max_body) { /* chunked and too long: stop keeping it */
        r->too_big = 1;
        drop_body(r);
        return;
    }
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n + 1) cap *= 2;
        if (r->expect >= r->len + n && !r->cap) cap = r->expect + 1;
        if (cap > r->held && reserve(d, r, cap - r->held, "to hold", r->len + n)) {
            drop_body(r);
            return;
        }
        char *b = realloc(r->buf, cap);
        if (!b) {
            r->too_big = 1;
            return;
        }
        r->buf = b;
        r->cap = cap;
    }
    memcpy(r->buf + r->len, data, n);
    r->len += n;
    r->buf[r->len] = 0;
}

static const char *query(void *ctx, const char *name)
{
    return MHD_lookup_connection_value(ctx, MHD_GET_ARGUMENT_KIND, name);
}

/* Parks a long-poll whose job is unfinished: 1 when suspended.  Under
 * d->mu, as the waker's scan, so a change between the check and the
 * suspension cannot be missed. */
static int park(d_http *h, req *r, struct MHD_Connection *c, const d_request *rq)
{
    g16d *d = h->d;
    const char *id;
    double wait = d_api_wait(rq, &id);
    if (wait <= 0) return 0;
    pthread_mutex_lock(&d->mu);
    int parked = !h->waker_stop && d_job_waitable(d, id);
    if (parked) {
        r->c = c;
        r->job_id = id; /* the URL lives as long as the request */
        r->deadline = d_now() + wait;
        r->next = h->parked;
        h->parked = r;
        d->long_polls++;
        MHD_suspend_connection(c);
        pthread_cond_broadcast(&d->changed); /* the waker's next deadline may be this one */
    }
    pthread_mutex_unlock(&d->mu);
    return parked;
}

/* Unlinks the parked long-polls whose wait is over (d->mu held); *next:
 * the earliest deadline of those left. */
static req *due(d_http *h, double now, double *next)
{
    req *out = NULL;
    *next = now + 60;
    for (req **pp = &h->parked; *pp;) {
        req *r = *pp;
        if (h->waker_stop || now >= r->deadline || !d_job_waitable(h->d, r->job_id)) {
            *pp = r->next;
            r->next = out;
            r->resumed = 1;
            out = r;
            h->d->long_polls--;
        } else {
            if (r->deadline < *next) *next = r->deadline;
            pp = &r->next;
        }
    }
    return out;
}

/* Resumes parked long-polls when a job changes or a wait runs out; the
 * event thread then answers them with the job as it is. */
static void *waker(void *arg)
{
    d_http *h = arg;
    g16d *d = h->d;
    pthread_mutex_lock(&d->mu);
    for (;;) {
        double next;
        req *ready = due(h, d_now(), &next);
        if (ready) {
            pthread_mutex_unlock(&d->mu);
            while (ready) { /* r may be freed once resumed: next first */
                req *r = ready;
                ready = r->next;
                pthread_mutex_lock(&h->tmu);
                h->answering++; /* on_done counts it answered */
                pthread_mutex_unlock(&h->tmu);
                MHD_resume_connection(r->c);
            }
            pthread_mutex_lock(&d->mu);
            continue; /* rescan: changes while unlocked were not waited for */
        }
        if (h->waker_stop) break;
        struct timespec ts;
        d_abs_time(&ts, next);
        pthread_cond_timedwait(&d->changed, &d->mu, &ts);
    }
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* A parse's nodes, freed, stay in the allocator's arenas (small chunks:
 * 134 MB stayed resident after six 600 KB bodies): given back when a
 * large one ends, as the reaper does after partitions. */
#define BODY_TRIM ((size_t)4 << 20)

static void *serve_blocking(void *arg)
{
    req *r = arg;
    d_http *h = r->h;
    d_api(h->d, &r->rq, &r->reply);
    if (r->held >= BODY_TRIM && mallinfo2().fordblks > BODY_TRIM) malloc_trim(0);
    r->has_reply = 1;
    pthread_mutex_lock(&h->tmu);
    MHD_resume_connection(r->c);
    h->threads--;
    pthread_cond_broadcast(&h->tcv);
    pthread_mutex_unlock(&h->tmu);
    return NULL;
}

/* Serves the request on a thread of its own, its connection suspended
 * meanwhile.  tmu is held from the thread's start to the suspension, so
 * the thread cannot resume a connection not yet suspended. */
static enum MHD_Result serve_on_thread(d_http *h, req *r, struct MHD_Connection *c,
                                       const d_request *rq)
{
    pthread_attr_t a;
    pthread_t t;
    int rc = -1;
    r->h = h;
    r->c = c;
    r->rq = *rq;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    pthread_mutex_lock(&h->tmu);
    if (!h->closing && (rc = pthread_create(&t, &a, serve_blocking, r)) == 0) {
        h->threads++;
        MHD_suspend_connection(c);
    }
    pthread_mutex_unlock(&h->tmu);
    pthread_attr_destroy(&a);
    if (rc)
        return send_error(c, 503,
                          h->closing ? "g16d is shutting down"
                                     : "cannot start a thread for this request");
    return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    front *f = cls;
    g16d *d = f->h->d;
    req *r = *con_cls;
    (void)version;
    if (!r) return on_headers(f, c, con_cls);
    if (*upload_size) {
        take_body(d, r, upload, *upload_size);
        *upload_size = 0;
        return MHD_YES;
    }
    if (r->answered) return MHD_YES; /* its 401, 413 or 507 is already queued */
    if (r->too_big)
        return send_error(c, d_http_status(D_ERR_NEVER_FITS), "request body exceeds --max-body");
    /* the parse is charged before it starts, and given back with the buffer */
    if (!r->refused && r->len && !r->parse_held &&
        !reserve(d, r, d_body_parse_bytes(r->buf, r->len), "to parse", r->len))
        r->parse_held = 1;
    if (r->refused) {
        drop_body(r);
        return send_error(c, r->refused, r->why);
    }
    if (r->has_reply) { /* back from its own thread */
        d_reply rep = r->reply;
        r->has_reply = 0;
        r->reply.body = NULL; /* the response owns it now */
        return send_reply(c, &rep);
    }
    d_request rq = {method, url, query, c, r->buf ? r->buf : "", r->len};
    if (!r->resumed && park(f->h, r, c, &rq)) return MHD_YES;
    if (d_api_blocks(d, &rq)) return serve_on_thread(f->h, r, c, &rq);
    d_reply rep = {0};
    d_api(d, &rq, &rep);
    return send_reply(c, &rep);
}

static void on_done(void *cls, struct MHD_Connection *c, void **con_cls,
                    enum MHD_RequestTerminationCode t)
{
    req *r = *con_cls;
    (void)c;
    (void)t;
    if (r) {
        d_http *h = ((front *)cls)->h;
        if (r->resumed) {
            pthread_mutex_lock(&h->tmu);
            h->answering--;
            pthread_cond_broadcast(&h->tcv);
            pthread_mutex_unlock(&h->tmu);
        }
        release(h->d, r);
        free(r->buf);
        free(r->reply.body);
        free(r);
    }
    *con_cls = NULL;
}

/* The socket's directory must be ours (or root's) and writable by no one
 * else, or whoever can write there may move the socket away and answer
 * in its place; ssh-agent and tmux refuse such directories the same way.
 * Followed if a symbolic link: where it leads is what is checked, with
 * every ancestor (the library's rule for directories code is loaded from:
 * g16_dir_private, docs/security.md). */
static int check_dir(const char *dir, char *err, size_t errlen)
{
    char why[1024];
    if (!g16_dir_private(dir, NULL, 0, why, sizeof why)) return 0;
    d_errf(err, errlen, "socket directory %s", why);
    return -1;
}

/* Clears the socket path: nothing there, or a stale socket (one that
 * refuses connections: a crash left it), which is removed.  A socket that
 * answers belongs to a running g16d, and anything else (a file, a link)
 * was put there by someone else: both are refused, never removed. */
static int clear_path(const struct sockaddr_un *a, char *err, size_t errlen)
{
    const char *path = a->sun_path;
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) return 0;
        d_errf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISSOCK(st.st_mode)) {
        d_errf(err, errlen,
               "%s: exists and is not a socket: refusing to replace it (remove it, or "
               "choose another --socket)",
               path);
        return -1;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), e = 0;
    if (fd < 0) {
        d_errf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    if (connect(fd, (const struct sockaddr *)a, sizeof *a) != 0) e = errno;
    close(fd);
    if (e == ECONNREFUSED && (unlink(path) == 0 || errno == ENOENT)) return 0;
    if (e == ECONNREFUSED)
        d_errf(err, errlen, "%s: cannot remove the stale socket: %s", path, strerror(errno));
    else if (e == 0)
        d_errf(err, errlen, "%s: another g16d is already listening there", path);
    else
        d_errf(err, errlen, "%s: cannot tell whether a g16d listens there: %s", path, strerror(e));
    return -1;
}

static int bind_unix(const char *path, char *err, size_t errlen)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    char dir[sizeof a.sun_path];
    if (strlen(path) >= sizeof a.sun_path) {
        d_errf(err, errlen, "%s: socket path too long", path);
        return -1;
    }
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    snprintf(dir, sizeof dir, "%s", path);
    if (d_mkdirs(dirname(dir), 0700)) {
        d_errf(err, errlen, "%s: cannot create its directory: %s", path, strerror(errno));
        return -1;
    }
    if (check_dir(dir, err, errlen) || clear_path(&a, err, errlen)) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    mode_t old = umask(0177); /* born 0600: no window where others may connect */
    int rc = fd < 0 ? -1 : bind(fd, (struct sockaddr *)&a, sizeof a);
    umask(old);
    if (rc || chmod(path, 0600) || listen(fd, 128)) {
        d_errf(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

static struct MHD_Daemon *start(d_http *h, front *f, int fd, int port)
{
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME;
    struct sockaddr_in lo = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    lo.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0)
        return MHD_start_daemon(flags, 0, NULL, NULL, on_request, f, MHD_OPTION_LISTEN_SOCKET, fd,
                                MHD_OPTION_NOTIFY_COMPLETED, on_done, f,
                                MHD_OPTION_CONNECTION_LIMIT, (unsigned)h->d->cfg.max_connections,
                                MHD_OPTION_CONNECTION_TIMEOUT, 120u, MHD_OPTION_END);
    return MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, f, MHD_OPTION_SOCK_ADDR,
                            &lo, MHD_OPTION_NOTIFY_COMPLETED, on_done, f,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)h->d->cfg.max_connections,
                            MHD_OPTION_CONNECTION_TIMEOUT, 120u, MHD_OPTION_END);
}

d_http *d_http_start(g16d *d, char *err, size_t errlen)
{
    d_http *h = calloc(1, sizeof *h);
    if (!h) {
        d_errf(err, errlen, "out of memory");
        return NULL;
    }
    h->d = d;
    h->uf = (front){h, 0};
    h->tf = (front){h, 1};
    pthread_mutex_init(&h->tmu, NULL);
    pthread_cond_init(&h->tcv, NULL);
    h->ufd = d->listen_fd >= 0 ? d->listen_fd : bind_unix(d->cfg.socket_path, err, errlen);
    if (h->ufd < 0) {
        d_http_stop(h);
        return NULL;
    }
    if (pthread_create(&h->waker, NULL, waker, h)) {
        d_errf(err, errlen, "cannot start the long-poll thread");
        d_http_stop(h);
        return NULL;
    }
    h->waker_started = 1;
    if (!(h->ud = start(h, &h->uf, h->ufd, 0))) {
        d_errf(err, errlen, "%s: cannot start the HTTP server", d->cfg.socket_path);
        d_http_stop(h);
        return NULL;
    }
    if (d->cfg.tcp_port && !(h->td = start(h, &h->tf, -1, d->cfg.tcp_port))) {
        d_errf(err, errlen, "127.0.0.1:%d: cannot listen (port in use?)", d->cfg.tcp_port);
        d_http_stop(h);
        return NULL;
    }
    return h;
}

/* Stops accepting connections; requests in progress go on. */
void d_http_quiesce(d_http *h)
{
    if (h->ud) {
        MHD_socket fd = MHD_quiesce_daemon(h->ud);
        if (fd != MHD_INVALID_SOCKET) close(fd);
        h->ufd = -1;
        if (h->d->listen_fd < 0) unlink(h->d->cfg.socket_path); /* else systemd's to keep */
    }
    if (h->td) {
        MHD_socket fd = MHD_quiesce_daemon(h->td);
        if (fd != MHD_INVALID_SOCKET) close(fd);
    }
}

/* libmicrohttpd must not be stopped with a connection suspended: the
 * requests on threads of their own finish first (new ones are refused),
 * then the waker resumes every parked long-poll and ends. */
static void drain(d_http *h)
{
    pthread_mutex_lock(&h->tmu);
    h->closing = 1;
    while (h->threads) pthread_cond_wait(&h->tcv, &h->tmu);
    pthread_mutex_unlock(&h->tmu);
    if (!h->waker_started) return;
    pthread_mutex_lock(&h->d->mu);
    h->waker_stop = 1;
    pthread_cond_broadcast(&h->d->changed);
    pthread_mutex_unlock(&h->d->mu);
    pthread_join(h->waker, NULL);
    /* the event thread still runs: the long-polls just resumed get their
     * answers sent before the daemon stops (which would close them with
     * none), a client that never reads them waited for 5 s at most */
    struct timespec until;
    d_abs_time(&until, d_now() + 5.0);
    pthread_mutex_lock(&h->tmu);
    while (h->answering > 0 && pthread_cond_timedwait(&h->tcv, &h->tmu, &until) == 0) {}
    pthread_mutex_unlock(&h->tmu);
}

void d_http_stop(d_http *h)
{
    if (!h) return;
    drain(h);
    if (h->ud)
        MHD_stop_daemon(h->ud); /* closes the listening socket it was given */
    else if (h->ufd >= 0)
        close(h->ufd);
    if (h->td) MHD_stop_daemon(h->td);
    if (h->ufd >= 0 && h->d->listen_fd < 0) unlink(h->d->cfg.socket_path);
    pthread_mutex_destroy(&h->tmu);
    pthread_cond_destroy(&h->tcv);
    free(h);
}
