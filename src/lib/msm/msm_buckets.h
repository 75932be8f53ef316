/* One tile's buckets for one group, stamped out by msm_template.h (no
 * include guard on purpose).
 *
 * Why batch-affine: a bucket kept affine takes a point for 5M + 1S once the
 * inversion of x2 - x1 is shared by a whole batch (Montgomery's trick: 3M
 * per element plus one inversion per batch), against 8M + 2S for a mixed
 * XYZZ addition.  A point for a bucket that already has an addition
 * pending in the batch is deferred: it waits in a side list and is queued
 * again right after the batch's flush, which costs a copy instead of the
 * XYZZ addition (so batches can be large, see msm_batch_size).  Only a
 * second such point for the same bucket, or a point with the bucket's x
 * (doubling or cancellation, which the affine formula cannot do), goes to
 * that bucket's XYZZ overflow, whose contents join at reduction.  So skewed
 * inputs (every scalar equal) degrade to plain XYZZ speed, never worse.
 * Expects the includer's macros (G_, FE_, M_, AFF, XYZZ, MSM_FE). */

/* bucket state bits */
#define MSM_HAS_POINT    1u /* bucket[j] holds an affine point */
#define MSM_PENDING      2u /* bucket[j] has an addition queued in this batch */
#define MSM_HAS_OVERFLOW 4u /* overflow[j] is set (so it never needs clearing) */
#define MSM_DEFERRED     8u /* a point for bucket[j] waits in defer */

struct M_(buckets) {
    size_t nb, batch;       /* buckets; most additions queued per inversion
                              (0: too few buckets to fill a batch, all XYZZ) */
    XYZZ *overflow;         /* nb */
    AFF *bucket;            /* nb */
    AFF *pend;              /* batch: queued points */
    MSM_FE *denom, *prefix; /* batch: x2 - x1 and running products */
    uint32_t *pend_bucket;  /* batch */
    AFF *defer;             /* batch: points whose bucket was pending; at most
                              one per pending bucket, so never more than batch */
    uint32_t *defer_bucket; /* batch */
    uint8_t *state;         /* nb */
    size_t count, ndefer;   /* queued now, deferred now */
};

static size_t M_(buckets_bytes)(size_t nb, size_t batch)
{
    return nb * (sizeof(XYZZ) + sizeof(AFF) + 1) +
           batch * (2 * sizeof(AFF) + 2 * sizeof(MSM_FE) + 2 * sizeof(uint32_t));
}

/* Carves the arrays out of one block of buckets_bytes(nb, batch). */
static void M_(buckets_init)(struct M_(buckets) * b, void *mem, size_t nb, size_t batch)
{
    char *p = mem;
    b->nb = nb;
    b->batch = batch;
    b->overflow = (XYZZ *)(void *)p;
    p += nb * sizeof(XYZZ);
    b->bucket = (AFF *)(void *)p;
    p += nb * sizeof(AFF);
    b->pend = (AFF *)(void *)p;
    p += batch * sizeof(AFF);
    b->denom = (MSM_FE *)(void *)p;
    p += batch * sizeof(MSM_FE);
    b->prefix = (MSM_FE *)(void *)p;
    p += batch * sizeof(MSM_FE);
    b->defer = (AFF *)(void *)p;
    p += batch * sizeof(AFF);
    b->pend_bucket = (uint32_t *)(void *)p;
    p += batch * sizeof(uint32_t);
    b->defer_bucket = (uint32_t *)(void *)p;
    p += batch * sizeof(uint32_t);
    b->state = (uint8_t *)p;
}

static void M_(buckets_clear)(struct M_(buckets) * b)
{
    memset(b->state, 0, b->nb);
    b->count = b->ndefer = 0;
}

/* Performs the queued additions bucket += pend with one inversion. */
static void M_(buckets_flush)(struct M_(buckets) * b)
{
    MSM_FE acc, inv, t, lambda, x3;
    if (!b->count) return;
    FE_(one)(&acc);
    for (size_t i = 0; i < b->count; i++) {
        b->prefix[i] = acc;
        FE_(mul)(&acc, &acc, &b->denom[i]);
    }
    FE_(inv)(&inv, &acc);
    for (size_t i = b->count; i-- > 0;) {
        uint32_t j = b->pend_bucket[i];
        AFF *a = &b->bucket[j];
        const AFF *q = &b->pend[i];
        FE_(mul)(&t, &inv, &b->prefix[i]); /* 1 / denom[i] */
        FE_(mul)(&inv, &inv, &b->denom[i]);
        FE_(sub)(&lambda, &q->y, &a->y);
        FE_(mul)(&lambda, &lambda, &t);
        FE_(sqr)(&x3, &lambda);
        FE_(sub)(&x3, &x3, &a->x);
        FE_(sub)(&x3, &x3, &q->x);
        FE_(sub)(&t, &a->x, &x3);
        FE_(mul)(&t, &lambda, &t);
        FE_(sub)(&a->y, &t, &a->y);
        a->x = x3;
        b->state[j] &= (uint8_t) ~(MSM_PENDING | MSM_DEFERRED);
    }
    b->count = 0;
}

