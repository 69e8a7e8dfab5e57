/* The registration of string_agg, least and greatest: only where the
 * connection does not already have them (src/sqlfn/extension.c probes).
 * Their semantics: tests/sql/fn_portable.sql (against PostgreSQL 15) and
 * fn_portable_sqlite.sql. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "sqlfn/benchstats.h"

static void theirs(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx, "theirs", -1, SQLITE_STATIC);
}

/* The first column of the first row of sql, as text ("NULL" for NULL). */
static void expect(sqlite3 *db, const char *sql, const char *want)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    const char *got = (const char *)sqlite3_column_text(st, 0);
    assert_string_equal(got ? got : "NULL", want);
    sqlite3_finalize(st);
}

static void test_registered_when_missing(void **state)
{
    (void)state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(benchstats_register(db), SQLITE_OK);
    expect(db, "SELECT least(3, NULL, 1)", "1");
    expect(db, "SELECT greatest(3, NULL, 1)", "3");
    expect(db, "WITH v(x) AS (VALUES ('a'), (NULL), ('b')) SELECT string_agg(x, '+') FROM v", "a+b");
    /* A second registration (the extension loaded where benchdb already
     * registered) finds them and leaves them. */
    assert_int_equal(benchstats_register(db), SQLITE_OK);
    expect(db, "SELECT least(NULL, 2)", "2");
    sqlite3_close(db);
}

static void test_kept_when_present(void **state)
{
    (void)state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    /* The host's own least() and greatest(): ours must not replace them. */
    assert_int_equal(sqlite3_create_function(db, "least", -1, SQLITE_UTF8, NULL, theirs, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_create_function(db, "greatest", 2, SQLITE_UTF8, NULL, theirs, NULL, NULL), SQLITE_OK);
    assert_int_equal(benchstats_register(db), SQLITE_OK);
    expect(db, "SELECT least(3, 1)", "theirs");
    expect(db, "SELECT greatest(3, 1)", "theirs");
    /* greatest with three arguments: the probe (two) found the host's, so
     * benchdb added none; SQLite refuses the call. */
    sqlite3_stmt *st;
    assert_int_not_equal(sqlite3_prepare_v2(db, "SELECT greatest(1, 2, 3)", -1, &st, NULL), SQLITE_OK);
    sqlite3_finalize(st);
    /* string_agg: SQLite 3.44 and later have it built in; either way it
     * works as PostgreSQL's. */
    expect(db, "WITH v(x) AS (VALUES ('a'), ('b')) SELECT string_agg(x, ', ') FROM v", "a, b");
    sqlite3_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered_when_missing),
        cmocka_unit_test(test_kept_when_present),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
