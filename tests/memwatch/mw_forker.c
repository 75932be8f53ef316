/* Test target: forks N children that each map and touch MiB and hold it for
 * MS milliseconds; the parent waits for them. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 4) return 2;
    int n = atoi(argv[1]);
    size_t len = (size_t)atol(argv[2]) << 20;
    long ms = atol(argv[3]);
    for (int i = 0; i < n; i++) {
        if (fork() != 0) continue;
        char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) _exit(3);
        memset(p, 1, len);
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        _exit(0);
    }
    while (wait(NULL) > 0) {}
    return 0;
}
