/* change_points(seq, x [, window [, max_pvalue [, min_magnitude]]]),
 * lookback_baseline(seq, x) on PostgreSQL, as src/sqlfn/fn_changepoint.c
 * and fn_lookback.c on SQLite:
 *
 *  1. Rows whose seq or x is NULL are skipped. NULL when no row remains.
 *  2. seq (any integer or real type: integers are kept as integers, as
 *     SQLite keeps them) and x must be finite numbers; window an integer
 *     >= 2 (default 50), max_pvalue in [0, 1] (default 0.001),
 *     min_magnitude >= 0 (default 0), each the same on every row.
 *  3. The aggregate orders its rows itself (fn_seq_row_cmp): no ORDER BY
 *     needed, the same result for any plan, parallel or not, and for a
 *     window frame as for the plain aggregate of its rows.
 *  4. change_points: a jsonb array of change points ('[]' for none);
 *     lookback_baseline: a jsonb object {n, outliers, mean, stddev}.
 *  Example: SELECT lookback_baseline(t, x) FROM (VALUES (1, 1.0), (2, 2.0)) AS v(t, x);
 *           -- {"n": 2, "mean": 1.5, "stddev": 0.7071067811865476, "outliers": 0}
 */
#include "pg/pg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/pg_type.h"

/* seq and x: ARG_OK with *r, or ARG_NULL (a skipped row); errors only when
 * report. */
static int seq_row(FunctionCallInfo fcinfo, struct fn_seq_row *r, int report)
{
    memset(r, 0, sizeof *r);
    if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
        return ARG_NULL;
    Oid type = get_fn_expr_argtype(fcinfo->flinfo, 1);
    if (type == INT8OID || type == INT4OID || type == INT2OID) {
        r->seq_is_int = 1;
        r->seq_int = type == INT8OID ? PG_GETARG_INT64(1) : type == INT4OID ? PG_GETARG_INT32(1) : PG_GETARG_INT16(1);
    } else if (bs_number(fcinfo, 1, &r->seq_real) != ARG_OK || !isfinite(r->seq_real)) {
        if (report)
            bs_arg_error(fcinfo, 1, 0, EXPECT_FINITE);
        return ARG_NULL;
    }
    if (!report)
        return bs_number(fcinfo, 2, &r->x);
    return bs_finite(fcinfo, 2, 1, EXPECT_FINITE, &r->x);
}

BS_FUNCTION(bs_seq_step)
{
    static const enum fn_param kinds[] = {FN_WINDOW, FN_PVALUE, FN_MAGNITUDE};
    struct bs_keep *s = bs_keep_state(fcinfo, sizeof(struct fn_seq_row), 2);
    struct fn_seq_row r;
    if (seq_row(fcinfo, &r, 1) == ARG_OK) {
        for (int i = 3; i < PG_NARGS(); i++) {
            double v;
            const char *bad = bs_number(fcinfo, i, &v) == ARG_OK ? fn_param_check(kinds[i - 3], v)
                                                                  : fn_param_check(kinds[i - 3], NAN);
            if (bad)
                bs_arg_error(fcinfo, i, i - 1, bad);
            bs_same(fcinfo, i - 1, v, &s->have[i - 3], &s->param[i - 3]);
        }
        bs_keep_push(s, &r);
    }
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_seq_inverse)
{
    struct bs_keep *s = BS_STATE(struct bs_keep, 0);
    struct fn_seq_row r;
    if (!s)
        PG_RETURN_NULL();
    if (seq_row(fcinfo, &r, 0) == ARG_OK)
        fn_fifo_remove(&s->f, &r);
    PG_RETURN_POINTER(s);
}

/* The rows in order: in place or a copy (bs_keep_items), sorted unless
 * they already are. */
static struct fn_seq_row *sorted_rows(FunctionCallInfo fcinfo, struct bs_keep *s)
{
    struct fn_seq_row *rows = fn_fifo_items(&s->f);
    if (fn_seq_rows_ordered(rows, s->f.len))
        return rows;
    rows = bs_keep_items(fcinfo, s);
    qsort(rows, s->f.len, sizeof *rows, fn_seq_row_cmp);
    return rows;
}

BS_FUNCTION(bs_cp_final)
{
    struct bs_keep *s = (struct bs_keep *)PG_GETARG_POINTER(0);
    size_t n = s->f.len;
    if (n == 0)
        PG_RETURN_NULL();
    const struct fn_seq_row *rows = sorted_rows(fcinfo, s);
    struct fn_changepoints c;
    void *work = palloc(fn_changepoints_setup(&c, n, s->have, s->param));
    struct changepoint *cp;
    size_t m = fn_changepoints_find(&c, rows, work, &cp);
    char *json = palloc(fn_json_changepoints_size(m));
    struct fn_overflow over;
    fn_json_changepoints(json, rows, cp, m, &over);
    if (over.key)
        bs_overflow_error(fcinfo, &over);
    Datum d = bs_jsonb(json);
    pfree(json);
    pfree(work);
    return d;
}

BS_FUNCTION(bs_lookback_final)
{
    struct bs_keep *s = (struct bs_keep *)PG_GETARG_POINTER(0);
    size_t n = s->f.len;
    if (n == 0)
        PG_RETURN_NULL();
    const struct fn_seq_row *rows = sorted_rows(fcinfo, s);
    double *x = palloc(n * 3 * sizeof *x);
    for (size_t i = 0; i < n; i++)
        x[i] = rows[i].x;
    struct lookback lb;
    lookback_baseline(x, n, x + n, &lb);
    pfree(x);
    struct fn_json j;
    fn_json_lookback(&j, &lb);
    return bs_json_result(fcinfo, &j);
}
