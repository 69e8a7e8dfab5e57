/* moments(x), mean(x), fsum(x), pooled_t_ci_of(a, b [, level [, members]]), t_ci_of(m [, level])
 *
 * A summary is the exact state of a sample (n, sum x, sum x^2) as a blob,
 * so that a table can keep it in place of the rows and an interval
 * computed from it later is the interval of the rows, to the bit.
 *
 *  1. moments(x), mean(x), fsum(x): aggregates; rows whose x is NULL are ignored;
 *     NULL for no rows. x must be a finite number.
 *  2. moments' result is a BLOB in the form of docs/functions.md
 *     ("moments"): the exact sums written without rounding, so the same
 *     multiset of values gives the same bytes in any order (a window frame
 *     too: xInverse removes a row exactly). mean's is the exact sum
 *     divided by n, rounded once: the same bits in any order; fsum's the
 *     exact sum rounded once (Python's math.fsum; SQLite's sum() adds in
 *     row order, compensated since 3.43, so its last bits vary).
 *  3. pooled_t_ci_of(a, b, level, members) is what pooled_t_ci(x, first,
 *     level, members) gives over the rows of a (first true) and of b: the
 *     same JSON text, the same bits; NULL where that is NULL (a sample
 *     empty, df < 1). level defaults to 0.95, members to all.
 *  4. t_ci_of(m, level) is what t_ci(x, level) gives over the rows of m;
 *     NULL for fewer than two values.
 *  5. NULL in any argument gives NULL. a, b and m must be blobs that
 *     moments() made (a state no values give is refused: see
 *     stats/moments_bytes.h), level a number strictly between 0 and 1,
 *     members a list of pooled_t_ci's members.
 *  Example: WITH v(x, g) AS (VALUES (1, 1), (2, 1), (4, 0), (5, 0)),
 *                s AS (SELECT moments(x) FILTER (WHERE g = 1) AS a,
 *                             moments(x) FILTER (WHERE g = 0) AS b FROM v)
 *           SELECT pooled_t_ci_of(a, b) = (SELECT pooled_t_ci(x, g) FROM v) FROM s;
 *           -- 1
 *
 * The intervals' JSON is written here as fn_ttest.c and fn_moments.c
 * write pooled_t_ci's and t_ci's (same members, order and numbers; the
 * tests compare the texts), from the same struct t_interval. */
#include <string.h>

#include "sqlfn/fn_summary.h"
#include "sqlfn/sqlfn.h"
#include "stats/moments.h"
#include "stats/moments_bytes.h"
#include "stats/stats.h"

/* ---- moments(x), mean(x), fsum(x) ---- */

void sqlfn_summary_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    double x;
    if (sqlfn_finite(ctx, argv, 0, EXPECT_FINITE, &x) != ARG_OK)
        return;
    struct moments *m = sqlite3_aggregate_context(ctx, sizeof *m);
    if (!m) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    moments_add(m, x);
}

void sqlfn_summary_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    double x;
    struct moments *m = sqlite3_aggregate_context(ctx, 0);
    if (m && sqlfn_number(argv[0], &x) == ARG_OK)
        moments_remove(m, x);
}

static void summary_compute(sqlite3_context *ctx)
{
    struct moments *m = sqlite3_aggregate_context(ctx, 0);
    if (!m || m->n == 0) {
        sqlite3_result_null(ctx);
        return;
    }
    if (sqlfn_kind(ctx) == KIND_SUMMARY_MEAN) {
        sqlite3_result_double(ctx, moments_mean(m));
        return;
    }
    if (sqlfn_kind(ctx) == KIND_SUMMARY_SUM) {
        sqlite3_result_double(ctx, moments_fsum(m));
        return;
    }
    unsigned char buf[MOMENTS_BYTES_MAX];
    size_t n = moments_to_bytes(m, buf);
    sqlite3_result_blob(ctx, buf, (int)n, SQLITE_TRANSIENT);
}

void sqlfn_summary_final(sqlite3_context *ctx) { summary_compute(ctx); }
void sqlfn_summary_value(sqlite3_context *ctx) { summary_compute(ctx); }

/* ---- intervals of summaries ---- */

static void two_result(sqlite3_context *ctx, struct two_sample *s, double level, unsigned mask)
{
    struct t_interval t;
    if (t_interval_pooled_p(s, level, (mask & FN_CI_P) != 0, &t)) {
        sqlite3_result_null(ctx);
        return;
    }
    struct fn_json j;
    fn_json_two_sample(&j, &t, mask);
    sqlfn_json_result(ctx, &j);
}

static void one_result(sqlite3_context *ctx, struct moments *m, double level)
{
    struct t_interval t;
    if (t_interval_one(m, level, &t)) {
        sqlite3_result_null(ctx);
        return;
    }
    struct fn_json j;
    fn_json_t_ci(&j, &t);
    sqlfn_json_result(ctx, &j);
}

/* argv[argi] as a state: ARG_OK, or ARG_ERROR with the error set. */
static int read_summary(sqlite3_context *ctx, sqlite3_value **argv, int argi, struct moments *m)
{
    if (sqlite3_value_type(argv[argi]) == SQLITE_BLOB) {
        const unsigned char *p = sqlite3_value_blob(argv[argi]);
        int n = sqlite3_value_bytes(argv[argi]);
        if (p && moments_from_bytes(p, (size_t)n, m) == 0)
            return ARG_OK;
    }
    sqlfn_arg_error(ctx, argi, EXPECT_SUMMARY, argv[argi]);
    return ARG_ERROR;
}

/* level at argi, 0.95 when not given: ARG_OK or ARG_ERROR (set). */
static int read_level(sqlite3_context *ctx, int argc, sqlite3_value **argv, int argi, double *level)
{
    *level = 0.95;
    if (argc <= argi)
        return ARG_OK;
    if (sqlfn_number(argv[argi], level) == ARG_OK && *level > 0 && *level < 1)
        return ARG_OK;
    sqlfn_arg_error(ctx, argi, EXPECT_LEVEL, argv[argi]);
    return ARG_ERROR;
}

static int any_null(int argc, sqlite3_value **argv)
{
    for (int i = 0; i < argc; i++)
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL)
            return 1;
    return 0;
}

void sqlfn_pooled_t_ci_of(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    if (any_null(argc, argv)) {
        sqlite3_result_null(ctx);
        return;
    }
    struct two_sample s;
    double level;
    unsigned mask = FN_CI_ALL;
    if (read_summary(ctx, argv, 0, &s.a) || read_summary(ctx, argv, 1, &s.b) ||
        read_level(ctx, argc, argv, 2, &level))
        return;
    if (argc > 3) {
        const char *list = sqlite3_value_type(argv[3]) == SQLITE_TEXT ? (const char *)sqlite3_value_text(argv[3]) : NULL;
        if (!(mask = fn_ci_members(list))) {
            sqlfn_arg_error(ctx, 3, EXPECT_MEMBERS, argv[3]);
            return;
        }
    }
    two_result(ctx, &s, level, mask);
}

void sqlfn_t_ci_of(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    if (any_null(argc, argv)) {
        sqlite3_result_null(ctx);
        return;
    }
    struct moments m;
    double level;
    if (read_summary(ctx, argv, 0, &m) || read_level(ctx, argc, argv, 1, &level))
        return;
    one_result(ctx, &m, level);
}
