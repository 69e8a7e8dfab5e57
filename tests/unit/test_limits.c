/* Limits on analysis and on untrusted files (docs/reliability.md):
 * the defaults of --timeout, --max-rows and --max-result-bytes, their
 * parsers, a deadline that cannot overflow, a result held within its
 * limits to the row and the byte, and reading a text file only when it is
 * a regular file within its size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "output/output.h"
#include "store/store.h"
#include "util/text.h"

static void test_defaults(void **state)
{
    (void)state;
    double t;
    struct rowset_limits l;
    unsetenv("BENCHDB_TIMEOUT");
    struct cli_limits none = {0};
    assert_int_equal(cli_limits_resolve("t", &none, &t, &l), EXIT_OK);
    assert_true(t == 60.0);
    assert_int_equal(l.max_rows, 1000000);
    assert_int_equal(l.max_bytes, 256u << 20);
    struct cli_limits given = {.timeout = 2.5, .max_rows = 7, .max_result_bytes = 4096};
    assert_int_equal(cli_limits_resolve("t", &given, &t, &l), EXIT_OK);
    assert_true(t == 2.5);
    assert_int_equal(l.max_rows, 7);
    assert_int_equal(l.max_bytes, 4096);
    setenv("BENCHDB_TIMEOUT", "0.25", 1);
    assert_int_equal(cli_limits_resolve("t", &none, &t, &l), EXIT_OK);
    assert_true(t == 0.25);
    assert_int_equal(cli_limits_resolve("t", &given, &t, &l), EXIT_OK);
    assert_true(t == 2.5); /* --timeout wins */
    setenv("BENCHDB_TIMEOUT", "1e19", 1);
    assert_int_equal(cli_limits_resolve("t", &none, &t, &l), EXIT_USAGE);
    unsetenv("BENCHDB_TIMEOUT");
}

static void test_parsers(void **state)
{
    (void)state;
    struct cli_opt o = {0};
    char *err = NULL;
    double s = 0;
    static const char *const bad_seconds[] = {"1e19", "604800.5", "inf", "nan", "0", "-0", "-1", "", "1s"};
    for (size_t i = 0; i < sizeof bad_seconds / sizeof *bad_seconds; i++)
        assert_int_equal(cli_opt_seconds(&o, bad_seconds[i], &s, &err), -1);
    assert_string_equal(err, "expected a number of seconds > 0, at most 604800 (a week)");
    assert_int_equal(cli_opt_seconds(&o, "604800", &s, &err), 0);
    assert_true(s == 604800.0);
    assert_int_equal(cli_opt_seconds(&o, "1e-9", &s, &err), 0);
    assert_true(s == 1e-9);
    size_t b = 0;
    static const struct {
        const char *arg;
        size_t v;
    } good[] = {{"1", 1}, {"1000", 1000}, {"1k", 1024}, {"256M", (size_t)256 << 20}, {"3G", (size_t)3 << 30},
                {"2T", (size_t)2 << 40}};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        assert_int_equal(cli_opt_bytes(&o, good[i].arg, &b, &err), 0);
        assert_int_equal(b, good[i].v);
    }
    static const char *const bad_bytes[] = {"0", "0M", "-1", "+1", "1Q", "1MB", "M", "", "16777216T",
                                            "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad_bytes / sizeof *bad_bytes; i++)
        assert_int_equal(cli_opt_bytes(&o, bad_bytes[i], &b, &err), -1);
    free(err);
}

static const char count_to[] =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT count(*) FROM c";

/* A deadline of a week, or of 1e19 s (taken as a week), does not fire
 * during a query of many progress checks; one of 1 ms does. */
