/* lookback_baseline(seq, x): Conbench's lookback z-score distribution of
 * the series x ordered by seq: the mean and residual standard deviation
 * that the next result's z-score is taken against (stats/lookback.h gives
 * the steps; docs/functions.md the details).
 *
 *  1. Rows whose seq or x is NULL are skipped.
 *  2. NULL when no row remains; otherwise a JSON object {"n", "outliers",
 *     "mean", "stddev"}: n rows, of which outliers were left out as
 *     spikes; mean of the others; sample standard deviation of their
 *     residuals (null for fewer than 2 rows left).
 *  3. seq and x must be finite numbers.
 *  4. The aggregate orders its rows itself, by seq (then x), so the result
 *     does not depend on the order rows arrive in.
 *  5. Window function: xInverse removes a row; each row's value is
 *     computed afresh from the frame, which is the distribution. A gate
 *     takes the frame ROWS BETWEEN 100 PRECEDING AND 1 PRECEDING:
 *     Conbench's 100 commits before the contender.
 *  Example: WITH v(t, x) AS (VALUES (1, 1.0), (2, 2.0)) SELECT lookback_baseline(t, x) FROM v;
 *           -- {"n":2,"outliers":0,"mean":1.5,"stddev":0.7071067811865476}
 */
#include "sqlfn/sqlfn.h"
#include "stats/lookback.h"

struct lookback_state {
    struct sqlfn_seq_rows rows;
    double *work; /* the values and lookback_baseline's workspace: 3 per row */
    size_t work_len;
};

void sqlfn_lookback_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct fn_seq_row r;
    if (sqlfn_seq_row_read(ctx, argv, &r, 1) != ARG_OK)
        return;
    struct lookback_state *s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (!s || sqlfn_seq_rows_push(&s->rows, &r))
        sqlite3_result_error_nomem(ctx);
}

void sqlfn_lookback_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct lookback_state *s = sqlite3_aggregate_context(ctx, 0);
    if (s)
        sqlfn_seq_rows_remove(ctx, &s->rows, argv);
}

static void lookback_compute(sqlite3_context *ctx, int is_final)
{
    struct lookback_state *s = sqlite3_aggregate_context(ctx, 0);
    if (!s || s->rows.f.len == 0) {
        sqlite3_result_null(ctx);
        goto done;
    }
    size_t n = s->rows.f.len;
    struct fn_seq_row *rows = sqlfn_seq_rows_sorted(ctx, &s->rows, is_final);
    if (!rows)
        goto done;
    if (n > s->work_len) {
        double *w = sqlite3_realloc64(s->work, (sqlite3_uint64)n * 3 * sizeof *w);
        if (!w) {
            sqlite3_result_error_nomem(ctx);
            goto done;
        }
        s->work = w;
        s->work_len = n;
    }
    double *x = s->work;
    for (size_t i = 0; i < n; i++)
        x[i] = rows[i].x;
    struct lookback lb;
    lookback_baseline(x, n, x + n, &lb);
    struct fn_json j;
    fn_json_lookback(&j, &lb);
    sqlfn_json_result(ctx, &j);
done:
    if (s && is_final) {
        sqlfn_seq_rows_free(&s->rows);
        sqlite3_free(s->work);
        s->work = NULL;
        s->work_len = 0;
    }
}

void sqlfn_lookback_final(sqlite3_context *ctx) { lookback_compute(ctx, 1); }
void sqlfn_lookback_value(sqlite3_context *ctx) { lookback_compute(ctx, 0); }
