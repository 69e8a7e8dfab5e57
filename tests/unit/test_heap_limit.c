/* The limit on SQLite's memory (src/store/heap_limit.c): with SQLite's
 * allocator wrapped before its first use, the bytes it holds are counted
 * and given back; under a limit, median() over an endless recursive CTE
 * (its buffer grows without end) fails with SQLITE_NOMEM and the refusal
 * is remembered; the same median over 100,001 values runs within the
 * limit, and without one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "sqlfn/benchstats.h"
#include "store/heap_limit.h"
#include "store/store.h"

#define MIB (1LL << 20)
#define ENDLESS "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT median(x) FROM c"
#define FINITE                                                                                                     \
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100001) SELECT median(x) FROM c"

/* sql's one value; *rc its step's result. */
static double one(sqlite3 *db, const char *sql, int *rc)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    *rc = sqlite3_step(st);
    double v = *rc == SQLITE_ROW ? sqlite3_column_double(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

static void test_median(void **state)
{
    (void)state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(benchstats_register(db), SQLITE_OK);
    sqlite3_int64 base = heap_limit_used();
    assert_true(base > 0); /* the connection's own memory, counted */

    int rc;
    store_query_limits(0, 16 * MIB);
    assert_true(one(db, ENDLESS, &rc) < 0);
    assert_int_equal(SQLITE_NOMEM, rc & 0xff);
    assert_int_equal(STORE_OVER_MEMORY, store_query_limit_passed());
    /* The median's buffer given back (a few KiB of caches may stay). */
    assert_true(heap_limit_used() < base + MIB);

    store_query_limits(0, 16 * MIB); /* forgets the refusal */
    assert_int_equal(0, store_query_limit_passed());
    assert_true(one(db, FINITE, &rc) == 50001.0);
    assert_int_equal(SQLITE_ROW, rc);
    assert_int_equal(0, store_query_limit_passed());

    store_query_limits(0, 0); /* no limit */
    assert_true(one(db, FINITE, &rc) == 50001.0);
    sqlite3_close(db);
    assert_true(heap_limit_used() < base);
}

int main(void)
{
    /* Before SQLite's first use, as main does it. */
    if (store_heap_counting() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_median),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
