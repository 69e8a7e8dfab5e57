/* Limits on the disk and memory a person's query spends on SQLite
 * (store.h, "Limits on a query's disk and memory"; docs/reliability.md,
 * promise 9). The time limit is the progress handler's (guard.c). */
#include "store/db_internal.h"
#include "store/store.h"
#include "store/temp_limit.h"

/* A statement failed for want of memory at the limit: SQLITE_NOMEM with
 * SQLite's peak since the limit was set at least half of it (a buffer
 * that doubles fails there: it needs its size again). A failure below
 * that is the system's ("out of memory": a ulimit, the machine's memory). */
static int over_memory;
static sqlite3_int64 heap_max;

void store_query_limits(long long temp_bytes, long long heap_bytes)
{
    temp_limit_set(temp_bytes);
    over_memory = 0;
    heap_max = heap_bytes > 0 ? heap_bytes : 0;
    /* 0 removes SQLite's hard limit; the soft one (none) is left alone. */
    sqlite3_hard_heap_limit64(heap_max);
    sqlite3_memory_highwater(1);
}

int store_query_limit_passed(struct db *db)
{
    if (temp_limit_refused())
        return STORE_OVER_TEMP;
    if (!over_memory && heap_max > 0 && db && db->engine == DB_SQLITE &&
        (sqlite3_errcode(db->lite) & 0xff) == SQLITE_NOMEM && sqlite3_memory_highwater(0) >= heap_max / 2)
        over_memory = 1;
    return over_memory ? STORE_OVER_MEMORY : 0;
}
