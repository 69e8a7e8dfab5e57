/* A limit on the memory SQLite holds (docs/reliability.md, promise 9): a
 * median over an endless recursive CTE held 2.6 GB by the time limit.
 *
 * SQLite's own hard heap limit needs its allocation statistics, which take
 * a process-wide mutex at every malloc and free (main turns them off: 5%
 * of a backtest's CPU, measured). Instead, for the commands whose memory
 * is limited, SQLite's allocator is its default one wrapped
 * (SQLITE_CONFIG_MALLOC) by one that keeps the bytes held in an atomic
 * count (the block sizes the default allocator records) and, while a limit
 * is set, refuses (NULL) an allocation or growth that would pass it: SQLite
 * and the statistics functions, whose buffers are SQLite's, then fail with
 * SQLITE_NOMEM, and heap_limit_refused tells that failure from the
 * system's. */
#include "store/heap_limit.h"
#include "store/store.h"

#include <stdatomic.h>

static sqlite3_mem_methods real;
static _Atomic sqlite3_int64 held, limit;
static atomic_int refused;

/* Whether more bytes may be held; a refusal is remembered. */
static int fits(sqlite3_int64 more)
{
    sqlite3_int64 max = atomic_load_explicit(&limit, memory_order_relaxed);
    if (max > 0 && atomic_load_explicit(&held, memory_order_relaxed) + more > max) {
        atomic_store(&refused, 1);
        return 0;
    }
    return 1;
}

static void count(sqlite3_int64 n)
{
    atomic_fetch_add_explicit(&held, n, memory_order_relaxed);
}

static void *h_malloc(int n)
{
    if (!fits(real.xRoundup(n)))
        return NULL;
    void *p = real.xMalloc(n);
    if (p)
        count(real.xSize(p));
    return p;
}

static void h_free(void *p)
{
    count(-(sqlite3_int64)real.xSize(p));
    real.xFree(p);
}

static void *h_realloc(void *p, int n)
{
    sqlite3_int64 old = real.xSize(p), want = real.xRoundup(n);
    if (want > old && !fits(want - old))
        return NULL;
    void *q = real.xRealloc(p, n);
    if (q)
        count(real.xSize(q) - old);
    return q;
}

static int h_size(void *p)
{
    return real.xSize(p);
}

static int h_roundup(int n)
{
    return real.xRoundup(n);
}

static int h_init(void *app)
{
    (void)app;
    return real.xInit(real.pAppData);
}

static void h_shutdown(void *app)
{
    (void)app;
    real.xShutdown(real.pAppData);
}

int store_heap_counting(void)
{
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &real) != SQLITE_OK || !real.xMalloc)
        return -1;
    static const sqlite3_mem_methods counting = {
        .xMalloc = h_malloc,
        .xFree = h_free,
        .xRealloc = h_realloc,
        .xSize = h_size,
        .xRoundup = h_roundup,
        .xInit = h_init,
        .xShutdown = h_shutdown,
    };
    return sqlite3_config(SQLITE_CONFIG_MALLOC, &counting) == SQLITE_OK ? 0 : -1;
}

void heap_limit_set(sqlite3_int64 max_bytes)
{
    atomic_store(&limit, max_bytes > 0 ? max_bytes : 0);
    atomic_store(&refused, 0);
}

sqlite3_int64 heap_limit_used(void)
{
    return atomic_load(&held);
}

int heap_limit_refused(void)
{
    return atomic_load(&refused);
}
