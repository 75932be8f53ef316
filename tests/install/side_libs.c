/* side_libs: a program on libg16_memwatch and libg16_client alone, built
 * by embed.sh against the installed headers with `pkg-config --cflags
 * --libs g16_memwatch g16_client` and -Werror: neither library needs
 * libg16.  It samples its own process and asks a socket where no daemon
 * listens; exit 0 when both answer as their contracts say. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <g16_client.h>
#include <g16_memwatch.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: side_libs SOCKET-PATH-WITH-NO-DAEMON\n");
        return 2;
    }
    char err[MW_ERRLEN];
    pid_t me = getpid();
    mw_target *t = NULL;
    mw_sample s;
    if (mw_open(&me, 1, MW_OPEN_NO_GPU, &t, err, sizeof err) != G16_OK) {
        fprintf(stderr, "side_libs: mw_open: %s\n", err);
        return 1;
    }
    bool alive = mw_take(t, &s, 0);
    mw_close(t);
    if (!alive || s.nproc != 1 || s.total.rss <= 0) {
        fprintf(stderr, "side_libs: mw_take: no sample of this process\n");
        return 1;
    }
    g16_client_target target = {.port = 0};
    snprintf(target.socket_path, sizeof target.socket_path, "%s", argv[1]);
    g16_client_response r;
    g16_status rc =
        g16_client_request(&target, "GET", "/healthz", NULL, 0, 1.0, &r, err, sizeof err);
    if (rc != G16_ERR_IO || !strstr(err, argv[1])) {
        fprintf(stderr, "side_libs: g16_client_request: %d (%s), want G16_ERR_IO naming %s\n",
                (int)rc, err, argv[1]);
        return 1;
    }
    puts("side_libs: OK");
    return 0;
}
