/* The statement journal in memory (src/store/subjournal.c): after one
 * statement of a transaction journals more than SQLite's 64 KiB, later
 * small statements still journal in memory (SQLite's own journal would
 * have moved to a file and written every page there: counted here as the
 * bytes the process writes, /proc/self/io's wchar), and a statement that
 * fails is undone from the journal, in memory and past
 * SUBJOURNAL_MEM_MAX on disk alike. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store/subjournal.h"

/* Bytes this process has written so far (write, pwrite...). */
static long long written(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    assert_non_null(f);
    char line[128];
    long long n = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "wchar: %lld", &n) == 1)
            break;
    fclose(f);
    assert_true(n >= 0);
    return n;
}

static void exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        fail_msg("%s: %s", sql, msg ? msg : "?");
}

static long long one(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Rows of 1,000 bytes: ROWS of them fill about 1,500 pages. */
#define ROWS 6000

static sqlite3 *open_db(const char *path, const char *vfs)
{
    sqlite3 *db;
    unlink(path);
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs), SQLITE_OK);
    /* The whole file fits the cache: nothing is written until the commit
     * but what the statement journal writes. */
    exec(db, "PRAGMA journal_mode = WAL; PRAGMA cache_size = -65536;"
             "CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT UNIQUE, n INTEGER CHECK (n >= 0), pad BLOB);"
             "CREATE TABLE log(id INTEGER);"
             "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.id); END;");
    exec(db, "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 6000) "
             "INSERT INTO t SELECT i, 'k' || i, 0, zeroblob(1000) FROM c");
    assert_int_equal(ROWS, one(db, "SELECT count(*) FROM t"));
    return db;
}

/* Every row's pad is changed, then the last row breaks the CHECK: the
 * statement is undone from a journal of about 6,000 rows' pages (some
 * 6 MiB, past SUBJOURNAL_MEM_MAX), and the pads are zeros again. Then 2,000
 * inserts, a statement each (their trigger makes each one journal its
 * pages), the last one refused (a duplicate k) and undone. Returns the
 * bytes written by the 2,000, and in *big those the first statement
 * wrote. */
static long long transaction(sqlite3 *db, long long *big)
{
    exec(db, "BEGIN IMMEDIATE");
    char *msg = NULL;
    long long at = written();
    int rc = sqlite3_exec(db, "UPDATE t SET pad = randomblob(1000), n = CASE WHEN id = 6000 THEN -1 ELSE n END",
                          NULL, NULL, &msg);
    assert_int_equal(rc, SQLITE_CONSTRAINT);
    sqlite3_free(msg);
    *big = written() - at;
    assert_int_equal(ROWS, one(db, "SELECT count(*) FROM t WHERE pad = zeroblob(1000) AND n = 0"));
    long long before = written();
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?1, ?2, 0, zeroblob(100))", -1, &st, NULL),
                     SQLITE_OK);
    for (int i = 0; i < 2000; i++) {
        char k[32];
        snprintf(k, sizeof k, "k%d", i == 1999 ? 1 : ROWS + 1 + i);
        sqlite3_bind_int(st, 1, ROWS + 1 + i);
        sqlite3_bind_text(st, 2, k, -1, SQLITE_TRANSIENT);
        assert_int_equal(sqlite3_step(st), i == 1999 ? SQLITE_CONSTRAINT : SQLITE_DONE);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    long long bytes = written() - before;
    exec(db, "COMMIT");
    assert_int_equal(ROWS + 1999, one(db, "SELECT count(*) FROM t"));
    assert_int_equal(ROWS + 1999, one(db, "SELECT count(*) FROM log")); /* the first ROWS too */
    assert_int_equal(ROWS, one(db, "SELECT count(*) FROM t WHERE pad = zeroblob(1000)"));
    assert_int_equal(1, one(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'"));
    return bytes;
}

static void test_small_statements_stay_in_memory(void **state)
{
    (void)state;
    char path[] = "/tmp/benchdb-subjournal-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    const char *vfs = store_vfs();
    assert_non_null(vfs);

    /* SQLite's own journal: past 64 KiB once, in a file for the rest of
     * the transaction, each of the 2,000 writing its pages there. */
    sqlite3 *db = open_db(path, NULL);
    long long plain_big, plain = transaction(db, &plain_big);
    sqlite3_close(db);
    assert_true(plain > 2000 * 4096);
    assert_true(plain_big > SUBJOURNAL_MEM_MAX + (1 << 20));

    /* benchdb's: the 2,000 write nothing. */
    db = open_db(path, vfs);
    long long ours_big, ours = transaction(db, &ours_big);
    sqlite3_close(db);
    assert_int_equal(0, ours);
    /* The first statement's journal past SUBJOURNAL_MEM_MAX went to a
     * file, and was read back to undo it (the pads above). */
    assert_true(ours_big > 0 && ours_big <= plain_big - SUBJOURNAL_MEM_MAX);
    char side[64];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_statements_stay_in_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
