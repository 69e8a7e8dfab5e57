/* Opening the store: one regular SQLite file in WAL mode with benchdb's
 * settings and functions, checked against the schema this binary knows.
 * Reading works wherever the file can be read (open_read); writing is
 * refused up front, saying why, where the file cannot be written. */
#include "store/store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "sqlfn/benchstats.h"
#include "store/subjournal.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/text.h"

int store_busy_timeout_ms(char **err)
{
    const char *env = getenv("BENCHDB_BUSY_TIMEOUT");
    if (!env || !*env)
        return STORE_BUSY_TIMEOUT_MS;
    char *end;
    double s = strtod(env, &end);
    if (*end || !(s >= 0 && s <= STORE_TIMEOUT_MAX))
        return bd_fail(err, "$BENCHDB_BUSY_TIMEOUT '%s': expected a number of seconds from 0 to %g (a week)", env,
                       STORE_TIMEOUT_MAX);
    return (int)(s * 1000 + 0.5);
}

char *store_busy_text(void)
{
    int ms = store_busy_timeout_ms(NULL);
    return bd_strdupf("another process held the store's write lock for longer than the busy timeout (%g s%s)",
                      (ms < 0 ? STORE_BUSY_TIMEOUT_MS : ms) / 1000.0,
                      ms >= 0 && getenv("BENCHDB_BUSY_TIMEOUT") && *getenv("BENCHDB_BUSY_TIMEOUT")
                          ? ", from $BENCHDB_BUSY_TIMEOUT"
                          : "");
}

/* Opens one connection with benchdb's settings (nothing read yet). */
static int connect(const char *name, int flags, sqlite3 **out)
{
    /* NOMUTEX: a connection is only ever used by the thread that opened it
     * (ingest's producer thread never touches SQLite), so SQLite's
     * per-call connection mutex is pure cost on every bind and step. The
     * VFS keeps a statement journal in memory (store/subjournal.c). */
    int rc = sqlite3_open_v2(name, out, flags | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX, store_vfs());
    if (rc != SQLITE_OK)
        return rc;
    sqlite3 *db = *out;
    int busy_ms = store_busy_timeout_ms(NULL); /* store_open checked it */
    sqlite3_busy_timeout(db, busy_ms < 0 ? STORE_BUSY_TIMEOUT_MS : busy_ms);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    return SQLITE_OK;
}

/* The first read: the schema, which also rolls back a hot journal or
 * recovers a write-ahead log where the connection may write. Returns the
 * extended result code. */
static int probe(sqlite3 *db)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return sqlite3_extended_errcode(db);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? SQLITE_OK : sqlite3_extended_errcode(db);
}

static char *side_file(const char *path, const char *suffix) { return bd_strdupf("%s%s", path, suffix); }

/* The directory holding path ("." for a bare name). malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return bd_strdupf(".");
    if (slash == path)
        return bd_strdupf("/");
    return bd_strdupf("%.*s", (int)(slash - path), path);
}

/* Why SQLite cannot create or write files beside the store, or NULL when
 * no reason shows: a missing directory, a full disk, a read-only file
 * system, a directory or a file this user cannot write. */
const char *store_unwritable_because(const char *path)
{
    char *dir = dir_of(path);
    struct statvfs vfs;
    int known = statvfs(dir, &vfs) == 0;
    const char *why = NULL;
    struct stat sd;
    int there = stat(dir, &sd) == 0; /* none is not "not writable" */
    if (!there && errno == ENOENT)
        why = "its directory does not exist";
    else if ((!there && errno == ENOTDIR) || (there && !S_ISDIR(sd.st_mode)))
        why = "its directory's path holds a file that is not a directory";
    else if (known && (vfs.f_flag & ST_RDONLY))
        why = "the file system is mounted read-only";
    else if (known && vfs.f_bavail == 0)
        why = "the disk is full";
    else if (access(dir, W_OK) != 0)
        why = "its directory is not writable";
    else if (access(path, W_OK) != 0 && errno != ENOENT)
        why = "the file is read-only";
    free(dir);
    return why;
}

