/* median(x), percentile(x, p), trimmed_mean(x, k), spread(x): the
 * aggregates that keep their values (the rank-based ones, which keep them
 * the same way, are in fn_rank.c; median_ci's rows are read here too).
 *
 *  1. Rows whose x is NULL are ignored.
 *  2. NULL for no remaining values; trimmed_mean is NULL when 2k >= n.
 *  3. x must be a finite number (spread: a positive finite number); p a
 *     number in [0, 100] and k a non-negative integer, each the same on
 *     every row.
 *  4. Values are kept in insertion order, so that a window frame's removal
 *     of its oldest row is O(1); the statistic is computed by selection,
 *     O(n) expected (median, percentile, trimmed_mean). xFinal works in
 *     place; xValue on a copy.
 *  5. Results depend on the multiset of values only: -0.0 is kept as 0.0,
 *     the percentile's index and interpolation are exact until rounded
 *     once, trimmed_mean sums exactly (stats/order.c).
 *  Example: WITH v(x) AS (VALUES (1), (2), (3), (4)) SELECT percentile(x, 25) FROM v; -- 1.75
 */
#include <string.h>

#include "sqlfn/sqlfn.h"
#include "stats/stats.h"

struct sqlfn_values *sqlfn_values_state(sqlite3_context *ctx, size_t esize)
{
    struct sqlfn_values *s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (!s) {
        sqlite3_result_error_nomem(ctx);
        return NULL;
    }
    s->f.esize = esize;
    return s;
}

void *sqlfn_values_items(sqlite3_context *ctx, struct sqlfn_values *s, int is_final)
{
    if (is_final)
        return fn_fifo_items(&s->f);
    size_t bytes = s->f.len * s->f.esize;
    if (bytes > s->scratch_bytes) {
        void *p = sqlite3_realloc64(s->scratch, bytes);
        if (!p) {
            sqlite3_result_error_nomem(ctx);
            return NULL;
        }
        s->scratch = p;
        s->scratch_bytes = bytes;
    }
    memcpy(s->scratch, fn_fifo_items(&s->f), bytes);
    return s->scratch;
}

void sqlfn_values_release(struct sqlfn_values *s)
{
    sqlfn_fifo_free(&s->f);
    sqlite3_free(s->scratch);
    s->scratch = NULL;
    s->scratch_bytes = 0;
}

/* ---- median, percentile, trimmed_mean, spread; median_ci's rows ---- */

static int read_param(sqlite3_context *ctx, sqlite3_value **argv, int kind, struct sqlfn_values *s)
{
    double v;
    int rc = sqlfn_number(argv[1], &v);
    enum fn_param p = kind == KIND_PERCENTILE ? FN_PERCENT : kind == KIND_TRIMMED ? FN_TRIM : FN_LEVEL;
    const char *bad = rc != ARG_OK ? fn_param_check(p, NAN) : fn_param_check(p, v);
    if (bad) {
        sqlfn_arg_error(ctx, 1, bad, argv[1]);
        return -1;
    }
    return sqlfn_same(ctx, argv, 1, v, &s->have_param, &s->param);
}

void sqlfn_values_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    int kind = sqlfn_kind(ctx);
    double x;
    int rc = sqlfn_number(argv[0], &x);
    if (rc == ARG_NULL)
        return;
    if (kind == KIND_SPREAD && (rc != ARG_OK || !(x > 0) || isinf(x))) {
        sqlfn_arg_error(ctx, 0, EXPECT_POSITIVE, argv[0]);
        return;
    }
    if (rc != ARG_OK || !isfinite(x)) {
        sqlfn_arg_error(ctx, 0, EXPECT_FINITE, argv[0]);
        return;
    }
    struct sqlfn_values *s = sqlfn_values_state(ctx, sizeof x);
    if (!s)
        return;
    if (argc > 1 && read_param(ctx, argv, kind, s))
        return;
    if (x == 0)
        x = 0; /* -0.0 too: equal values keep one representation */
    if (sqlfn_fifo_push(&s->f, &x))
        sqlite3_result_error_nomem(ctx);
}

void sqlfn_values_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct sqlfn_values *s = sqlite3_aggregate_context(ctx, 0);
    double x;
    if (s && sqlfn_number(argv[0], &x) == ARG_OK) {
        if (x == 0)
            x = 0;
        fn_fifo_remove(&s->f, &x);
    }
}

static void values_compute(sqlite3_context *ctx, int is_final)
{
    struct sqlfn_values *s = sqlite3_aggregate_context(ctx, 0);
    if (!s)
        goto null;
    size_t n = s->f.len;
    int kind = sqlfn_kind(ctx);
    if (n == 0 || (kind == KIND_TRIMMED && s->param * 2 >= (double)n))
        goto null;
    if (kind == KIND_SPREAD) {
        sqlite3_result_double(ctx, fn_spread(fn_fifo_items(&s->f), n));
        goto done;
    }
    double *x = sqlfn_values_items(ctx, s, is_final);
    if (!x)
        goto done;
    if (kind == KIND_MEDIAN)
        sqlite3_result_double(ctx, stats_median(x, n));
    else if (kind == KIND_PERCENTILE)
        sqlite3_result_double(ctx, stats_percentile(x, n, s->param));
    else
        sqlite3_result_double(ctx, stats_trimmed_mean(x, n, (size_t)s->param));
    goto done;
null:
    sqlite3_result_null(ctx);
done:
    if (s && is_final)
        sqlfn_values_release(s);
}

void sqlfn_values_final(sqlite3_context *ctx) { values_compute(ctx, 1); }
void sqlfn_values_value(sqlite3_context *ctx) { values_compute(ctx, 0); }
