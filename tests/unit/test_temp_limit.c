/* The limit on SQLite's temporary files (src/store/temp_limit.c): through
 * benchdb's VFS a sorter's files, a temporary table's file and a
 * statement journal's file past SUBJOURNAL_MEM_MAX are counted while they
 * are open; a write that would pass the limit fails with SQLITE_FULL and
 * is remembered (temp_limit_refused); the same work within a larger limit,
 * or with none, runs; closing the files gives their bytes back. */
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
#include "store/temp_limit.h"

#define MIB (1LL << 20)

static void exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        fail_msg("%s: %s", sql, msg ? msg : "?");
}

/* The first column of sql's one row; *rc its step's result. */
static long long one(sqlite3 *db, const char *sql, int *rc)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    *rc = sqlite3_step(st);
    long long v = *rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

static char path[64];

static sqlite3 *open_db(void)
{
    sqlite3 *db;
    const char *vfs = store_vfs();
    assert_non_null(vfs);
    unlink(path);
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs), SQLITE_OK);
    /* Small caches: the sorter and the temporary table go to their files
     * after 512 KiB. */
    exec(db, "PRAGMA cache_size = -512; PRAGMA temp.cache_size = -512");
    return db;
}

static int setup(void **state)
{
    (void)state;
    strcpy(path, "/tmp/benchdb-temp-limit-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    temp_limit_set(0);
    char side[80];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-journal", path);
    unlink(side);
    return 0;
}

/* 2,000 rows of 10,000 random bytes sorted: about 20 MB of sorter files. */
#define SORT "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) " \
             "SELECT sum(length(b)) FROM (SELECT randomblob(10000) AS b FROM c ORDER BY b)"

static void test_sorter(void **state)
{
    (void)state;
    sqlite3 *db = open_db();
    int rc;
    temp_limit_set(5 * MIB);
    assert_int_equal(-1, one(db, SORT, &rc));
    assert_int_equal(SQLITE_FULL, rc & 0xff);
    assert_true(temp_limit_refused());
    assert_int_equal(0, temp_limit_used()); /* the sorter's files closed */

    temp_limit_set(64 * MIB); /* forgets the refusal */
    assert_false(temp_limit_refused());
    assert_int_equal(20000000, one(db, SORT, &rc));
    assert_int_equal(SQLITE_ROW, rc);
    assert_false(temp_limit_refused());
    assert_int_equal(0, temp_limit_used());

    temp_limit_set(0); /* no limit */
    assert_int_equal(20000000, one(db, SORT, &rc));
    assert_int_equal(SQLITE_ROW, rc);
    sqlite3_close(db);
}

#define TEMP_TABLE "CREATE TEMP TABLE x AS WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c " \
                   "WHERE i < 1000) SELECT randomblob(10000) AS b FROM c"

static void test_temp_table(void **state)
{
    (void)state;
    sqlite3 *db = open_db();
    temp_limit_set(2 * MIB);
    assert_int_equal(SQLITE_FULL, sqlite3_exec(db, TEMP_TABLE, NULL, NULL, NULL) & 0xff);
    assert_true(temp_limit_refused());

    /* Without a limit it is made, its file counted while open. */
    temp_limit_set(0);
    exec(db, TEMP_TABLE);
    assert_true(temp_limit_used() > 9 * MIB);
    assert_false(temp_limit_refused());
    sqlite3_close(db);
    assert_int_equal(0, temp_limit_used());
}

/* A statement journal past SUBJOURNAL_MEM_MAX (6,000 rows' pages) with
 * less disk allowed than it needs: the statement fails as the disk full,
 * and the store is as before it. */
static void test_statement_journal(void **state)
{
    (void)state;
    sqlite3 *db = open_db();
    /* In WAL mode every page a statement changes is journaled (in a
     * rollback journal's mode only those the transaction had changed). */
    exec(db, "PRAGMA journal_mode = WAL");
    exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, n INTEGER CHECK (n >= 0), pad BLOB);"
             "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 6000) "
             "INSERT INTO t SELECT i, 0, zeroblob(1000) FROM c");
    exec(db, "PRAGMA cache_size = -65536"); /* only the journal writes */
    /* n may break the CHECK (it never does): the statement journals. */
    const char *update = "UPDATE t SET pad = randomblob(1000), n = CASE WHEN id > 6000 THEN -1 ELSE n END";
    temp_limit_set(1 * MIB);
    exec(db, "BEGIN IMMEDIATE; UPDATE t SET n = 1 WHERE id = 1");
    int rc = sqlite3_exec(db, update, NULL, NULL, NULL);
    assert_int_equal(SQLITE_FULL, rc & 0xff);
    assert_true(temp_limit_refused());
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    assert_int_equal(0, temp_limit_used());
    assert_int_equal(6000, one(db, "SELECT count(*) FROM t WHERE pad = zeroblob(1000) AND n = 0", &rc));
    assert_int_equal(SQLITE_ROW, rc);
    assert_int_equal(1, one(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'", &rc));

    /* Within a limit larger than the journal's file, it runs. */
    temp_limit_set(16 * MIB);
    exec(db, "BEGIN IMMEDIATE; UPDATE t SET n = 1 WHERE id = 1");
    exec(db, update);
    exec(db, "COMMIT");
    assert_false(temp_limit_refused());
    assert_int_equal(0, one(db, "SELECT count(*) FROM t WHERE pad = zeroblob(1000)", &rc));
    sqlite3_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sorter, setup, teardown),
        cmocka_unit_test_setup_teardown(test_temp_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_statement_journal, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
