/* parallel: the one way g16 spreads CPU work over threads.
 *
 * Contract
 * - parallel_for(count, threads, fn, ctx) calls fn(ctx, begin, end, worker)
 *   on disjoint chunks covering [0, count), using at most `threads` threads
 *   (the caller's thread is one of them), and returns when all are done.
 *   worker is in [0, threads) and unique among concurrent calls, so callers
 *   can give each worker its own scratch space.
 * - threads <= 0 means "all online CPUs" (parallel_default_threads()).
 * - Chunks are contiguous and balanced (sizes differ by at most one), so
 *   the split is deterministic: results that depend on it are reproducible.
 * Threads are created per call: the kernels that use this run for
 * milliseconds or more, so a pool would save little and add shared state.
 */
#ifndef G16_PARALLEL_H
#define G16_PARALLEL_H

#include <stddef.h>

typedef void (*parallel_fn)(void *ctx, size_t begin, size_t end, int worker);

int parallel_default_threads(void);
/* Clamps a requested thread count: <= 0 -> default; never above count. */
int parallel_threads_for(int requested, size_t count);
void parallel_for(size_t count, int threads, parallel_fn fn, void *ctx);

#endif
