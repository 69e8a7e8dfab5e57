/* Helpers shared by the ingest fuzz targets; see fuzz_store.h. */
#include "fuzz_store.h"

#include <stdlib.h>
#include <string.h>

#include "sqlfn/benchstats.h"
#include "store/store.h"

int64_t fuzz_count(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    int64_t n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

static unsigned char *template_db;
static sqlite3_int64 template_size;

sqlite3 *fuzz_fresh_store(void)
{
    char *err = NULL;
    sqlite3 *db;
    if (!template_db) {
        if (store_open(":memory:", STORE_CREATE, &db, &err))
            abort();
        template_db = sqlite3_serialize(db, "main", &template_size, 0);
        store_close(db);
        if (!template_db)
            abort();
    }
    unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)template_size);
    if (!copy || sqlite3_open(":memory:", &db) != SQLITE_OK)
        abort();
    memcpy(copy, template_db, (size_t)template_size);
    if (sqlite3_deserialize(db, "main", copy, template_size, template_size,
                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK)
        abort();
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    /* The triggers keeping run_cell_data call benchdb's functions, as on
     * a store store_open opened. */
    if (benchstats_register(db) != SQLITE_OK || sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK)
        abort();
    return db;
}

