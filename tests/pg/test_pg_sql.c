/* A saved query's SQL for PostgreSQL (src/query/pg_sql.c): named
 * parameters go in casts to their types, or become typed literals; string
 * literals, quoted identifiers, comments and :: casts are left alone; an
 * undeclared or positional parameter is refused, as on SQLite. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "query/pg_sql.h"
#include "util/params.h"

static const char header[] = "-- name: t\n"
                             "-- summary: a test\n"
                             "-- param: plan  the plan\n"
                             "-- param: level = 0.95  a level\n"
                             "-- param: runs = 64  runs\n"
                             "-- param: since = null  a time\n"
                             "-- param: flag = yes  a flag\n"
                             "-- type: level = real in (0, 1)\n"
                             "-- type: runs = integer in [2, )\n"
                             "-- type: flag = boolean\n";

static struct saved_query *query(const char *sql)
{
    size_t n = strlen(header) + strlen(sql) + 1;
    char *text = malloc(n);
    snprintf(text, n, "%s%s", header, sql);
    char *err = NULL;
    struct saved_query *q = saved_query_parse(text, "test", 0, &err);
    if (!q)
        fail_msg("saved_query_parse: %s", err);
    return q;
}

static void typed(const char *sql, const char *want)
{
    struct saved_query *q = query(sql);
    struct strbuf sb = {0};
    char *err = NULL;
    if (pg_sql_typed(q, &sb, &err))
        fail_msg("%s: %s", sql, err);
    assert_string_equal(sb.buf ? sb.buf : "", want);
    sb_free(&sb);
    saved_query_free(q);
}

static void refused(const char *sql, const char *want)
{
    struct saved_query *q = query(sql);
    struct strbuf sb = {0};
    char *err = NULL;
    assert_int_equal(pg_sql_typed(q, &sb, &err), -1);
    assert_string_equal(err, want);
    free(err);
    sb_free(&sb);
    saved_query_free(q);
}

static void test_parameters(void **state)
{
    (void)state;
    typed("SELECT :plan", "SELECT CAST(:plan AS TEXT)");
    typed("SELECT x FROM t WHERE p = :plan AND l < :level OR :plan IS NULL",
               "SELECT x FROM t WHERE p = CAST(:plan AS TEXT) AND l < CAST(:level AS DOUBLE PRECISION) OR CAST(:plan AS TEXT) IS NULL");
    typed("SELECT @runs, $flag, :since", "SELECT CAST(:runs AS BIGINT), CAST(:flag AS BIGINT), CAST(:since AS TEXT)");
    typed("ROWS BETWEEN :runs PRECEDING AND 1 PRECEDING", "ROWS BETWEEN CAST(:runs AS BIGINT) PRECEDING AND 1 PRECEDING");
    typed("SELECT :level*2,(:level)", "SELECT CAST(:level AS DOUBLE PRECISION)*2,(CAST(:level AS DOUBLE PRECISION))");
}

/* For a client that binds by number (bench/pg_query.c): $k, k the
 * parameter's place in the header. */
static void test_positional(void **state)
{
    (void)state;
    struct saved_query *q = query("SELECT @runs, $flag, :since, :runs");
    struct strbuf sb = {0};
    char *err = NULL;
    assert_int_equal(pg_sql_positional(q, &sb, &err), 0);
    assert_string_equal(sb.buf, "SELECT CAST($3 AS BIGINT), CAST($5 AS BIGINT), CAST($4 AS TEXT), CAST($3 AS BIGINT)");
    sb_free(&sb);
    saved_query_free(q);
}

static void test_left_alone(void **state)
{
    (void)state;
    typed("SELECT ':plan', 'it''s :plan', \"a:plan\", X'0a', e.x, 'e''x' FROM t AS e",
               "SELECT ':plan', 'it''s :plan', \"a:plan\", X'0a', e.x, 'e''x' FROM t AS e");
    typed("SELECT 1 -- :plan\n, 2 /* :plan */, x::text, $1, 3 - -4 / 2 FROM t",
               "SELECT 1 -- :plan\n, 2 /* :plan */, x::text, $1, 3 - -4 / 2 FROM t");
    typed("SELECT a ->> 'k', b : c, d @ e", "SELECT a ->> 'k', b : c, d @ e");
    typed("SELECT 'unclosed :plan", "SELECT 'unclosed :plan");
}

static void test_refused(void **state)
{
    (void)state;
    refused("SELECT :nope", "query t (test) uses :nope, which its header does not declare (-- param: nope ...)");
    refused("SELECT ?", "the query uses a positional parameter '?'; use named parameters (:name)");
    /* What PostgreSQL reads otherwise than SQLite (pg_sql.h). */
    const char *bracket = "the query holds a name quoted with [ ] or ` ` (PostgreSQL reads a subscript or an operator; "
                          "quote names with \"\"): write it in the SQL both engines read alike";
    refused("SELECT [b:plan] FROM t", bracket);
    refused("SELECT (x) [pg_read_file('f')] FROM t", bracket);
    refused("SELECT `c:plan` FROM t", bracket);
    const char *prefix = "the query holds a string with a prefix letter (E'', N'', B''), which SQLite reads as a name "
                         "and a string: write it in the SQL both engines read alike";
    refused("SELECT E'\\'' AS x", prefix);
    refused("SELECT 1,e'x'", prefix);
    refused("SELECT N'x'", prefix);
    refused("SELECT B'01'", prefix);
    const char *uamp = "the query holds a U& string or name (SQLite reads a name and an operator): write it in the SQL "
                       "both engines read alike";
    refused("SELECT U&'x'", uamp);
    refused("SELECT u&\"x\"", uamp);
    const char *dollar = "the query holds a dollar-quoted string (SQLite reads parameters): write it in the SQL both "
                         "engines read alike";
    refused("SELECT $$x$$", dollar);
    refused("SELECT $t$x$t$", dollar);
    refused("SELECT 1 /* /* */, '*/, 2 --'",
            "the query nests a comment in another, which PostgreSQL reads otherwise than SQLite: write it in the SQL "
            "both engines read alike");
}

static void test_literals(void **state)
{
    (void)state;
    struct saved_query *q = query("SELECT :plan, :level, :runs, :since, :flag");
    struct params given = {0};
    assert_int_equal(params_add(&given, "plan=it's"), 0);
    assert_int_equal(params_add(&given, "level=0.1"), 0);
    struct resolved_params rp;
    char *err = NULL;
    assert_int_equal(evaluation_resolve(q, &given, &rp, &err), 0);
    struct strbuf sb = {0};
    assert_int_equal(pg_sql_literal(q, &rp, &sb, &err), 0);
    assert_string_equal(sb.buf, "SELECT CAST('it''s' AS TEXT), CAST('0.1' AS DOUBLE PRECISION), CAST(64 AS BIGINT), "
                                "CAST(NULL AS TEXT), CAST(1 AS BIGINT)");
    sb_free(&sb);
    resolved_params_free(&rp);
    params_free(&given);
    saved_query_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parameters),
        cmocka_unit_test(test_positional),
        cmocka_unit_test(test_left_alone),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_literals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
