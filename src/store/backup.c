/* A SQLite store copied while in use: SQLite's online backup
 * (store/copy.h, docs/copy.md). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/copy.h"
#include "store/db_internal.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/test_hold.h"

/* SQLite's online backup in one step: the source is read in one read
 * transaction (one snapshot: every archive whole or absent), which in WAL
 * mode blocks no writer; the pages go to a temporary file beside path
 * (store_partial_new; opened by SQLite without following a link), renamed to
 * path once whole, so that path never holds half a store. */
int store_backup(struct db *db, const char *path, char **err)
{
    if (db->engine != DB_SQLITE)
        return bd_fail(err, "backup copies a store in a SQLite file; a store on PostgreSQL is backed up with the "
                            "server's own tools (pg_basebackup, pg_dump), or copied into a SQLite file with "
                            "'benchdb copy FILE'");
    struct stat st;
    if (lstat(path, &st) == 0)
        return bd_fail(err, "%s: already exists (backup writes a new file)", path);
    char *tmp = store_partial_new(path);
    if (!tmp)
        return errno == ENOMEM ? bd_fail(err, "out of memory")
                               : bd_fail(err, "%s: cannot create the copy (%s.partial-XXXXXX, renamed to it once "
                                              "whole): %s", path, path, strerror(errno));
    sqlite3 *out = NULL;
    int rc = sqlite3_open_v2(tmp, &out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL);
    sqlite3_backup *b = rc == SQLITE_OK ? sqlite3_backup_init(out, "main", db->lite, "main") : NULL;
    if (b) {
        test_hold("BENCHDB_TEST_BACKUP_HOLD"); /* tests only */
        sqlite3_busy_timeout(out, STORE_BUSY_TIMEOUT_MS);
        do
            rc = sqlite3_backup_step(b, -1);
        while (rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
        sqlite3_backup_finish(b);
        rc = rc == SQLITE_DONE ? sqlite3_errcode(out) : rc;
    } else if (rc == SQLITE_OK)
        rc = sqlite3_errcode(out);
    int bad = rc != SQLITE_OK;
    if (bad)
        bd_fail(err, "%s: %s", path, out ? sqlite3_errmsg(out) : sqlite3_errstr(rc));
    if (sqlite3_close(out) != SQLITE_OK && !bad)
        bad = bd_fail(err, "%s: cannot close the copy", path);
    if (bad)
        store_partial_discard(tmp);
    else
        bad = store_partial_place(tmp, path, err);
    return bad ? -1 : 0;
}
