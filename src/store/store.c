/* Opening the store: one SQLite file in WAL mode with benchdb's settings
 * and functions, checked against the schema this binary knows. */
#include "store/store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sqlfn/benchstats.h"
#include "util/diag.h"

static int exec(sqlite3 *db, const char *sql, const char *path, char **err)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        int code = sqlite3_errcode(db);
        if (code == SQLITE_NOTADB)
            bd_fail(err, "%s: not a benchdb store (the file is not an SQLite database)", path);
        else
            bd_fail(err, "%s: %s", path, msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

int store_open(const char *path, enum store_mode mode, sqlite3 **out, char **err)
{
    *out = NULL;
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (!exists && mode != STORE_CREATE)
        return bd_fail(err, "%s: no store here (run 'benchdb init' to create one, or pass --db FILE)", path);
    if (exists && S_ISDIR(st.st_mode))
        return bd_fail(err, "%s: is a directory, not a store file", path);

    int readonly = mode == STORE_READ || mode == STORE_INSPECT;
    /* NOMUTEX: a connection is only ever used by the thread that opened it
     * (ingest's producer thread never touches SQLite), so SQLite's
     * per-call connection mutex is pure cost on every bind and step. */
    int flags = SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX |
                (readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) |
                (mode == STORE_CREATE ? SQLITE_OPEN_CREATE : 0);
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, flags, NULL);
    if (rc != SQLITE_OK) {
        bd_fail(err, "%s: cannot open store: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db, STORE_BUSY_TIMEOUT_MS);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (benchstats_register(db) != SQLITE_OK) {
        bd_fail(err, "%s: cannot register SQL functions: %s", path, sqlite3_errmsg(db));
        sqlite3_close(db);
        return -1;
    }
    if (exec(db, "PRAGMA foreign_keys = ON", path, err))
        goto fail;

    int version = store_schema_version(db, err);
    if (version < 0) {
        /* Prefix the path for a caller that prints the message alone. */
        char *m = bd_strdupf("%s: %s", path, *err);
        free(*err);
        *err = m;
        goto fail;
    }
    int known = migrations_count();
    if (version > known) {
        bd_fail(err, "%s: the store's schema is at version %d, newer than this benchdb knows "
                     "(up to %d): use a newer benchdb; the store was left untouched",
                path, version, known);
        goto fail;
    }
    if (readonly) {
        if (mode == STORE_READ && version < known) {
            bd_fail(err, "%s: the store's schema is at version %d and needs migrations up to %d: "
                         "run 'benchdb migrate'",
                    path, version, known);
            goto fail;
        }
        if (exec(db, "PRAGMA query_only = ON", path, err))
            goto fail;
        if (mode == STORE_READ)
            store_guard_readonly(db, 1);
    } else {
        if (exec(db, "PRAGMA journal_mode = WAL", path, err))
            goto fail;
        if (mode != STORE_MIGRATE && version < known && store_migrate(db, -1, err) < 0) {
            char *m = bd_strdupf("%s: %s", path, *err);
            free(*err);
            *err = m;
            goto fail;
        }
    }
    *out = db;
    return 0;
fail:
    sqlite3_close(db);
    return -1;
}

void store_close(sqlite3 *db)
{
    if (db)
        sqlite3_close(db);
}
