/* A SQLite store copied while in use: SQLite's online backup
 * (store/copy.h, docs/copy.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/copy.h"
#include "store/db_internal.h"
#include "store/store.h"
#include "util/diag.h"

/* SQLite's online backup in one step: the source is read in one read
 * transaction (one snapshot: every archive whole or absent), which in WAL
 * mode blocks no writer; the pages go to a temporary file beside path,
 * renamed to path once whole, so that path never holds half a store. */
int store_backup(struct db *db, const char *path, char **err)
{
    if (db->engine != DB_SQLITE)
        return bd_fail(err, "backup copies a store in a SQLite file; a store on PostgreSQL is backed up with the "
                            "server's own tools (pg_basebackup, pg_dump), or copied into a SQLite file with "
                            "'benchdb copy FILE'");
    if (access(path, F_OK) == 0)
        return bd_fail(err, "%s: already exists (backup writes a new file)", path);
    char *tmp = bd_strdupf("%s.partial-%ld", path, (long)getpid());
    if (!tmp)
        return bd_fail(err, "out of memory");
    sqlite3 *out = NULL;
    int rc = sqlite3_open_v2(tmp, &out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE, NULL);
    sqlite3_backup *b = rc == SQLITE_OK ? sqlite3_backup_init(out, "main", db->lite, "main") : NULL;
    if (b) {
        sqlite3_busy_timeout(out, STORE_BUSY_TIMEOUT_MS);
        do
            rc = sqlite3_backup_step(b, -1);
        while (rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
        sqlite3_backup_finish(b);
        rc = rc == SQLITE_DONE ? sqlite3_errcode(out) : rc;
    } else if (rc == SQLITE_OK)
        rc = sqlite3_errcode(out);
    int bad = rc != SQLITE_OK;
    /* A file SQLite could not open is said with the system's reason (a
     * missing directory, a permission), not SQLite's "unable to open
     * database file" alone. */
    int sys = out && (rc & 0xff) == SQLITE_CANTOPEN ? sqlite3_system_errno(out) : 0;
    if (bad && sys)
        bd_fail(err, "%s: cannot create the copy (%s, renamed to it once whole): %s", path, tmp, strerror(sys));
    else if (bad)
        bd_fail(err, "%s: %s", path, out ? sqlite3_errmsg(out) : sqlite3_errstr(rc));
    if (sqlite3_close(out) != SQLITE_OK && !bad)
        bad = bd_fail(err, "%s: cannot close the copy", path);
    if (!bad && rename(tmp, path) != 0)
        bad = bd_fail(err, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
    if (bad)
        unlink(tmp);
    free(tmp);
    return bad ? -1 : 0;
}
