/* mann_whitney(x, first [, method]), hodges_lehmann(x, first [, level]),
 * median_ci(x [, level]): the rank and order-statistic aggregates.
 *
 *  1. Rows whose x is NULL, or (two-sample functions) whose first is NULL,
 *     are ignored, and their other arguments are not read.
 *  2. NULL for no remaining values, or when a sample is empty.
 *  3. x must be a finite number and first a number (nonzero: sample 1);
 *     level strictly between 0 and 1 (default 0.95) and method one of
 *     'r' (the default), 'exact', 'benchstat', each the same on every row.
 *  4. mann_whitney: {"u", "p", "n1", "n2", "exact"}; u is R's W, p the
 *     two-sided p-value (null when every value is tied, except with
 *     'exact', whose p is then 1). 'exact' is refused, with an error, when
 *     its cost would pass about 5e9 steps (two samples of 188 values).
 *     hodges_lehmann: {"estimate", "lo", "hi", "level", "confidence",
 *     "n1", "n2", "exact"}, R's wilcox.test(conf.int = TRUE) estimate and
 *     interval; confidence is the achieved level in the exact case, null
 *     otherwise. median_ci: {"center", "lo", "hi", "lo_order", "hi_order",
 *     "confidence", "level", "n"}, benchstat's order statistics for the
 *     median; lo (hi) is null when lo_order is 0 (hi_order is n + 1).
 *  5. Values are kept in insertion order (a window frame's removal of its
 *     oldest row is O(1)) and sorted or selected when a result is asked
 *     for, so results never depend on row order: mann_whitney O(n log n)
 *     ('exact' and 'benchstat' with ties: the conditional distribution,
 *     O(n nsel (n1 n2))), hodges_lehmann O(n log n + (n1 log n1 + n2)
 *     log(n1 n2)) with O(n) memory (the n1 n2 differences are never
 *     formed), median_ci O(n) expected. xFinal works in place, xValue on a
 *     copy; a window frame gives what the plain aggregate of its rows
 *     gives.
 *  Example: WITH v(x, g) AS (VALUES (1, 1), (2, 1), (3, 1), (4, 0), (5, 0), (6, 0))
 *           SELECT mann_whitney(x, g, 'benchstat') FROM v; -- {"u":0,"p":0.1,"n1":3,"n2":3,"exact":true}
 */
#include <string.h>

#include "sqlfn/sqlfn.h"
#include "stats/rank.h"

/* Reads x and first: ARG_OK, ARG_NULL (an ignored row), or ARG_ERROR with
 * the error set when report (xStep); xInverse only recognises its row. */
static int two_row(sqlite3_context *ctx, sqlite3_value **argv, struct mw_obs *o, int report)
{
    double x;
    int rc = report ? sqlfn_finite(ctx, argv, 0, EXPECT_FINITE, &x) : sqlfn_number(argv[0], &x);
    if (rc != ARG_OK)
        return rc;
    int first;
    if (report) {
        first = sqlfn_flag(ctx, argv, 1);
        if (first < 0 || first == ARG_NULL)
            return first < 0 ? ARG_ERROR : ARG_NULL;
    } else {
        double f;
        if (sqlfn_number(argv[1], &f) != ARG_OK)
            return ARG_NULL;
        first = f != 0;
    }
    fn_mw_obs(o, x, first);
    return ARG_OK;
}

/* level in argv[argi], checked and the same as before: 0, or -1 with the
 * error set. */
static int read_level(sqlite3_context *ctx, sqlite3_value **argv, int argi, struct sqlfn_values *s)
{
    double level;
    if (sqlfn_number(argv[argi], &level) != ARG_OK || fn_param_check(FN_LEVEL, level)) {
        sqlfn_arg_error(ctx, argi, EXPECT_LEVEL, argv[argi]);
        return -1;
    }
    return sqlfn_same(ctx, argv, argi, level, &s->have_param, &s->param);
}

static int read_method(sqlite3_context *ctx, sqlite3_value **argv, int argi, struct sqlfn_values *s)
{
    const char *text = sqlite3_value_type(argv[argi]) == SQLITE_TEXT ? (const char *)sqlite3_value_text(argv[argi]) : NULL;
    int m = fn_mw_method(text);
    if (m >= 0)
        return sqlfn_same(ctx, argv, argi, m, &s->have_param, &s->param);
    sqlfn_arg_error(ctx, argi, EXPECT_METHOD, argv[argi]);
    return -1;
}

/* xStep of the two-sample functions: the row, then the parameter. */
static void two_step(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                     int (*read)(sqlite3_context *, sqlite3_value **, int, struct sqlfn_values *))
{
    struct mw_obs o;
    if (two_row(ctx, argv, &o, 1) != ARG_OK)
        return;
    struct sqlfn_values *s = sqlfn_values_state(ctx, sizeof o);
    if (!s || (argc > 2 && read(ctx, argv, 2, s)))
        return;
    if (sqlfn_fifo_push(&s->f, &o))
        sqlite3_result_error_nomem(ctx);
}

