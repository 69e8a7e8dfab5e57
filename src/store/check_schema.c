/* 'benchdb check': the schema version, read as store_open reads it, with
 * the damage that store_open lets through for check (STORE_CHECK) named as
 * a problem. On PostgreSQL the same rule (schema_migration holds exactly
 * the versions 1..N) read from the server's table. */
#include <stdio.h>
#include <stdlib.h>

#include "store/store.h"
#include "util/diag.h"

/* PostgreSQL: the versions recorded, as store_schema_state reads SQLite's
 * (versions beyond this binary's are refused when connecting). */
static enum store_schema pg_schema_state(struct db *db, int *version, char **why)
{
    struct db_stmt *st = NULL;
    int rc = db_prepare(db, "SELECT count(*), coalesce(min(version), 0), coalesce(max(version), 0) "
                            "FROM schema_migration", &st);
    if (rc == SQLITE_OK)
        rc = db_step(st);
    if (rc != SQLITE_ROW) {
        bd_fail(why, "cannot read the schema version: %s", db_errmsg(db));
        db_finalize(st);
        return SCHEMA_UNREADABLE;
    }
    long long n = db_column_int64(st, 0), lo = db_column_int64(st, 1), hi = db_column_int64(st, 2);
    db_finalize(st);
    *version = (int)hi;
    if (n == 0) {
        bd_fail(why, "the store is damaged (its schema_migration table, which records every migration applied, "
                     "is empty)");
        return SCHEMA_DAMAGED;
    }
    if (lo != 1 || n != hi) {
        bd_fail(why, "the store is damaged (its schema_migration table records %lld migrations from %lld to %lld, "
                     "where they are numbered 1, 2, 3...)",
                n, lo, hi);
        return SCHEMA_DAMAGED;
    }
    return SCHEMA_STORE;
}

int store_check_schema(struct db *db, FILE *out, int *problems)
{
    int version;
    char *why = NULL;
    enum store_schema s = db_sqlite(db) ? store_schema_state(db_sqlite(db), &version, &why)
                                        : pg_schema_state(db, &version, &why);
    if (s == SCHEMA_STORE) {
        fprintf(out, "check: schema: version %d (migrations 1 to %d recorded): ok\n", version, version);
        return 0;
    }
    bd_error("check: schema: %s", why ? why : "no benchdb schema (an empty file)");
    free(why);
    if (s != SCHEMA_DAMAGED)
        return -1;
    (*problems)++;
    fprintf(out, "check: schema: PROBLEMS\n");
    return 0;
}
