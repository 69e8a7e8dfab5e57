#ifndef BENCHDB_INGEST_CORE_BUDGET_H
#define BENCHDB_INGEST_CORE_BUDGET_H
/* --max-bytes: the bytes one archive may produce when read. Every layer
 * counts what it produces (a decompression's output, a container's bytes,
 * a file beside a stream), on whichever thread reads it. */
#include <stdatomic.h>
#include <stdint.h>

struct budget {
    _Atomic uint64_t used;
    uint64_t max;
};

static inline void budget_init(struct budget *b, uint64_t max)
{
    atomic_init(&b->used, 0);
    b->max = max;
}

/* Counts n more bytes: 0, or -1 when that passes the limit. */
static inline int budget_take(struct budget *b, uint64_t n)
{
    if (!b)
        return 0;
    uint64_t was = atomic_fetch_add(&b->used, n);
    return was + n > b->max || was + n < was ? -1 : 0;
}

/* What is left (0 when the limit is reached). */
static inline uint64_t budget_left(const struct budget *b)
{
    uint64_t used = atomic_load(&((struct budget *)b)->used);
    return used >= b->max ? 0 : b->max - used;
}

#endif
