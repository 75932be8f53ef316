/* A stand-in for systemd's notify socket: binds SOCKET (a datagram
 * socket, as NOTIFY_SOCKET names) and prints each message as it comes,
 * "SECONDS_SINCE_START MESSAGE" (newlines in it as ';'), until it has seen
 * READY=1 and PINGS WATCHDOG=1 messages, or TIMEOUT seconds passed.
 * With CHECK_PATH, the moment READY=1 arrives the sender (its pid from
 * the message's credentials) is stopped with SIGSTOP, CHECK_PATH is looked
 * at, and "at-ready socket=yes|no" is printed before SIGCONT: what the
 * daemon had done when it said it was ready, without a race.
 * usage: notify_recv SOCKET TIMEOUT PINGS [CHECK_PATH] */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int open_socket(const char *path)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    int on = 1, fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof on) ||
        bind(fd, (struct sockaddr *)&a, sizeof a)) {
        perror(path);
        exit(2);
    }
    return fd;
}

/* One message into buf; the sender's pid, or 0 without credentials. */
static pid_t receive(int fd, char *buf, size_t len)
{
    union {
        struct cmsghdr h;
        char b[CMSG_SPACE(sizeof(struct ucred))];
    } ctl;
    struct iovec iov = {buf, len - 1};
    struct msghdr m = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = &ctl, .msg_controllen = sizeof ctl};
    ssize_t n = recvmsg(fd, &m, 0);
    buf[n > 0 ? n : 0] = 0;
    for (char *p = buf; *p; p++)
        if (*p == '\n') *p = ';';
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS)
            return ((struct ucred *)(void *)CMSG_DATA(c))->pid;
    return 0;
}

static void check_at_ready(pid_t pid, const char *path)
{
    struct stat st;
    if (pid <= 0 || kill(pid, SIGSTOP)) {
        printf("at-ready: cannot stop the sender (pid %d)\n", (int)pid);
        return;
    }
    int sock = stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
    printf("at-ready socket=%s\n", sock ? "yes" : "no");
    kill(pid, SIGCONT);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: notify_recv SOCKET TIMEOUT PINGS [CHECK_PATH]\n");
        return 2;
    }
    int fd = open_socket(argv[1]), pings = 0, want = atoi(argv[3]), ready = 0;
    double start = now(), end = start + atof(argv[2]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (!(ready && pings >= want) && now() < end) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, (int)((end - now()) * 1000) + 1) <= 0) continue;
        char buf[4096];
        pid_t pid = receive(fd, buf, sizeof buf);
        printf("%.3f %s\n", now() - start, buf);
        if (strstr(buf, "WATCHDOG=1")) pings++;
        if (strstr(buf, "READY=1") && !ready++ && argc > 4) check_at_ready(pid, argv[4]);
    }
    return 0;
}
