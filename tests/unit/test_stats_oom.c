/* Fault injection for the SQL statistics: every SQLite allocation fails in
 * turn, at the 1st, 2nd, ... Nth, until a query runs through. Each run must
 * end in the right result or SQLite's "out of memory", never a crash, a
 * wrong error or result, or (under ASan) a leak.
 *
 * jansson's allocations are left alone: when one fails inside its lexer,
 * jansson 2.14 truncates the token (a number then parses as another number)
 * or reports a syntax error, which no caller can tell from bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "sqlfn/benchstats.h"

static sqlite3_mem_methods real;
static long countdown = -1; /* allocations left before one fails; -1: never */
static int failed;

static int should_fail(void)
{
    if (countdown < 0)
        return 0;
    if (countdown-- == 0) {
        failed = 1;
        return 1;
    }
    return 0;
}

static void *faulty_malloc(int n) { return should_fail() ? NULL : real.xMalloc(n); }
static void *faulty_realloc(void *p, int n) { return should_fail() ? NULL : real.xRealloc(p, n); }

static const char *const queries[] = {
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 300) "
    "SELECT median(i) || percentile(i, 10) || trimmed_mean(i, 3) || spread(i) || mann_whitney(i, i % 2) "
    "|| pooled_t_ci(i, i % 3 = 0) || welch_t_ci(i, i % 3 = 0) || t_ci(i) || geomean(i) || variance(i) "
    "|| band_share(i, 10, 20) FROM c",
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 120) "
    "SELECT sum(m) || group_concat(w) FROM (SELECT median(i) OVER (ORDER BY i ROWS 5 PRECEDING) AS m, "
    "mann_whitney(i, i % 2) OVER (ORDER BY i ROWS 20 PRECEDING) AS w FROM c)",
    "SELECT ci_recip(ci_exp('{\"estimate\":0.01,\"lo\":-0.02,\"hi\":0.04,\"df\":8,\"name\":\"x\"}')) "
    "|| ci_excludes('{\"estimate\":1,\"lo\":0.5,\"hi\":2}', 3)",
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 200) "
    "SELECT change_points(i, (i > 120) + (i % 7) * 0.01, 30) || (SELECT group_concat(w) FROM "
    "(SELECT change_points(i, i > 50, 10, 0.01) OVER (ORDER BY i ROWS 30 PRECEDING) AS w FROM c)) FROM c",
    /* The rank aggregates and string_agg, least, greatest. */
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 40) "
    "SELECT median_ci(i) || hodges_lehmann(i, i % 3 = 0) || mann_whitney(i % 9, i % 2, 'exact') "
    "|| mann_whitney(i % 9, i < 12, 'benchstat') || string_agg(i, ',') || least(i, 7) || greatest('a', i) FROM c",
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 30) "
    "SELECT group_concat(h) || group_concat(m) || group_concat(s) FROM (SELECT "
    "hodges_lehmann(i, i % 2, 0.9) OVER (ORDER BY i ROWS 12 PRECEDING) AS h, "
    "median_ci(i) OVER (ORDER BY i ROWS 9 PRECEDING) AS m, "
    "string_agg(i, '-') OVER (ORDER BY i ROWS 5 PRECEDING) AS s FROM c)",
    /* Rows out of seq order in the frames, so that xValue sorts a copy. */
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 150) "
    "SELECT lookback_baseline(i * 7 % 150, i % 11 + (i = 40) * 30) || normal_quantile(0.9) || (SELECT group_concat(w) "
    "FROM (SELECT lookback_baseline(i * 7 % 150, i % 5) OVER (ORDER BY i ROWS 40 PRECEDING) AS w FROM c)) FROM c",
};

/* The query's text result with no fault, then under every fault. */
static void run_with_faults(const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(benchstats_register(db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    char *want = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    assert_non_null(want);

    for (long n = 0;; n++) {
        failed = 0;
        countdown = n;
        int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
        char *got = NULL;
        if (rc == SQLITE_OK) {
            rc = sqlite3_step(st);
            if (rc == SQLITE_ROW) {
                const char *t = (const char *)sqlite3_column_text(st, 0);
                got = t ? strdup(t) : NULL;
            }
            sqlite3_finalize(st);
        }
        countdown = -1;
        if (rc == SQLITE_ROW && got && strcmp(got, want) == 0) {
            free(got);
            if (!failed)
                break; /* ran through without reaching the fault: done */
            continue;  /* the fault hit something recoverable */
        }
        if (rc != SQLITE_NOMEM) {
            print_error("fault at allocation %ld: rc %d (%s), result %s\n", n, rc, sqlite3_errmsg(db),
                        got ? got : "NULL");
            free(got);
            free(want);
            sqlite3_close(db);
            fail();
        }
        free(got);
    }
    free(want);
    sqlite3_close(db);
}

static void test_aggregates(void **state) { (void)state; run_with_faults(queries[0]); }
static void test_windows(void **state) { (void)state; run_with_faults(queries[1]); }
static void test_scalars(void **state) { (void)state; run_with_faults(queries[2]); }
static void test_change_points(void **state) { (void)state; run_with_faults(queries[3]); }
static void test_rank(void **state) { (void)state; run_with_faults(queries[4]); }
static void test_rank_windows(void **state) { (void)state; run_with_faults(queries[5]); }
static void test_lookback(void **state) { (void)state; run_with_faults(queries[6]); }

int main(void)
{
    sqlite3_config(SQLITE_CONFIG_GETMALLOC, &real);
    sqlite3_mem_methods faulty = real;
    faulty.xMalloc = faulty_malloc;
    faulty.xRealloc = faulty_realloc;
    sqlite3_config(SQLITE_CONFIG_MALLOC, &faulty);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aggregates),
        cmocka_unit_test(test_windows),
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_change_points),
        cmocka_unit_test(test_rank),
        cmocka_unit_test(test_rank_windows),
        cmocka_unit_test(test_lookback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
