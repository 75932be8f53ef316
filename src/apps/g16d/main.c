/* g16d: the persistent proving daemon.  Startup order matters: the state
 * directory is locked (one daemon per database), keys and jobs are
 * restored before the workers start, and the socket opens last, so a
 * client that can connect sees a complete daemon. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "d.h"
#include "jobtab.h"
#include "g16_memwatch.h"

static size_t mem_available(void)
{
    unsigned long long kb = 0;
    d_proc_value("/proc/meminfo", "MemAvailable: %llu kB", &kb);
    return (size_t)kb << 10;
}

/* Default budget: what the kernel says is available, less a margin for
 * everything else on the machine. */
static void resolve_budget(d_config *c)
{
    if (c->budget) return;
    size_t avail = mem_available(), margin = c->budget_margin;
    if (!margin) margin = avail / 10 > (256u << 20) ? avail / 10 : (256u << 20);
    c->budget = avail > margin ? avail - margin : avail / 2;
}

/* --pin-keys unless told: on when every key the budget admits could be
 * locked, else off with one warning (each mlock would fail; --pin-keys
 * forces the attempt, and each key then says why it is not pinned). */
static void resolve_pinning(d_config *c)
{
    struct rlimit rl;
    if (c->pin_keys >= 0) return;
    int lim_ok = getrlimit(RLIMIT_MEMLOCK, &rl) == 0 &&
                 (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= c->budget);
    c->pin_keys = d_cap_ipc_lock() || lim_ok;
    if (!c->pin_keys)
        d_log(D_LOG_WARNING, "keys_not_pinned", "memlock_limit=%llu budget=%zu why=%s",
              (unsigned long long)rl.rlim_cur, c->budget,
              "RLIMIT_MEMLOCK is below the budget and there is no CAP_IPC_LOCK (raise it with "
              "ulimit -l or LimitMEMLOCK=; --pin-keys pins what fits, --no-pin-keys silences "
              "this)");
}

/* Decided once, before any key loads: every key of this daemon then lives
 * where its proofs run, and a GPU that --device gpu requires but is absent
 * stops the start instead of the first proof. */
static int resolve_device(g16d *d, char *err, size_t errlen)
{
    int gpu = d->cfg.device != G16_DEVICE_CPU && g16_gpu_available();
    if (d->cfg.device == G16_DEVICE_GPU && !gpu) {
        d_errf(err, errlen,
               "--device gpu: no usable GPU (this build has no CUDA backend, or no CUDA GPU "
               "of compute capability 9.0 or later is present)");
        return -1;
    }
    d->use_gpu = gpu;
    /* on the CPU, enough MSM workers for every thread to prove a partition
     * of its own (sched.c shares the threads out); on the GPU two, so one
     * call's witness upload and a/b/c overlap the other's MSMs (a key up
     * to 2^22 serves two calls at once, a larger one makes the second wait) */
    if (!d->cfg.workers[ST_MSM])
        d->cfg.workers[ST_MSM] = gpu ? 2 : d->cfg.threads < 16 ? d->cfg.threads : 16;
    return 0;
}

/* The device budget: --device-memory-budget, else the GPU's free memory
 * now (the CUDA context already made) less a margin for other users and
 * fragmentation: 10%, at least 512 MiB.  Without NVML there is none. */
static void resolve_device_budget(g16d *d)
{
    char why[MW_ERRLEN];
    size_t avail;
    if (!d->use_gpu) {
        if (d->cfg.device_budget)
            d_log(D_LOG_NOTICE, "option_ignored", "option=%s why=%s", "--device-memory-budget",
                  "proofs run on the CPU");
        if (d->cfg.gpu_copies)
            d_log(D_LOG_NOTICE, "option_ignored", "option=%s why=%s", "--gpu-copies",
                  "proofs run on the CPU");
    } else if (d->cfg.device_budget) {
        d->dev_budget = d->cfg.device_budget;
    } else if (mw_gpu_free_memory(0, &avail, why, sizeof why)) {
        d_log(D_LOG_WARNING, "no_device_budget", "why=%s", why);
    } else {
        size_t margin = avail / 10 > ((size_t)512 << 20) ? avail / 10 : (size_t)512 << 20;
        d->dev_budget = avail > margin ? avail - margin : avail / 2;
    }
}

