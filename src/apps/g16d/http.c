/* The HTTP/1.1 front (libmicrohttpd, one thread per connection so a
 * long-poll blocks only its own client): a Unix socket, mode 0600, and,
 * when asked, a loopback TCP port that demands a bearer token.  Bodies
 * larger than --max-body are refused from their Content-Length before a
 * byte is read, and chunked ones as soon as they cross the limit. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <libgen.h>
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

struct d_http {
    g16d *d;
    struct MHD_Daemon *ud, *td;
    int ufd;
    front uf, tf;
};

typedef struct {
    char *buf;
    size_t len, cap;
    int too_big;
} req;

static enum MHD_Result send_reply(struct MHD_Connection *c, d_reply *r)
{
    size_t n = r->body ? strlen(r->body) : 0;
    struct MHD_Response *resp = MHD_create_response_from_buffer(n, r->body, MHD_RESPMEM_MUST_FREE);
    if (!resp) { free(r->body); return MHD_NO; }
    MHD_add_response_header(resp, "Content-Type", r->content_type ? r->content_type : "application/json");
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

/* Constant time, so the token cannot be guessed byte by byte. */
static int token_ok(const char *want, const char *header)
{
    static const char prefix[] = "Bearer ";
    if (!header || strncmp(header, prefix, sizeof prefix - 1)) return 0;
    const char *got = header + sizeof prefix - 1;
    size_t n = strlen(want), m = strlen(got);
    unsigned diff = (unsigned)(n ^ m);
    for (size_t i = 0; i < n; i++) diff |= (unsigned char)want[i] ^ (unsigned char)(i < m ? got[i] : 0);
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
    if (f->tcp && !token_ok(d->cfg.token, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization")))
        return send_error(c, 401, "missing or wrong bearer token");
    const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
    if (cl && strtoull(cl, NULL, 10) > d->cfg.max_body) {
        char msg[128];
        snprintf(msg, sizeof msg, "request body of %s bytes exceeds --max-body (%zu bytes)", cl, d->cfg.max_body);
        r->too_big = 2;
        return send_error(c, 413, msg);
    }
    return MHD_YES;
}

static void take_body(g16d *d, req *r, const char *data, size_t n)
{
    if (r->too_big) return;
    if (r->len + n > d->cfg.max_body) {         /* chunked and too long: stop keeping it */
        r->too_big = 1;
        free(r->buf);
        r->buf = NULL;
        r->len = r->cap = 0;
        return;
    }
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n + 1) cap *= 2;
        char *b = realloc(r->buf, cap);
        if (!b) { r->too_big = 1; return; }
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
    if (r->too_big == 2) return MHD_YES;        /* the 413 is already queued */
    if (r->too_big) return send_error(c, 413, "request body exceeds --max-body");
    d_request rq = {method, url, query, c, r->buf ? r->buf : "", r->len};
    d_reply rep = {0};
    d_api(d, &rq, &rep);
    return send_reply(c, &rep);
}

static void on_done(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode t)
{
    req *r = *con_cls;
    (void)cls; (void)c; (void)t;
    if (r) { free(r->buf); free(r); }
    *con_cls = NULL;
}

/* A socket that answers means another g16d owns the path; one that
 * refuses is stale (a crash left it) and is replaced. */
static int bind_unix(const char *path, char *err, size_t errlen)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    char dir[sizeof a.sun_path];
    if (strlen(path) >= sizeof a.sun_path) { d_errf(err, errlen, "%s: socket path too long", path); return -1; }
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    snprintf(dir, sizeof dir, "%s", path);
    if (d_mkdirs(dirname(dir), 0700)) { d_errf(err, errlen, "%s: cannot create its directory: %s", path, strerror(errno)); return -1; }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) { d_errf(err, errlen, "socket: %s", strerror(errno)); return -1; }
    if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0) {
        d_errf(err, errlen, "%s: another g16d is already listening there", path);
        close(fd);
        return -1;
    }
    close(fd);
    unlink(path);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    mode_t old = umask(0177);                   /* born 0600: no window where others may connect */
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
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC;
    struct sockaddr_in lo = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    lo.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0)
        return MHD_start_daemon(flags, 0, NULL, NULL, on_request, f, MHD_OPTION_LISTEN_SOCKET, fd,
                                MHD_OPTION_NOTIFY_COMPLETED, on_done, NULL,
                                MHD_OPTION_CONNECTION_LIMIT, (unsigned)h->d->cfg.max_connections,
                                MHD_OPTION_CONNECTION_TIMEOUT, 120u, MHD_OPTION_END);
    return MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, f, MHD_OPTION_SOCK_ADDR, &lo,
                            MHD_OPTION_NOTIFY_COMPLETED, on_done, NULL,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)h->d->cfg.max_connections,
                            MHD_OPTION_CONNECTION_TIMEOUT, 120u, MHD_OPTION_END);
}

d_http *d_http_start(g16d *d, char *err, size_t errlen)
{
    d_http *h = calloc(1, sizeof *h);
    if (!h) { d_errf(err, errlen, "out of memory"); return NULL; }
    h->d = d;
    h->uf = (front){h, 0};
    h->tf = (front){h, 1};
    h->ufd = bind_unix(d->cfg.socket_path, err, errlen);
    if (h->ufd < 0) { free(h); return NULL; }
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
        unlink(h->d->cfg.socket_path);
    }
    if (h->td) {
        MHD_socket fd = MHD_quiesce_daemon(h->td);
        if (fd != MHD_INVALID_SOCKET) close(fd);
    }
}

void d_http_stop(d_http *h)
{
    if (!h) return;
    if (h->ud) MHD_stop_daemon(h->ud);          /* closes the listening socket it was given */
    else if (h->ufd >= 0) close(h->ufd);
    if (h->td) MHD_stop_daemon(h->td);
    if (h->ufd >= 0) unlink(h->d->cfg.socket_path);
    free(h);
}
