/* change_points(seq, x [, window [, max_pvalue [, min_magnitude]]]):
 * Apache Otava's change-point detection over the series x ordered by seq.
 *
 *  1. Rows whose seq or x is NULL are skipped: they take no position in the
 *     series (Otava would fill a missing value with the previous one).
 *  2. NULL when no row remains; otherwise a JSON array, '[]' when there is
 *     no change point (as for fewer than 3 rows).
 *  3. seq and x must be finite numbers. window must be an integer >= 2
 *     (default 50), max_pvalue a number between 0 and 1 (default 0.001),
 *     min_magnitude a non-negative finite number (default 0); each must be
 *     the same on every row, and is not read on skipped rows.
 *  4. The aggregate orders its rows itself, by seq, rows with equal seq by
 *     x (then an integer seq before an equal real one), so the result does
 *     not depend on the order rows arrive in (no ORDER BY needed, which
 *     SQLite before 3.44 cannot put inside an aggregate call).
 *  5. One object per change point, in seq order: seq (of the first row of
 *     the new regime, as given), index (its 0-based position in the ordered
 *     series), mean_before, mean_after, stddev_before, stddev_after
 *     (population), pvalue, magnitude, forward_change_percent; non-finite
 *     numbers as null.
 *  6. Window function: xInverse removes a row; each row's value is
 *     computed afresh from the frame's rows.
 *  Example: WITH v(t, x) AS (VALUES (1, 1.02), (2, 0.95), (3, 0.99), (4, 1.0),
 *             (5, 1.12), (6, 0.9), (7, 0.5), (8, 0.51), (9, 0.48), (10, 0.48), (11, 0.55))
 *           SELECT change_points(t, x) FROM v;
 *           -- [{"seq":7,"index":6,"mean_before":0.9966666666666667,...}]
 */
#include <stdlib.h>
#include <string.h>

#include "sqlfn/sqlfn.h"
#include "stats/changepoint.h"

struct cp_state {
    struct sqlfn_seq_rows rows;
    int have[3];
    double param[3]; /* window, max_pvalue, min_magnitude */
};

/* window, max_pvalue, min_magnitude: checked and the same on every row. */
static int read_params(sqlite3_context *ctx, int argc, sqlite3_value **argv, struct cp_state *s)
{
    static const enum fn_param kinds[] = {FN_WINDOW, FN_PVALUE, FN_MAGNITUDE};
    for (int i = 2; i < argc; i++) {
        double v;
        const char *bad = sqlfn_number(argv[i], &v) == ARG_OK ? fn_param_check(kinds[i - 2], v)
                                                               : fn_param_check(kinds[i - 2], NAN);
        if (bad) {
            sqlfn_arg_error(ctx, i, bad, argv[i]);
            return -1;
        }
        if (sqlfn_same(ctx, argv, i, v, &s->have[i - 2], &s->param[i - 2]))
            return -1;
    }
    return 0;
}

void sqlfn_cp_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    struct fn_seq_row r;
    if (sqlfn_seq_row_read(ctx, argv, &r, 1) != ARG_OK)
        return;
    struct cp_state *s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (!s) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (read_params(ctx, argc, argv, s))
        return;
    if (sqlfn_seq_rows_push(&s->rows, &r))
        sqlite3_result_error_nomem(ctx);
}

void sqlfn_cp_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct cp_state *s = sqlite3_aggregate_context(ctx, 0);
    if (s)
        sqlfn_seq_rows_remove(ctx, &s->rows, argv);
}

/* The JSON array of the change points of rows[0..n) (sorted). */
static void result_json(sqlite3_context *ctx, const struct fn_seq_row *rows, const struct changepoint *cp, size_t m)
{
    char *text = sqlite3_malloc64(fn_json_changepoints_size(m));
    if (!text) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    struct fn_overflow over;
    size_t len = fn_json_changepoints(text, rows, cp, m, &over);
    if (over.key) {
        sqlite3_free(text);
        sqlfn_overflow_error(ctx, &over);
        return;
    }
    /* Longer than SQLite's limit on a value: SQLite sets "string or blob
     * too big" and frees text. */
    sqlite3_result_text64(ctx, text, len, sqlite3_free, SQLITE_UTF8);
    sqlite3_result_subtype(ctx, 'J');
}

static void cp_compute(sqlite3_context *ctx, int is_final)
{
    struct cp_state *s = sqlite3_aggregate_context(ctx, 0);
    if (!s || s->rows.f.len == 0) {
        sqlite3_result_null(ctx);
        goto done;
    }
    size_t n = s->rows.f.len;
    struct fn_seq_row *rows = sqlfn_seq_rows_sorted(ctx, &s->rows, is_final);
    if (!rows)
        goto done;
    struct fn_changepoints c;
    double *work = sqlite3_malloc64(fn_changepoints_setup(&c, n, s->have, s->param));
    if (!work) {
        sqlite3_result_error_nomem(ctx);
        goto done;
    }
    struct changepoint *cp;
    size_t m = fn_changepoints_find(&c, rows, work, &cp);
    if (m == CHANGEPOINT_STOPPED) /* the deadline passed (stats/stop.h): the statement fails as interrupted */
        sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
    else
        result_json(ctx, rows, cp, m);
    sqlite3_free(work);
done:
    if (s && is_final)
        sqlfn_seq_rows_free(&s->rows);
}

void sqlfn_cp_final(sqlite3_context *ctx) { cp_compute(ctx, 1); }
void sqlfn_cp_value(sqlite3_context *ctx) { cp_compute(ctx, 0); }