/* Each connection is a descriptor: the soft limit is raised (up to the
 * hard one) to hold --max-connections besides the daemon's own files,
 * or the connection limit comes down to what fits, saying so. */
static void fit_connections(d_config *c)
{
    const rlim_t own = 64; /* database, trace, sockets, keys being read */
    rlim_t need = (rlim_t)c->max_connections + own;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= need) return;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need ? need : rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= need) return;
    int fit = rl.rlim_cur > own + 4 ? (int)(rl.rlim_cur - own) : 4;
    d_log(D_LOG_WARNING, "max_connections_lowered", "from=%d to=%d nofile_limit=%llu",
          c->max_connections, fit, (unsigned long long)rl.rlim_cur);
    c->max_connections = fit;
}

static int lock_state(g16d *d, char *err, size_t errlen)
{
    char path[1100];
    static const char *const dirs[] = {"wtns", "inputs"}; /* uploaded witnesses, inputs */
    /* the jobs, their inputs and the compiled circuits: others may not
     * change them (the same rule as the socket's and the cache's) */
    char why[1024];
    if (g16_dir_private(d->cfg.state_dir, NULL, 0, why, sizeof why)) {
        d_errf(err, errlen, "state directory %s", why);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", d->cfg.state_dir, dirs[i]);
        if (d_mkdirs(path, 0700)) {
            d_errf(err, errlen, "%s: %s", path, strerror(errno));
            return -1;
        }
    }
    snprintf(path, sizeof path, "%s/g16d.lock", d->cfg.state_dir);
    d->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (d->lock_fd < 0 || flock(d->lock_fd, LOCK_EX | LOCK_NB)) {
        d_errf(err, errlen, "%s: %s", path,
               errno == EWOULDBLOCK ? "another g16d uses this state directory" : strerror(errno));
        return -1;
    }
    return 0;
}

/* Where jobs live: the fleet's database (--queue), or SQLite in the state
 * directory with what it holds restored. */
static int open_jobs(g16d *d, char *err, size_t errlen)
{
    d->be = d->cfg.queue[0] ? &d_backend_fleet : &d_backend_local;
    return d->be->open(d, err, errlen) || d->be->restore(d, err, errlen) ? -1 : 0;
}

static void init(g16d *d)
{
    pthread_mutex_init(&d->mu, NULL);
    pthread_cond_init(&d->work, NULL);
    pthread_cond_init(&d->changed, NULL);
    pthread_cond_init(&d->reap_cv, NULL);
    pthread_mutex_init(&d->tmu, NULL);
    pthread_mutex_init(&d->cron_mu, NULL);
    pthread_cond_init(&d->cron_cv, NULL);
    for (int i = 0; i <= ST_COUNT; i++) d_histo_init(&d->hist[i]);
    d->started = d_now();
    d->next_seq = 1;
    d->be = &d_backend_local; /* until open_jobs decides */
    d->lock_fd = -1;
}

static void teardown(g16d *d)
{
    d->be->stop(d);
    d->be->close(d);
    jobtab_clear(d);
    while (d->keys) {
        dkey *k = d->keys;
        d->keys = k->next;
        d_key_free(k);
    }
    if (d->lock_fd >= 0) close(d->lock_fd);
}

