#ifndef BENCHDB_INGEST_CORE_BUDGET_H
#define BENCHDB_INGEST_CORE_BUDGET_H
/* --max-bytes: the bytes one archive may produce when read. Every layer
 * counts what it produces (a decompression's output, a container's bytes,
 * a file beside a stream), on whichever thread reads it.
 *
 * --max-ratio: what decompression gives against what was read. A small
 * file can decompress to gigabytes (131 KB of zstd to 4 GiB of newlines,
 * which took a minute to read through); past the first bytes (64 MiB
 * by default: ingest.h), decompression may give at most ratio bytes
 * per byte read (the archive's bytes and any file beside it), so such a
 * bomb is refused after a fraction of a second. Real data is far below:
 * benchmark results compress 5 to 20 times. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct budget {
    _Atomic uint64_t used;
    uint64_t max;
    /* the ratio limit: off while read is NULL or ratio 0 */
    _Atomic uint64_t expanded;   /* bytes decompression gave */
    _Atomic uint64_t read_extra; /* bytes read from files beside a stream */
    const _Atomic uint64_t *read; /* the archive's own bytes read so far */
    uint64_t ratio, free;
};

static inline void budget_init(struct budget *b, uint64_t max)
{
    atomic_init(&b->used, 0);
    b->max = max;
    atomic_init(&b->expanded, 0);
    atomic_init(&b->read_extra, 0);
    b->read = NULL;
    b->ratio = b->free = 0;
}

/* Limits decompression to ratio bytes per byte counted in *read (and by
 * budget_read) beyond the first free bytes. */
static inline void budget_set_ratio(struct budget *b, const _Atomic uint64_t *read, uint64_t ratio, uint64_t free)
{
    b->read = read;
    b->ratio = ratio;
    b->free = free;
}

/* Counts n more bytes: 0, or -1 when that passes the limit. */
static inline int budget_take(struct budget *b, uint64_t n)
{
    if (!b)
        return 0;
    uint64_t was = atomic_fetch_add(&b->used, n);
    return was + n > b->max || was + n < was ? -1 : 0;
}

/* Counts n bytes that decompression gave: 0, -1 past --max-bytes, -2
 * past the ratio. */
static inline int budget_expand(struct budget *b, uint64_t n)
{
    if (!b)
        return 0;
    if (budget_take(b, n))
        return -1;
    uint64_t e = atomic_fetch_add(&b->expanded, n) + n;
    if (!b->read || !b->ratio || e <= b->free)
        return 0;
    uint64_t in = atomic_load(b->read) + atomic_load(&b->read_extra);
    return e / b->ratio > in ? -2 : 0;
}

/* Counts n bytes read from a file (beside a stream) towards the ratio's
 * denominator; they count against --max-bytes too (budget_take). */
static inline void budget_read(struct budget *b, uint64_t n)
{
    if (b)
        atomic_fetch_add(&b->read_extra, n);
}

/* What is left (0 when the limit is reached). */
static inline uint64_t budget_left(const struct budget *b)
{
    uint64_t used = atomic_load(&((struct budget *)b)->used);
    return used >= b->max ? 0 : b->max - used;
}

/* The ratio's numbers for a message: bytes given, bytes read. */
static inline void budget_ratio_numbers(const struct budget *b, uint64_t *given, uint64_t *read)
{
    *given = atomic_load(&((struct budget *)b)->expanded);
    *read = (b->read ? atomic_load(b->read) : 0) + atomic_load(&((struct budget *)b)->read_extra);
}

#endif