static void test_deadline(void **state)
{
    (void)state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    static const double seconds[] = {604800, 1e19, 1e300};
    for (size_t i = 0; i < sizeof seconds / sizeof *seconds; i++) {
        struct store_deadline d;
        store_set_timeout(db, &d, seconds[i]);
        assert_int_equal(sqlite3_exec(db, count_to, NULL, NULL, NULL), SQLITE_OK);
        assert_int_equal(d.fired, 0);
        assert_true(d.seconds == 604800);
    }
    struct store_deadline d;
    store_set_timeout(db, &d, 1e-3);
    usleep(2000);
    assert_int_equal(sqlite3_exec(db, count_to, NULL, NULL, NULL), SQLITE_INTERRUPT);
    assert_int_equal(d.fired, 1);
    store_clear_timeout(db);
    assert_int_equal(sqlite3_exec(db, count_to, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* Collects "SELECT x, zeroblob(100) ... LIMIT n" within lim; returns the
 * code and the rows held. */
static int collect(sqlite3 *db, int n, const struct rowset_limits *lim, size_t *nrow, size_t *bytes)
{
    char sql[200];
    snprintf(sql, sizeof sql,
             "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, zeroblob(100) FROM c LIMIT %d",
             n);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    struct rowset rs = {0};
    int rc = rowset_collect_limited(&rs, st, lim);
    *nrow = rs.nrow;
    *bytes = rs.bytes;
    rowset_free(&rs);
    sqlite3_finalize(st);
    return rc;
}

static void test_rowset_limits(void **state)
{
    (void)state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    size_t nrow, bytes;
    /* Rows: up to the limit is fine, one more stops it. */
    struct rowset_limits rows = {.max_rows = 3};
    assert_int_equal(collect(db, 3, &rows, &nrow, &bytes), SQLITE_DONE);
    assert_int_equal(nrow, 3);
    assert_int_equal(collect(db, 4, &rows, &nrow, &bytes), ROWSET_OVER_ROWS);
    assert_int_equal(nrow, 3);
    /* Bytes: a row of an integer and a 100-byte blob costs 2 * 80 + 100. */
    assert_int_equal(collect(db, 1, NULL, &nrow, &bytes), SQLITE_DONE);
    assert_int_equal(bytes, 2 * ROWSET_VALUE_BYTES + 100);
    struct rowset_limits size = {.max_bytes = 2 * (2 * ROWSET_VALUE_BYTES + 100)};
    assert_int_equal(collect(db, 2, &size, &nrow, &bytes), SQLITE_DONE);
    assert_int_equal(collect(db, 3, &size, &nrow, &bytes), ROWSET_OVER_BYTES);
    assert_int_equal(nrow, 3); /* the row that passed is held, no more */
    char *m = rowset_over_text(ROWSET_OVER_BYTES, &(struct rowset_limits){.max_bytes = (size_t)256 << 20});
    assert_string_equal(m, "the result took more than 256 MiB of memory");
    free(m);
    m = rowset_over_text(ROWSET_OVER_ROWS, &(struct rowset_limits){.max_rows = 1000000});
    assert_string_equal(m, "the result passed 1000000 rows");
    free(m);
    sqlite3_close(db);
}

static void test_read_text(void **state)
{
    (void)state;
    char dir[] = "/tmp/benchdb-limits.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64], fifo[64];
    snprintf(path, sizeof path, "%s/f.sql", dir);
    snprintf(fifo, sizeof fifo, "%s/p.sql", dir);
    FILE *f = fopen(path, "wb");
    fputs("SELECT 1;\n", f); /* 10 bytes */
    fclose(f);
    char *err = NULL;
    size_t len = 0;
    char *t = file_read_text(path, 10, "a test file", &len, &err);
    assert_non_null(t);
    assert_int_equal(len, 10);
    assert_string_equal(t, "SELECT 1;\n");
    free(t);
    assert_null(file_read_text(path, 9, "a test file", &len, &err));
    assert_non_null(strstr(err, "f.sql: is larger than 9 bytes, the most a test file may hold"));
    assert_null(file_read_text("/dev/zero", 1 << 20, "a test file", &len, &err));
    assert_string_equal(err, "/dev/zero: is a character device, not a regular file");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_null(file_read_text(fifo, 1 << 20, "a test file", &len, &err)); /* returns: does not wait for a writer */
    assert_non_null(strstr(err, "p.sql: is a FIFO (named pipe), not a regular file"));
    assert_null(file_read_text(dir, 1 << 20, "a test file", &len, &err));
    assert_non_null(strstr(err, ": is a directory, not a regular file"));
    f = fopen(path, "wb");
    fwrite("ab\0cd", 1, 5, f);
    fclose(f);
    assert_null(file_read_text(path, 1 << 20, "a test file", &len, &err));
    assert_non_null(strstr(err, "f.sql: holds a NUL byte (at byte 3): not a text file"));
    f = fopen(path, "wb");
    fclose(f);
    t = file_read_text(path, 10, "a test file", &len, &err); /* empty: an empty string */
    assert_non_null(t);
    assert_int_equal(len, 0);
    assert_string_equal(t, "");
    free(t);
    free(err);
    unlink(path);
    unlink(fifo);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),      cmocka_unit_test(test_parsers),   cmocka_unit_test(test_deadline),
        cmocka_unit_test(test_rowset_limits), cmocka_unit_test(test_read_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
