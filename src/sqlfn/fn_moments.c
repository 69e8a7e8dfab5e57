/* geomean(x), variance(x), stddev(x), t_ci(x [, level]), band_share(x, lo, hi)
 *
 *  1. NULL values of x are ignored; so are rows whose x is NULL in band_share.
 *  2. With no non-NULL x (or fewer than a statistic needs: 2 for variance,
 *     stddev and t_ci), the result is NULL.
 *  3. x must be a finite number (numeric text is read as its number);
 *     geomean's x must also be > 0. level must be strictly between 0 and 1
 *     and the same on every row; lo and hi must be finite numbers.
 *  4. All are window functions: xInverse removes a row's contribution.
 *  5. The state holds exact sums (stats.h), so a result depends on the
 *     multiset of rows only: any row order, and any window frame, gives
 *     the bits the plain aggregate gives on the same rows.
 *  Example: WITH v(x) AS (VALUES (1), (2), (4)) SELECT geomean(x) FROM v; -- 2.0
 */
#include "sqlfn/sqlfn.h"
#include "stats/stats.h"

/* ---- geomean ---- */

static int geomean_arg(sqlite3_context *ctx, sqlite3_value **argv, double *x)
{
    int rc = sqlfn_number(argv[0], x);
    if (rc == ARG_NULL)
        return ARG_NULL;
    if (rc != ARG_OK || !(*x > 0) || isinf(*x)) {
        sqlfn_arg_error(ctx, 0, EXPECT_POSITIVE, argv[0]);
        return ARG_ERROR;
    }
    return ARG_OK;
}

void sqlfn_geomean_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    double x;
    /* A positive finite REAL is the common case: read once, no switch. */
    if (sqlite3_value_type(argv[0]) == SQLITE_FLOAT) {
        x = sqlite3_value_double(argv[0]);
        if (!(x > 0) || isinf(x)) {
            sqlfn_arg_error(ctx, 0, EXPECT_POSITIVE, argv[0]);
            return;
        }
    } else if (geomean_arg(ctx, argv, &x) != ARG_OK) {
        return;
    }
    struct geomean_acc *g = sqlite3_aggregate_context(ctx, sizeof *g);
    if (!g) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    geomean_add(g, x);
}

void sqlfn_geomean_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    double x;
    struct geomean_acc *g = sqlite3_aggregate_context(ctx, 0);
    if (g && sqlfn_number(argv[0], &x) == ARG_OK)
        geomean_remove(g, x);
}

static void geomean_compute(sqlite3_context *ctx)
{
    struct geomean_acc *g = sqlite3_aggregate_context(ctx, 0);
    if (g && g->n > 0)
        sqlite3_result_double(ctx, geomean_value(g));
    else
        sqlite3_result_null(ctx);
}

void sqlfn_geomean_final(sqlite3_context *ctx) { geomean_compute(ctx); }
void sqlfn_geomean_value(sqlite3_context *ctx) { geomean_compute(ctx); }

/* ---- variance, stddev, t_ci ---- */

struct moments_state {
    struct moments m;
    int have_level;
    double level;
};

/* Reads level (argi) if given: 0, or -1 with the error set. */
static int read_level(sqlite3_context *ctx, int argc, sqlite3_value **argv, int argi, int *have, double *level)
{
    if (argc <= argi)
        return 0;
    double v;
    int rc = sqlfn_number(argv[argi], &v);
    if (rc != ARG_OK || fn_param_check(FN_LEVEL, v)) {
        sqlfn_arg_error(ctx, argi, EXPECT_LEVEL, argv[argi]);
        return -1;
    }
    return sqlfn_same(ctx, argv, argi, v, have, level);
}

void sqlfn_moments_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    double x;
    if (sqlfn_finite(ctx, argv, 0, EXPECT_FINITE, &x) != ARG_OK)
        return;
    struct moments_state *s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (!s) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (read_level(ctx, argc, argv, 1, &s->have_level, &s->level))
        return;
    moments_add(&s->m, x);
}

void sqlfn_moments_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    double x;
    struct moments_state *s = sqlite3_aggregate_context(ctx, 0);
    if (s && sqlfn_number(argv[0], &x) == ARG_OK)
        moments_remove(&s->m, x);
}

static void moments_compute(sqlite3_context *ctx)
{
    struct moments_state *s = sqlite3_aggregate_context(ctx, 0);
    if (!s || s->m.n < 2) {
        sqlite3_result_null(ctx);
        return;
    }
    int kind = sqlfn_kind(ctx);
    if (kind == KIND_VARIANCE) {
        sqlite3_result_double(ctx, moments_variance(&s->m));
        return;
    }
    if (kind == KIND_STDDEV) {
        sqlite3_result_double(ctx, moments_stddev(&s->m));
        return;
    }
    struct t_interval t;
    if (t_interval_one(&s->m, s->have_level ? s->level : 0.95, &t)) {
        sqlite3_result_null(ctx);
        return;
    }
    struct fn_json j;
    fn_json_t_ci(&j, &t);
    sqlfn_json_result(ctx, &j);
}

void sqlfn_moments_final(sqlite3_context *ctx) { moments_compute(ctx); }
void sqlfn_moments_value(sqlite3_context *ctx) { moments_compute(ctx); }

/* ---- band_share ---- */

struct band_state {
    int64_t n, in;
};

/* A bound of the band: NULL is an error too. */
static int band_bound(sqlite3_context *ctx, sqlite3_value **argv, int argi, double *v)
{
    int rc = sqlfn_finite(ctx, argv, argi, EXPECT_FINITE, v);
    if (rc == ARG_NULL) {
        sqlfn_arg_error(ctx, argi, EXPECT_FINITE, argv[argi]);
        rc = ARG_ERROR;
    }
    return rc;
}

enum { BAND_OUT = 0, BAND_IN = 1, BAND_SKIP = 2, BAND_ERROR = -1 };

static int band_row(sqlite3_context *ctx, sqlite3_value **argv)
{
    double x, lo, hi;
    int rc = sqlfn_finite(ctx, argv, 0, EXPECT_FINITE, &x);
    if (rc != ARG_OK)
        return rc == ARG_NULL ? BAND_SKIP : BAND_ERROR;
    if (band_bound(ctx, argv, 1, &lo) != ARG_OK || band_bound(ctx, argv, 2, &hi) != ARG_OK)
        return BAND_ERROR;
    return lo <= x && x <= hi ? BAND_IN : BAND_OUT;
}

void sqlfn_band_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int in = band_row(ctx, argv);
    if (in == BAND_ERROR || in == BAND_SKIP)
        return;
    struct band_state *s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (!s) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    s->n++;
    s->in += in;
}

void sqlfn_band_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct band_state *s = sqlite3_aggregate_context(ctx, 0);
    if (!s || sqlite3_value_type(argv[0]) == SQLITE_NULL)
        return;
    double x, lo, hi;
    sqlfn_number(argv[0], &x);
    sqlfn_number(argv[1], &lo);
    sqlfn_number(argv[2], &hi);
    s->n--;
    s->in -= lo <= x && x <= hi;
}

static void band_compute(sqlite3_context *ctx)
{
    struct band_state *s = sqlite3_aggregate_context(ctx, 0);
    if (!s || s->n == 0)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_double(ctx, (double)s->in / (double)s->n);
}

void sqlfn_band_final(sqlite3_context *ctx) { band_compute(ctx); }
void sqlfn_band_value(sqlite3_context *ctx) { band_compute(ctx); }
