/* See httpc.h.  Kept dependency-free (no libcurl) so `g16 client` links
 * nothing the daemon does not already need. */
#define _GNU_SOURCE
#include "g16_client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

static void errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static int dial(const g16_client_target *t, double timeout_s, char *err, size_t errlen)
{
    int fd;
    int rc;
    if (t->port > 0) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)t->port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        rc = fd < 0 ? -1 : connect(fd, (struct sockaddr *)&a, sizeof a);
    } else {
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        snprintf(a.sun_path, sizeof a.sun_path, "%s", t->socket_path);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        rc = fd < 0 ? -1 : connect(fd, (struct sockaddr *)&a, sizeof a);
    }
    if (rc) {
        if (t->port > 0)
            errf(err, errlen, "127.0.0.1:%d: cannot connect: %s", t->port, strerror(errno));
        else
            errf(err, errlen, "%s: cannot connect: %s (is g16d running?)", t->socket_path,
                 strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    struct timeval tv = {(time_t)timeout_s,
                         (suseconds_t)((timeout_s - (double)(time_t)timeout_s) * 1e6)};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static char *read_all(int fd, size_t *len)
{
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                return NULL;
            }
            buf = b;
        }
        ssize_t k = recv(fd, buf + n, cap - n - 1, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            free(buf);
            return NULL;
        }
        if (k == 0) break;
        n += (size_t)k;
    }
    if (buf) buf[n] = 0;
    *len = n;
    return buf;
}

static int parse(char *raw, size_t n, g16_client_response *r)
{
    char *sep = strstr(raw, "\r\n\r\n");
    if (strncmp(raw, "HTTP/1.", 7) || !sep) return -1;
    r->status = atoi(raw + 9);
    size_t off = (size_t)(sep + 4 - raw);
    r->len = n - off;
    r->body = malloc(r->len + 1);
    if (!r->body) return -1;
    memcpy(r->body, raw + off, r->len);
    r->body[r->len] = 0;
    return r->status >= 100 ? 0 : -1;
}

g16_status g16_client_request(const g16_client_target *t, const char *method, const char *path,
                              const char *body, size_t len, double timeout_s,
                              g16_client_response *r, char *err, size_t errlen)
{
    char head[1024], auth[300] = "";
    memset(r, 0, sizeof *r);
    int fd = dial(t, timeout_s, err, errlen);
    if (fd < 0) return G16_ERR_IO;
    if (t->token[0]) snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n", t->token);
    int h = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: g16d\r\nConnection: close\r\n%s"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                     method, path, auth, body ? len : 0);
    size_t rawlen = 0;
    char *raw = NULL;
    if (send_all(fd, head, (size_t)h) == 0 && (!body || send_all(fd, body, len) == 0))
        raw = read_all(fd, &rawlen);
    close(fd);
    if (!raw || parse(raw, rawlen, r)) {
        errf(err, errlen, "%s %s: %s", method, path,
             raw ? "malformed reply from g16d"
                 : "no reply from g16d (timed out or connection lost)");
        g16_status rc = raw ? G16_ERR_FORMAT : G16_ERR_IO;
        free(raw);
        g16_client_response_free(r);
        return rc;
    }
    free(raw);
    return G16_OK;
}

void g16_client_response_free(g16_client_response *r)
{
    free(r->body);
    r->body = NULL;
}
