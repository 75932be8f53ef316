/* The device budget's decision (d_dev_fit), without a GPU: no budget
 * admits anything; a key that fits evicts nothing; otherwise idle keys go
 * least recently used first and no more than needed; busy (or loading)
 * keys are never chosen; when even every idle key is not enough the
 * answer is a refusal that evicts nothing; exact fits and huge requests
 * at the edges. */
#include <stdint.h>
#include <string.h>

#include "d.h"
#include "../common/test.h"

enum { MB = 1 << 20 };

/* d_dev_fit on keys[0..n), victims compared with want[0..nwant). */
static void expect(size_t budget, const d_dev_key *keys, int n, size_t need, int rc,
                   const int *want, int nwant)
{
    int victims[16], nv = -1;
    memset(victims, 0xff, sizeof victims);
    CHECK(d_dev_fit(budget, keys, n, need, victims, &nv) == rc);
    CHECK(nv == nwant);
    for (int i = 0; i < nwant && i < nv; i++) CHECK(victims[i] == want[i]);
}

int main(void)
{
    /* bytes, busy, last_used: 3 idle keys (1 oldest), 1 busy oldest of all */
    const d_dev_key keys[] = {
        {100 * MB, 0, 30}, {200 * MB, 0, 10}, {50 * MB, 0, 20}, {300 * MB, 1, 5}};
    const int n = 4;                                  /* 650 MB used */
    expect(0, keys, n, SIZE_MAX / 2, 0, NULL, 0);     /* no budget: anything goes */
    expect(1000 * MB, keys, n, 350 * MB, 0, NULL, 0); /* exactly fits: nothing evicted */
    expect(1000 * MB, keys, n, 100 * MB, 0, NULL, 0);
    /* 351 MB needs 1 MB: the least recently used idle key (1), not the busy 3 */
    expect(1000 * MB, keys, n, 351 * MB, 0, (const int[]){1}, 1);
    /* 551 MB needs 201: 1 (200) then 2 (50), in LRU order, and not 0 */
    expect(1000 * MB, keys, n, 551 * MB, 0, (const int[]){1, 2}, 2);
    /* 700 MB: all three idle keys (350 freed) */
    expect(1000 * MB, keys, n, 700 * MB, 0, (const int[]){1, 2, 0}, 3);
    /* 701 MB: the busy key holds 300, so it cannot fit: refused, nothing evicted */
    expect(1000 * MB, keys, n, 701 * MB, -1, NULL, 0);
    expect(1000 * MB, keys, n, 1001 * MB, -1, NULL, 0);     /* larger than the budget */
    expect(1000 * MB, keys, n, SIZE_MAX - 10, -1, NULL, 0); /* no wrap-around */
    /* no keys at all */
    expect(1000 * MB, NULL, 0, 1000 * MB, 0, NULL, 0);
    expect(1000 * MB, NULL, 0, 1000 * MB + 1, -1, NULL, 0);
    /* already over budget (a copy larger than planned) with nothing idle */
    const d_dev_key over[] = {{1200 * MB, 1, 1}};
    expect(1000 * MB, over, 1, 0, -1, NULL, 0);
    /* ties in last use: the first listed goes first, deterministically */
    const d_dev_key tie[] = {{10 * MB, 0, 7}, {10 * MB, 0, 7}};
    expect(25 * MB, tie, 2, 10 * MB, 0, (const int[]){0}, 1);
    return test_finish("daemon.device_budget");
}