/* A file: URI naming path, percent-encoded, with the query appended. */
static char *uri_of(const char *path, const char *query)
{
    struct strbuf sb = {0};
    sb_puts(&sb, path[0] == '/' ? "file://" : "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
            sb_putc(&sb, (char)*p);
        else
            sb_printf(&sb, "%%%02X", *p);
    }
    sb_printf(&sb, "?%s", query);
    return sb_detach(&sb);
}

/* The first read met another process's lock for longer than the busy
 * timeout: a lock that keeps out readers too (a connection in exclusive
 * locking mode, a writer of a store in rollback-journal mode, a recovery
 * of the write-ahead log). Said once, naming the store and the wait,
 * instead of reading the schema into a second wait and SQLite's "database
 * is locked". */
static int busy_fail(const char *path, sqlite3 **out, char **err)
{
    int ms = store_busy_timeout_ms(NULL);
    bd_fail(err, "%s: the store is busy: another process holds a lock on it that keeps out readers and writers "
                 "(waited %g s for it; $BENCHDB_BUSY_TIMEOUT raises the wait)",
            path, (ms < 0 ? STORE_BUSY_TIMEOUT_MS : ms) / 1000.0);
    sqlite3_close(*out);
    *out = NULL;
    return -1;
}

/* The end of a refusal to write, for a user who meant to read. */
static const char still_reads[] =
    "commands that only read still work ('sql' without --write, 'query --no-record', 'history', 'check')";

static int is_recovery(int rc) { return rc == SQLITE_READONLY_ROLLBACK || rc == SQLITE_READONLY_RECOVERY; }

/* Errors of a read-only connection that come from where the store lies, not
 * from the store: SQLite could not create or size the -shm file (or, for a
 * store in WAL mode, the -wal) that reading in WAL mode needs. */
static int is_location(int rc)
{
    int primary = rc & 0xff;
    return rc == SQLITE_READONLY_CANTINIT || rc == SQLITE_READONLY_DIRECTORY || rc == SQLITE_READONLY ||
           rc == SQLITE_IOERR_SHMOPEN || rc == SQLITE_IOERR_SHMSIZE || rc == SQLITE_IOERR_SHMMAP ||
           rc == SQLITE_READONLY_CANTLOCK || primary == SQLITE_CANTOPEN || primary == SQLITE_FULL;
}

/* A read-only command found a hot journal or a write-ahead log to recover
 * (left by a process killed while writing): a brief read-write open does
 * what any writer would do first. */
