/* A SQLite store copied while in use: SQLite's online backup
 * (store/copy.h, docs/copy.md). */
#define _GNU_SOURCE /* renameat2 */
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

/* The temporary beside path, PATH.partial-XXXXXX, made by mkstemp (a new
 * name, O_CREAT | O_EXCL: a link planted at a name it could get is never
 * followed) with the mode SQLite gives a new database (0644 less the
 * umask). Returns its path, or NULL with errno. */
static char *make_temporary(const char *path)
{
    char *tmp = bd_strdupf("%s.partial-XXXXXX", path);
    if (!tmp)
        return errno = ENOMEM, NULL;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int saved = errno;
        free(tmp);
        return errno = saved, NULL;
    }
    mode_t um = umask(0); /* read, and put back at once: the process is single-threaded here */
    umask(um);
    if (fchmod(fd, 0644 & ~um) != 0 || close(fd) != 0) {
        int saved = errno;
        unlink(tmp);
        free(tmp);
        return errno = saved, NULL;
    }
    return tmp;
}

/* tmp renamed to path only while path does not exist (renameat2's
 * RENAME_NOREPLACE), so that a file made there during the backup is not
 * replaced; a file system without it gets a plain rename. */
static int place(const char *tmp, const char *path, char **err)
{
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        return 0;
    struct stat st;
    if (errno == EEXIST || ((errno == EINVAL || errno == ENOSYS) && lstat(path, &st) == 0))
        return bd_fail(err, "%s: already exists (backup writes a new file; it was made while the backup ran)", path);
    if ((errno == EINVAL || errno == ENOSYS) && rename(tmp, path) == 0)
        return 0;
    return bd_fail(err, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
}

/* SQLite's online backup in one step: the source is read in one read
 * transaction (one snapshot: every archive whole or absent), which in WAL
 * mode blocks no writer; the pages go to a temporary file beside path
 * (make_temporary; opened by SQLite without following a link), renamed to
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
    char *tmp = make_temporary(path);
    if (!tmp)
        return errno == ENOMEM ? bd_fail(err, "out of memory")
                               : bd_fail(err, "%s: cannot create the copy (%s.partial-XXXXXX, renamed to it once "
                                              "whole): %s", path, path, strerror(errno));
    sqlite3 *out = NULL;
    int rc = sqlite3_open_v2(tmp, &out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL);
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
    if (bad)
        bd_fail(err, "%s: %s", path, out ? sqlite3_errmsg(out) : sqlite3_errstr(rc));
    if (sqlite3_close(out) != SQLITE_OK && !bad)
        bad = bd_fail(err, "%s: cannot close the copy", path);
    if (!bad)
        bad = place(tmp, path, err);
    if (bad)
        unlink(tmp);
    free(tmp);
    return bad ? -1 : 0;
}
