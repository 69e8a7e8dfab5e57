/* 'benchdb check': the engine's own checks of the store's file or
 * server (store.h, store_check_integrity). */
#include <stdio.h>
#include <string.h>

#include "store/db_internal.h"
#include "store/store.h"
#include "util/diag.h"

/* One of SQLite's checking pragmas: every row it gives is a problem but a
 * lone "ok". */
static int pragma_rows(struct db *db, FILE *out, const char *pragma, const char *what, int *problems)
{
    struct db_stmt *st;
    if (db_prepare(db, pragma, &st) != SQLITE_OK) {
        bd_error("check: %s: %s", what, db_errmsg(db));
        return -1;
    }
    int rows = 0, rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        if (db_column_count(st) == 1 && strcmp((const char *)db_column_text(st, 0), "ok") == 0)
            continue;
        rows++;
        if (db_column_count(st) == 1) {
            bd_error("check: %s: %s", what, db_column_text(st, 0));
        } else { /* foreign_key_check: table, rowid, parent, fkid */
            bd_error("check: %s: %s row %lld refers to a missing row of %s", what, db_column_text(st, 0),
                     db_column_int64(st, 1), db_column_text(st, 2));
        }
    }
    db_finalize(st);
    if (rc != SQLITE_DONE) {
        bd_error("check: %s: %s", what, db_errmsg(db));
        return -1;
    }
    *problems += rows;
    fprintf(out, "check: %s: %s\n", what, rows ? "PROBLEMS" : "ok");
    return 0;
}

int store_check_integrity(struct db *db, FILE *out, int *problems)
{
    if (db->engine == DB_POSTGRESQL)
        return store_check_pg_server(db, out, problems);
    return pragma_rows(db, out, "PRAGMA integrity_check", "integrity_check", problems) ||
                   pragma_rows(db, out, "PRAGMA foreign_key_check", "foreign_key_check", problems)
               ? -1
               : 0;
}