static int recover(const char *path, int found, char **err)
{
    sqlite3 *db = NULL;
    int rc = connect(path, SQLITE_OPEN_READWRITE, &db);
    if (rc == SQLITE_OK && sqlite3_db_readonly(db, "main") == 1)
        rc = SQLITE_READONLY;
    if (rc == SQLITE_OK)
        rc = probe(db);
    if (rc != SQLITE_OK) {
        const char *why = store_unwritable_because(path);
        int journal = found == SQLITE_READONLY_ROLLBACK;
        bd_fail(err, "%s: a process stopped while writing left %s (%s%s), which must be %s before the store can be "
                     "read, and that cannot be done here (%s): make the file and its directory writable, then run "
                     "'benchdb check'",
                path, journal ? "an unfinished transaction" : "a write-ahead log to recover", path,
                journal ? "-journal" : "-wal", journal ? "rolled back" : "recovered",
                why ? why : db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    }
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : -1;
}

/* The file read as immutable: no locks and no -shm, for a location where
 * SQLite cannot create one. Only when no -wal holds changes, which an
 * immutable read would silently miss. */
static int open_immutable(const char *path, const char *why, sqlite3 **out, char **err)
{
    char *wal = side_file(path, "-wal");
    struct stat st;
    int pending = stat(wal, &st) == 0 && st.st_size > 0;
    free(wal);
    if (pending)
        return bd_fail(err, "%s: cannot read the store here: its write-ahead log (%s-wal) holds changes that SQLite "
                            "reads through a %s-shm file, which cannot be created (%s); copy the store with its "
                            "-wal file to a writable place and read it there",
                       path, path, path, why);
    char *uri = uri_of(path, "mode=ro&immutable=1");
    int rc = connect(uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, out);
    free(uri);
    if (rc == SQLITE_OK)
        rc = probe(*out);
    if (rc == SQLITE_OK)
        return 0;
    bd_fail(err, "%s: cannot read the store here (%s): %s", path, why,
            *out ? sqlite3_errmsg(*out) : sqlite3_errstr(rc));
    sqlite3_close(*out);
    *out = NULL;
    return -1;
}

/* Read-only modes: a plain read-only open; after a recovery, once again;
 * where the location forbids the -shm file, immutable. On a failure that
 * is the store's (not an SQLite database, damaged), *out stays open for
 * the caller's schema check to name it. */
static int open_read(const char *path, sqlite3 **out, char **err)
{
    for (int attempt = 0;; attempt++) {
        int rc = connect(path, SQLITE_OPEN_READONLY, out);
        if (rc != SQLITE_OK) {
            bd_fail(err, "%s: cannot open the store: %s", path, *out ? sqlite3_errmsg(*out) : sqlite3_errstr(rc));
            sqlite3_close(*out);
            *out = NULL;
            return -1;
        }
        rc = probe(*out);
        if ((rc & 0xff) == SQLITE_BUSY)
            return busy_fail(path, out, err);
        if (rc == SQLITE_OK || (!is_recovery(rc) && !is_location(rc)))
            return 0; /* any failure left is the store's: the schema check names it */
        sqlite3_close(*out);
        *out = NULL;
        if (is_recovery(rc)) {
            if (attempt == 0 && recover(path, rc, err) == 0)
                continue;
            if (attempt > 0)
                bd_fail(err, "%s: the store still needs recovery after a read-write open: %s", path,
                        sqlite3_errstr(rc));
            return -1;
        }
        const char *why = store_unwritable_because(path);
        return open_immutable(path, why ? why : sqlite3_errstr(rc), out, err);
    }
}

/* Write modes: the file opened read-write, refused when SQLite could only
 * open it read-only or cannot create its -wal and -shm files beside it. */
static int open_write(const char *path, enum store_mode mode, sqlite3 **out, char **err)
{
    int rc = connect(path, SQLITE_OPEN_READWRITE | (mode == STORE_CREATE ? SQLITE_OPEN_CREATE : 0), out);
    if (rc == SQLITE_OK && sqlite3_db_readonly(*out, "main") == 1)
        rc = SQLITE_READONLY;
    if (rc == SQLITE_OK)
        rc = probe(*out);
    if ((rc & 0xff) == SQLITE_BUSY)
        return busy_fail(path, out, err);
    if (rc == SQLITE_OK || (*out && !is_location(rc)))
        return 0; /* any failure left is the store's: the schema check names it */
    const char *why = store_unwritable_because(path);
    why = why ? why : *out ? sqlite3_errmsg(*out) : sqlite3_errstr(rc);
    if (mode == STORE_CREATE && stat(path, &(struct stat){0}) != 0)
        bd_fail(err, "%s: cannot create the store here: %s", path, why);
    else
        bd_fail(err, "%s: cannot write the store here: %s; %s", path, why, still_reads);
    sqlite3_close(*out);
    *out = NULL;
    return -1;
}

static int exec(sqlite3 *db, const char *sql, const char *path, char **err)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        int primary = sqlite3_errcode(db) & 0xff;
        const char *why = primary == SQLITE_CANTOPEN || primary == SQLITE_IOERR || primary == SQLITE_FULL ||
                                  primary == SQLITE_READONLY
                              ? store_unwritable_because(path)
                              : NULL;
        if (why)
            bd_fail(err, "%s: cannot write the store here: %s; %s", path, why, still_reads);
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
    if (store_busy_timeout_ms(err) < 0)
        return -1;
    /* A server's name mistyped is refused, its password masked, rather
     * than taken for a file's and printed whole in "no store here". */
    char *mistaken = store_name_mistaken(path);
    if (mistaken) {
        char *shown = store_name_masked(path);
        bd_fail(err, "%s: %s", shown ? shown : "(the store)", mistaken);
        free(shown);
        free(mistaken);
        return -1;
    }
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (!exists && mode != STORE_CREATE)
        return bd_fail(err, "%s: no store here (run 'benchdb init' to create one, or pass --db FILE)", path);
    /* A device or a FIFO is no store: SQLite would block on a FIFO and leave
     * /dev/null-journal beside /dev/null. */
    if (exists && !S_ISREG(st.st_mode))
        return bd_fail(err, "%s: is %s, not a store (a store is a regular file)", path, file_kind(st.st_mode));

    int readonly = mode == STORE_READ || mode == STORE_INSPECT || mode == STORE_CHECK;
    sqlite3 *db = NULL;
    if ((readonly ? open_read(path, &db, err) : open_write(path, mode, &db, err)) != 0)
        return -1;
    if (benchstats_register(db) != SQLITE_OK) {
        bd_fail(err, "%s: cannot register SQL functions: %s", path, sqlite3_errmsg(db));
        goto fail;
    }

    int version;
    char *why = NULL;
    switch (store_schema_state(db, &version, &why)) {
    case SCHEMA_STORE: break;
    case SCHEMA_EMPTY:
        if (mode == STORE_CREATE || mode == STORE_INSPECT)
            break;
        bd_fail(err, "%s: no store here: the file is empty (run 'benchdb init' to create a store in it)", path);
        goto fail_why;
    case SCHEMA_DAMAGED:
        if (mode == STORE_CHECK) {
            version = migrations_count(); /* the checks say what is wrong */
            break;
        }
        bd_fail(err, "%s: %s: %s", path, why, STORE_DAMAGED_ADVICE);
        goto fail_why;
    case SCHEMA_FOREIGN:
    case SCHEMA_UNREADABLE:
        bd_fail(err, "%s: %s", path, why);
        goto fail_why;
    }
    free(why);
    if (exec(db, "PRAGMA foreign_keys = ON", path, err))
        goto fail;
    int known = migrations_count();
    if (version > known) {
        bd_fail(err, "%s: the store's schema is at version %d, newer than this benchdb knows "
                     "(up to %d): use a newer benchdb; the store was left untouched",
                path, version, known);
        goto fail;
    }
    if (readonly) {
        if (mode != STORE_INSPECT && version < known) {
            bd_fail(err, "%s: the store's schema is at version %d and needs migrations up to %d: "
                         "run 'benchdb migrate'",
                    path, version, known);
            goto fail;
        }
        if (exec(db, "PRAGMA query_only = ON", path, err))
            goto fail;
        if (mode != STORE_INSPECT)
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
        if (mode == STORE_WRITE && version > 0 && version < known) /* init and copy say what they made */
            store_note_migrated(path, version, known);
    }
    *out = db;
    return 0;
fail_why:
    free(why);
fail:
    sqlite3_close(db);
    return -1;
}

void store_close(sqlite3 *db)
{
    if (db)
        sqlite3_close(db);
}

int store_open_memory(struct db **out, char **err)
{
    *out = NULL;
    sqlite3 *db = NULL;
    if (connect(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, &db) != SQLITE_OK) {
        bd_fail(err, "cannot open an in-memory store: %s", db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return -1;
    }
    if (benchstats_register(db) != SQLITE_OK || exec(db, "PRAGMA foreign_keys = ON", ":memory:", err) ||
        store_migrate(db, -1, err) < 0 || !(*out = db_from_sqlite(db, 1))) {
        if (err && !*err)
            bd_fail(err, "cannot make an in-memory store: %s", sqlite3_errmsg(db));
        sqlite3_close(db);
        return -1;
    }
    return 0;
}
