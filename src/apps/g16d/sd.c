/* systemd integration: readiness and watchdog through sd_notify, and a
 * listening socket passed in by socket activation (sd_listen_fds).  Built
 * on libsystemd when it is found (G16D_HAVE_SYSTEMD); without it these
 * are no-ops and g16d binds --socket itself.  Outside systemd they do
 * nothing either: libsystemd looks at NOTIFY_SOCKET, WATCHDOG_USEC and
 * LISTEN_FDS, which only a service manager sets. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "d.h"

#ifdef G16D_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>

/* 0 with nothing passed; 1 with the one Unix stream socket passed, its
 * descriptor in d->listen_fd and its path in --socket's place (for the
 * log); -1 with err set for anything else (several sockets, or one g16d
 * cannot serve HTTP on). */
int d_sd_listen(g16d *d, char *err, size_t errlen)
{
    int n = sd_listen_fds(1); /* 1: children (witness calculators) do not see them */
    if (n == 0) return 0;
    if (n < 0) {
        d_errf(err, errlen, "socket activation (LISTEN_FDS): %s", strerror(-n));
        return -1;
    }
    int fd = SD_LISTEN_FDS_START;
    if (n != 1 || sd_is_socket_unix(fd, SOCK_STREAM, 1, NULL, 0) <= 0) {
        d_errf(err, errlen,
               "socket activation: expected one listening Unix stream socket, got %d "
               "descriptor%s (ListenStream= a path in g16d.socket)",
               n, n == 1 ? " of another kind" : "s");
        return -1;
    }
    struct sockaddr_un a;
    socklen_t len = sizeof a;
    memset(&a, 0, sizeof a);
    if (getsockname(fd, (struct sockaddr *)&a, &len) == 0 && a.sun_path[0])
        snprintf(d->cfg.socket_path, sizeof d->cfg.socket_path, "%s", a.sun_path);
    d->listen_fd = fd;
    return 1;
}

void d_sd_notify(const char *state) { sd_notify(0, state); }

double d_sd_watchdog_interval(void)
{
    uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) <= 0 || !usec) return 0;
    return (double)usec / 2e6; /* half the limit: a late ping still lands in time */
}
#else
int d_sd_listen(g16d *d, char *err, size_t errlen)
{
    (void)d;
    (void)err;
    (void)errlen;
    return 0;
}
void d_sd_notify(const char *state) { (void)state; }
double d_sd_watchdog_interval(void) { return 0; }
#endif
