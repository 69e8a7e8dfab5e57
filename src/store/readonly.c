/* Read-only work and time limits on either engine (store/store.h): what
 * a reader asks for, whichever engine holds the store. */
#include "store/db_internal.h"
#include "store/store.h"

int store_begin_readonly(struct db *db, unsigned flags, const struct store_guard_reads *reads)
{
    if (db->engine == DB_POSTGRESQL)
        return db_pg_begin_readonly(db, flags);
    if (reads)
        store_guard_readonly_reporting(db->lite, reads);
    else
        store_guard_readonly(db->lite, 1);
    return SQLITE_OK;
}

int store_end_readonly(struct db *db)
{
    if (db->engine == DB_POSTGRESQL)
        return db_pg_end_readonly(db);
    /* A read-only open keeps its guard (store_open installed it). */
    store_guard_readonly(db->lite, sqlite3_db_readonly(db->lite, "main") == 1);
    return SQLITE_OK;
}

int store_deadline_start(struct db *db, struct store_deadline *d, double seconds)
{
    if (db->engine == DB_SQLITE) {
        store_set_timeout(db->lite, d, seconds);
        return SQLITE_OK;
    }
    *d = (struct store_deadline){.seconds = seconds};
    if (seconds > STORE_TIMEOUT_MAX)
        seconds = STORE_TIMEOUT_MAX;
    return db_pg_timeout(db, (long long)(seconds * 1000 + 0.5));
}

void store_deadline_clear(struct db *db)
{
    if (db->engine == DB_SQLITE)
        store_clear_timeout(db->lite);
    else
        db_pg_timeout(db, 0);
}

int store_deadline_passed(struct db *db, const struct store_deadline *d)
{
    return d->fired || (db && db->engine == DB_POSTGRESQL && db->errcode == SQLITE_INTERRUPT);
}