static void two_inverse(sqlite3_context *ctx, sqlite3_value **argv)
{
    struct sqlfn_values *s = sqlite3_aggregate_context(ctx, 0);
    struct mw_obs o;
    if (s && two_row(ctx, argv, &o, 0) == ARG_OK)
        fn_fifo_remove(&s->f, &o);
}

/* xFinal (is_final) and xValue: result() computes from the live values
 * (in place when final, else a copy) and sets the result; no values give
 * NULL. */
static void compute(sqlite3_context *ctx, int is_final,
                    void (*result)(sqlite3_context *, const struct sqlfn_values *, void *items))
{
    struct sqlfn_values *s = sqlite3_aggregate_context(ctx, 0);
    void *items;
    if (!s || s->f.len == 0)
        sqlite3_result_null(ctx);
    else if ((items = sqlfn_values_items(ctx, s, is_final)) != NULL)
        result(ctx, s, items);
    if (s && is_final)
        sqlfn_values_release(s);
}

/* A two-sample result: out of memory (-2), NULL (other failures), or the
 * JSON object json() writes. */
static void two_result(sqlite3_context *ctx, int rc, void (*json)(struct fn_json *, const void *), const void *r)
{
    if (rc == -2) {
        sqlite3_result_error_nomem(ctx);
    } else if (rc) {
        sqlite3_result_null(ctx);
    } else {
        struct fn_json j;
        json(&j, r);
        sqlfn_json_result(ctx, &j);
    }
}

/* ---- mann_whitney ---- */

void sqlfn_mw_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) { two_step(ctx, argc, argv, read_method); }
void sqlfn_mw_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    two_inverse(ctx, argv);
}

static void mw_json(struct fn_json *j, const void *r) { fn_json_mann_whitney(j, r); }

static void mw_result(sqlite3_context *ctx, const struct sqlfn_values *s, void *obs)
{
    enum mw_method method = s->have_param ? (enum mw_method)s->param : MW_R;
    struct mw_result r;
    int rc = stats_mann_whitney_method(obs, s->f.len, method, &r);
    if (rc != -3) {
        two_result(ctx, rc, mw_json, &r);
        return;
    }
    char *msg = sqlite3_mprintf("%s(): samples of %lld and %lld values are too large for method 'exact' "
                                "(two samples of 188 at most); use 'r' or 'benchstat'",
                                sqlfn_name(ctx), (long long)r.n1, (long long)r.n2);
    if (msg)
        sqlite3_result_error(ctx, msg, -1);
    else
        sqlite3_result_error_nomem(ctx);
    sqlite3_free(msg);
}

void sqlfn_mw_final(sqlite3_context *ctx) { compute(ctx, 1, mw_result); }
void sqlfn_mw_value(sqlite3_context *ctx) { compute(ctx, 0, mw_result); }

/* ---- hodges_lehmann ---- */

void sqlfn_hl_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) { two_step(ctx, argc, argv, read_level); }
void sqlfn_hl_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    two_inverse(ctx, argv);
}

static void hl_json(struct fn_json *j, const void *r) { fn_json_hodges_lehmann(j, r); }

static void hl_result(sqlite3_context *ctx, const struct sqlfn_values *s, void *obs)
{
    struct hl_result r;
    two_result(ctx, stats_hodges_lehmann(obs, s->f.len, s->have_param ? s->param : 0.95, &r), hl_json, &r);
}

void sqlfn_hl_final(sqlite3_context *ctx) { compute(ctx, 1, hl_result); }
void sqlfn_hl_value(sqlite3_context *ctx) { compute(ctx, 0, hl_result); }

/* ---- median_ci ---- */

/* Its rows are median's (fn_values.c: x, and the level read as a
 * parameter of kind KIND_MEDIAN_CI). */
void sqlfn_mci_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) { sqlfn_values_step(ctx, argc, argv); }
void sqlfn_mci_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv) { sqlfn_values_inverse(ctx, argc, argv); }

static void mci_result(sqlite3_context *ctx, const struct sqlfn_values *s, void *x)
{
    struct median_ci r;
    stats_median_ci(x, s->f.len, s->have_param ? s->param : 0.95, &r);
    struct fn_json j;
    fn_json_median_ci(&j, &r);
    sqlfn_json_result(ctx, &j);
}

void sqlfn_mci_final(sqlite3_context *ctx) { compute(ctx, 1, mci_result); }
void sqlfn_mci_value(sqlite3_context *ctx) { compute(ctx, 0, mci_result); }