static void M_(buckets_overflow)(struct M_(buckets) * b, size_t j, const AFF *q)
{
    if (!(b->state[j] & MSM_HAS_OVERFLOW)) {
        M_(xyzz_set_inf)(&b->overflow[j]);
        b->state[j] |= MSM_HAS_OVERFLOW;
    }
    M_(xyzz_add_affine)(&b->overflow[j], q);
}

/* bucket j += q, q affine and not infinity, without flushing: queued,
 * deferred, stored or sent to the overflow. */
static inline void M_(buckets_place)(struct M_(buckets) * b, size_t j, const AFF *q)
{
    uint8_t s = b->state[j];
    if (!(s & MSM_HAS_POINT)) {
        b->bucket[j] = *q;
        b->state[j] = (uint8_t)(s | MSM_HAS_POINT);
        return;
    }
    if (s & MSM_PENDING) {
        if (s & MSM_DEFERRED) {
            M_(buckets_overflow)(b, j, q);
            return;
        }
        b->state[j] = (uint8_t)(s | MSM_DEFERRED);
        b->defer[b->ndefer] = *q;
        b->defer_bucket[b->ndefer++] = (uint32_t)j;
        return;
    }
    if (!b->batch || FE_(eq)(&b->bucket[j].x, &q->x)) {
        M_(buckets_overflow)(b, j, q);
        return;
    }
    b->state[j] = (uint8_t)(s | MSM_PENDING);
    b->pend[b->count] = *q;
    b->pend_bucket[b->count] = (uint32_t)j;
    FE_(sub)(&b->denom[b->count], &q->x, &b->bucket[j].x);
    b->count++;
}

/* Flushes the batch, then places the deferred points: their buckets are
 * no longer pending and each has one of them, so all are queued (or meet
 * an equal x) and count stays below batch. */
static void M_(buckets_drain)(struct M_(buckets) * b)
{
    M_(buckets_flush)(b);
    size_t d = b->ndefer;
    b->ndefer = 0;
    for (size_t i = 0; i < d; i++) {
        AFF q = b->defer[i];
        M_(buckets_place)(b, b->defer_bucket[i], &q);
    }
}

/* bucket j += q, q affine and not infinity. */
static inline void M_(buckets_add)(struct M_(buckets) * b, size_t j, const AFF *q)
{
    M_(buckets_place)(b, j, q);
    while (b->batch && b->count == b->batch) M_(buckets_drain)(b); /* a drain can refill it */
}

/* Everything queued or deferred is added into the buckets. */
static void M_(buckets_settle)(struct M_(buckets) * b)
{
    while (b->count || b->ndefer) M_(buckets_drain)(b);
}

/* sum_j (j+1)·bucket_j by running sums from the top bucket down. */
static void M_(buckets_reduce)(XYZZ *res, struct M_(buckets) * b)
{
    XYZZ run, sum;
    M_(buckets_settle)(b);
    M_(xyzz_set_inf)(&run);
    M_(xyzz_set_inf)(&sum);
    for (size_t j = b->nb; j-- > 0;) {
        uint8_t s = b->state[j];
        if (s & MSM_HAS_POINT) M_(xyzz_add_affine)(&run, &b->bucket[j]);
        if (s & MSM_HAS_OVERFLOW) M_(xyzz_add)(&run, &b->overflow[j]);
        M_(xyzz_add)(&sum, &run);
    }
    *res = sum;
}

/* Plain sum of all buckets (for the 1-scalar points). */
static void M_(buckets_sum)(XYZZ *res, struct M_(buckets) * b)
{
    M_(buckets_settle)(b);
    M_(xyzz_set_inf)(res);
    for (size_t j = 0; j < b->nb; j++) {
        uint8_t s = b->state[j];
        if (s & MSM_HAS_POINT) M_(xyzz_add_affine)(res, &b->bucket[j]);
        if (s & MSM_HAS_OVERFLOW) M_(xyzz_add)(res, &b->overflow[j]);
    }
}

#undef MSM_HAS_POINT
#undef MSM_PENDING
#undef MSM_HAS_OVERFLOW
#undef MSM_DEFERRED