static int serve(g16d *d)
{
    char err[D_ERR];
    err[0] = 0;
    if (resolve_device(d, err, sizeof err)) {
        d_log(D_LOG_ERR, "start_failed", "error=%s", err);
        return 1;
    }
    resolve_device_budget(d);
    if (lock_state(d, err, sizeof err) || open_jobs(d, err, sizeof err) ||
        d_telemetry_start(d, err, sizeof err) || d_workers_start(d) || d->be->start(d) ||
        d_cron_start(d)) {
        d_log(D_LOG_ERR, "start_failed", "error=%s", err[0] ? err : "cannot start worker threads");
        return 1;
    }
    d_http *h = d_http_start(d, err, sizeof err);
    if (!h) {
        d_log(D_LOG_ERR, "start_failed", "error=%s", err);
        d_workers_stop(d);
        d->be->stop(d);
        d_cron_stop(d);
        d_telemetry_stop(d);
        return 1;
    }
    d_log(D_LOG_NOTICE, "listening",
          "socket=%s budget=%zu synth_workers=%d msm_workers=%d finalize_workers=%d device=%s "
          "g2_on_cpu=%d pin_keys=%d state=%s",
          d->cfg.socket_path, d->cfg.budget, d->cfg.workers[ST_SYNTH], d->cfg.workers[ST_MSM],
          d->cfg.workers[ST_FINAL], d->use_gpu ? "gpu" : "cpu", d->use_gpu && d->cfg.g2_on_cpu,
          d->cfg.pin_keys, d->cfg.state_dir);
    /* Only now: the keys and jobs are restored and the socket answers. */
    d_sd_notify("READY=1");
    int sig = d_signal_loop(d); /* SIGTERM drains first (health.c) */
    d_sd_notify("STOPPING=1");
    pthread_mutex_lock(&d->mu);
    d_log(D_LOG_NOTICE, "stopping", "signal=%s left=%d", strsignal(sig), d_drain_left(d));
    pthread_mutex_unlock(&d->mu);
    d_http_quiesce(h);
    d_workers_stop(d);
    d->be->stop(d); /* after the workers: their last results are posted */
    d_cron_stop(d); /* after the backend: a fleet renews its leases until then */
    d_http_stop(h);
    d_telemetry_stop(d);
    d_log(D_LOG_NOTICE, "stopped", "partitions_queued=%d", d->nstate[P_QUEUED]);
    return 0;
}

int main(int argc, char **argv)
{
    static g16d d;
    int code;
    char err[D_ERR];
    d.listen_fd = -1;
    if (d_config_load(&d.cfg, argc, argv, &code)) return code;
    if (d_sd_listen(&d, err, sizeof err) < 0) {
        d_log(D_LOG_ERR, "socket_activation_failed", "why=%s", err);
        return 1;
    }
    resolve_budget(&d.cfg);
    resolve_pinning(&d.cfg);
    fit_connections(&d.cfg);
    /* Partitions' buffers come from the allocator's arenas and are
     * reused by the next partitions; the reaper (sched.c) gives free
     * memory back once it passes a mark (a quarter of the budget nobody
     * reserved) and when the daemon goes idle, so kept memory only uses
     * unreserved budget.  Both thresholds are fixed (glibc would move the
     * mmap threshold after each large free): buffers up to 32 MiB, glibc's
     * largest, stay in the arenas; larger ones are mapped and go back on
     * free.  The trim threshold keeps glibc from trimming an arena's top
     * on every free, which the reaper's mark does instead.  With buffers
     * of 1 MiB and up mapped and unmapped per partition, every 2^16
     * proof faulted its vectors in again: 4400-5600 page faults and 50-60
     * ms of system time a proof, 23000 at 2^18 (rate 0.80x of `g16
     * prove` there; 0.90x with the buffers reused).  One arena for all
     * threads: malloc_trim gives back the main arena's top but not the
     * other arenas' (glibc trims those only on a free past the trim
     * threshold), so with an arena a thread the idle daemon kept each
     * worker's last partition (RSS 4-5 MiB over its start after a 2^14
     * job, 2 MiB with one arena); the workers allocate a few buffers a
     * stage call, so they do not contend for it. */
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
    mallopt(M_ARENA_MAX, 1);
    /* Blocked before any thread starts, so only sigwait sees them; SIGPIPE
     * (a client gone mid-reply) must never kill the daemon. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP); /* a reload (health.c's signal loop) */
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    init(&d);
    int rc = serve(&d);
    teardown(&d);
    return rc;
}
