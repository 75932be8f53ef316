/* g16_client: a minimal HTTP/1.1 client for talking to g16d over its Unix
 * socket (or loopback TCP with a bearer token).  One request per
 * connection (Connection: close), the whole reply in memory.  The
 * library is libg16_client (pkg-config g16_client), apart from libg16. */
#ifndef G16_HTTPC_H
#define G16_HTTPC_H

#include <stddef.h>

#include "g16_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: what this header declares
 * is its exported interface. */
#pragma GCC visibility push(default)

typedef struct {
    char socket_path[108]; /* used when port == 0 */
    int port;              /* 127.0.0.1:port when > 0 */
    char token[256];       /* sent as "Authorization: Bearer" when set */
} g16_client_target;

typedef struct {
    int status;
    char *body; /* NUL-terminated, malloc'd */
    size_t len;
} g16_client_response;

/* G16_OK when a reply came (any HTTP status: r->status); else one line
 * in err and G16_ERR_IO (no connection, or no reply: timed out or the
 * connection lost) or G16_ERR_FORMAT (a reply that is not HTTP).
 * timeout_s bounds each read (the server's long-polls need more than it). */
g16_status g16_client_request(const g16_client_target *t, const char *method, const char *path,
                              const char *body, size_t len, double timeout_s,
                              g16_client_response *r, char *err, size_t errlen) G16_MUST_USE
    G16_NONNULL(1, 2, 3, 7);
void g16_client_response_free(g16_client_response *r);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
