/* median(x), percentile(x, p), trimmed_mean(x, k), spread(x),
 * median_ci(x [, level]) on PostgreSQL, as src/sqlfn/fn_values.c and
 * fn_rank.c on SQLite:
 *
 *  1. Rows whose x is NULL are ignored; NULL for no remaining values, and
 *     trimmed_mean is NULL when 2k >= n.
 *  2. x must be a finite number (spread: positive); p a number in
 *     [0, 100], k a non-negative integer, level strictly between 0 and 1,
 *     each the same on every row.
 *  3. The values are kept (struct bs_keep) and selected when a result is
 *     asked for; -0.0 is kept as 0.0, so that results depend on the
 *     multiset of values only, in any plan, parallel or not, and in any
 *     window frame.
 *  Example: SELECT percentile(x, 25) FROM (VALUES (1), (2), (3), (4)) AS v(x); -- 1.75
 */
#include "pg/pg.h"

#include <math.h>

/* The row's value (0.0 for -0.0), or ARG_NULL; an error when it is not
 * what the kind takes. */
static int read_x(FunctionCallInfo fcinfo, enum bs_kind kind, double *x)
{
    int rc = bs_number(fcinfo, 1, x);
    if (rc == ARG_NULL)
        return ARG_NULL;
    if (kind == BS_SPREAD && (rc != ARG_OK || !(*x > 0) || isinf(*x)))
        bs_arg_error(fcinfo, 1, 0, EXPECT_POSITIVE);
    if (rc != ARG_OK || !isfinite(*x))
        bs_arg_error(fcinfo, 1, 0, EXPECT_FINITE);
    if (*x == 0)
        *x = 0;
    return ARG_OK;
}

BS_FUNCTION(bs_values_step)
{
    struct bs_keep *s = bs_keep_state(fcinfo, sizeof(double), 1);
    enum bs_kind kind = bs_def(fcinfo)->kind;
    double x;
    if (read_x(fcinfo, kind, &x) == ARG_OK) {
        if (PG_NARGS() > 2) {
            double v;
            enum fn_param p = kind == BS_PERCENTILE ? FN_PERCENT : kind == BS_TRIMMED ? FN_TRIM : FN_LEVEL;
            const char *bad = bs_number(fcinfo, 2, &v) == ARG_OK ? fn_param_check(p, v) : fn_param_check(p, NAN);
            if (bad)
                bs_arg_error(fcinfo, 2, 1, bad);
            bs_same(fcinfo, 1, v, &s->have[0], &s->param[0]);
        }
        bs_keep_push(s, &x);
    }
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_values_inverse)
{
    struct bs_keep *s = BS_STATE(struct bs_keep, 0);
    double x;
    if (!s)
        PG_RETURN_NULL();
    if (bs_number(fcinfo, 1, &x) == ARG_OK) {
        if (x == 0)
            x = 0;
        fn_fifo_remove(&s->f, &x);
    }
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_values_final)
{
    struct bs_keep *s = (struct bs_keep *)PG_GETARG_POINTER(0);
    size_t n = s->f.len;
    enum bs_kind kind = bs_def(fcinfo)->kind;
    if (n == 0 || (kind == BS_TRIMMED && s->param[0] * 2 >= (double)n))
        PG_RETURN_NULL();
    if (kind == BS_SPREAD)
        BS_RETURN_DOUBLE(fn_spread(fn_fifo_items(&s->f), n));
    double *x = bs_keep_items(fcinfo, s);
    if (kind == BS_MEDIAN)
        BS_RETURN_DOUBLE(stats_median(x, n));
    if (kind == BS_PERCENTILE)
        BS_RETURN_DOUBLE(stats_percentile(x, n, s->param[0]));
    if (kind == BS_TRIMMED)
        BS_RETURN_DOUBLE(stats_trimmed_mean(x, n, (size_t)s->param[0]));
    struct median_ci r;
    stats_median_ci(x, n, s->have[0] ? s->param[0] : 0.95, &r);
    struct fn_json j;
    fn_json_median_ci(&j, &r);
    return bs_json_result(fcinfo, &j);
}
