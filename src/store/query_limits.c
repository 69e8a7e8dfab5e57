/* Limits on the disk and memory a person's query spends on SQLite
 * (store.h, "limits on a query's disk and memory"; docs/reliability.md,
 * promise 9): temp_limit.c counts the temporary files, heap_limit.c the
 * memory. The time limit is the progress handler's (guard.c). */
#include "store/db.h"
#include "store/heap_limit.h"
#include "store/store.h"
#include "store/temp_limit.h"

void store_query_limits(long long temp_bytes, long long heap_bytes)
{
    temp_limit_set(temp_bytes);
    heap_limit_set(heap_bytes);
}

int store_query_limits_apply(const struct db *db)
{
    return db_engine(db) == DB_SQLITE;
}

int store_query_limit_passed(void)
{
    return temp_limit_refused() ? STORE_OVER_TEMP : heap_limit_refused() ? STORE_OVER_MEMORY : 0;
}
