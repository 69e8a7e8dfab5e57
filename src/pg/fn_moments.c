/* geomean(x), variance(x), stddev(x), t_ci(x [, level]),
 * band_share(x, lo, hi) on PostgreSQL, as src/sqlfn/fn_moments.c on
 * SQLite, and moments(x), mean(x), fsum(x), as src/sqlfn/fn_summary.c
 * (their numbered rules hold here too):
 *
 *  1. NULL values of x are ignored; with no non-NULL x (or fewer than a
 *     statistic needs) the result is NULL.
 *  2. x must be a finite number (geomean: positive); level strictly between
 *     0 and 1 and the same on every row; lo and hi finite numbers.
 *  3. The states are exact sums (stats.h), plain data: they serialize as
 *     bytes and merge exactly, so a parallel plan gives the bits of a
 *     serial one; the inverse transition removes a row exactly, so a
 *     moving window frame gives the plain aggregate of its rows.
 *  4. moments, mean and fsum share variance's state: moments' result is
 *     the bytea of stats/moments_bytes.h, byte for byte SQLite's blob;
 *     mean's the exact sum / n rounded once, fsum's the exact sum rounded
 *     once: the same in any order, window frame or parallel plan.
 *  5. variance and stddev are declared for every numeric type, so that
 *     with benchstats before pg_catalog in search_path they, and not
 *     PostgreSQL's own, serve variance(x) whatever x's type.
 *  Example: SELECT geomean(x) FROM (VALUES (1), (2), (4)) AS v(x); -- 2
 */
#include "pg/pg.h"

#include <math.h>

#include "stats/moments.h"
#include "stats/moments_bytes.h"

/* ---- geomean ---- */

static int geomean_arg(FunctionCallInfo fcinfo, double *x)
{
    int rc = bs_number(fcinfo, 1, x);
    if (rc == ARG_NULL)
        return ARG_NULL;
    if (rc != ARG_OK || !(*x > 0) || isinf(*x))
        bs_arg_error(fcinfo, 1, 0, EXPECT_POSITIVE);
    return ARG_OK;
}

BS_FUNCTION(bs_geomean_step)
{
    struct geomean_acc *g = bs_plain_state(fcinfo, sizeof *g);
    double x;
    if (geomean_arg(fcinfo, &x) == ARG_OK)
        geomean_add(g, x);
    PG_RETURN_POINTER(g);
}

BS_FUNCTION(bs_geomean_inverse)
{
    struct geomean_acc *g = BS_STATE(struct geomean_acc, 0);
    if (!g)
        PG_RETURN_NULL();
    if (!PG_ARGISNULL(1))
        geomean_remove(g, PG_GETARG_FLOAT8(1));
    PG_RETURN_POINTER(g);
}

BS_FUNCTION(bs_geomean_final)
{
    struct geomean_acc *g = (struct geomean_acc *)PG_GETARG_POINTER(0);
    if (g->n <= 0)
        PG_RETURN_NULL();
    BS_RETURN_DOUBLE(geomean_value(g));
}

BS_FUNCTION(bs_geomean_combine)
{
    BS_COMBINE_PLAIN(struct geomean_acc, a, b);
    geomean_merge(a, b);
    PG_RETURN_POINTER(a);
}

BS_PLAIN_SERIAL(bs_geomean, struct geomean_acc)

/* ---- variance, stddev, t_ci ---- */

struct moments_state {
    struct moments m;
    int have_level;
    double level;
};

BS_FUNCTION(bs_moments_step)
{
    struct moments_state *s = bs_plain_state(fcinfo, sizeof *s);
    double x;
    if (bs_finite(fcinfo, 1, 0, EXPECT_FINITE, &x) == ARG_OK) {
        if (PG_NARGS() > 2) {
            double level;
            if (bs_number(fcinfo, 2, &level) != ARG_OK || fn_param_check(FN_LEVEL, level))
                bs_arg_error(fcinfo, 2, 1, EXPECT_LEVEL);
            bs_same(fcinfo, 1, level, &s->have_level, &s->level);
        }
        moments_add(&s->m, x);
    }
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_moments_inverse)
{
    struct moments_state *s = BS_STATE(struct moments_state, 0);
    double x;
    if (!s)
        PG_RETURN_NULL();
    if (bs_number(fcinfo, 1, &x) == ARG_OK)
        moments_remove(&s->m, x);
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_moments_final)
{
    struct moments_state *s = (struct moments_state *)PG_GETARG_POINTER(0);
    if (s->m.n < 2)
        PG_RETURN_NULL();
    enum bs_kind kind = bs_def(fcinfo)->kind;
    if (kind == BS_VARIANCE)
        BS_RETURN_DOUBLE(moments_variance(&s->m));
    if (kind == BS_STDDEV)
        BS_RETURN_DOUBLE(moments_stddev(&s->m));
    struct t_interval t;
    if (t_interval_one(&s->m, s->have_level ? s->level : 0.95, &t))
        PG_RETURN_NULL();
    struct fn_json j;
    fn_json_t_ci(&j, &t);
    return bs_json_result(fcinfo, &j);
}

BS_FUNCTION(bs_moments_combine)
{
    BS_COMBINE_PLAIN(struct moments_state, a, b);
    bs_same_merge(fcinfo, 1, &a->have_level, &a->level, b->have_level, b->level);
    moments_merge(&a->m, &b->m);
    PG_RETURN_POINTER(a);
}

BS_PLAIN_SERIAL(bs_moments, struct moments_state)

/* ---- moments, mean, fsum (the state of variance) ---- */

BS_FUNCTION(bs_summary_final)
{
    struct moments_state *s = (struct moments_state *)PG_GETARG_POINTER(0);
    if (s->m.n == 0)
        PG_RETURN_NULL();
    enum bs_kind kind = bs_def(fcinfo)->kind;
    if (kind == BS_MEAN)
        BS_RETURN_DOUBLE(moments_mean(&s->m));
    if (kind == BS_FSUM)
        BS_RETURN_DOUBLE(moments_fsum(&s->m));
    unsigned char buf[MOMENTS_BYTES_MAX];
    size_t n = moments_to_bytes(&s->m, buf);
    bytea *b = palloc(VARHDRSZ + n);
    SET_VARSIZE(b, VARHDRSZ + n);
    memcpy(VARDATA(b), buf, n);
    PG_RETURN_BYTEA_P(b);
}

/* ---- band_share ---- */

struct band_state {
    int64 n, in;
};

BS_FUNCTION(bs_band_step)
{
    struct band_state *s = bs_plain_state(fcinfo, sizeof *s);
    double x, lo, hi;
    if (bs_finite(fcinfo, 1, 0, EXPECT_FINITE, &x) == ARG_OK) {
        /* A bound of the band: NULL is an error too. */
        if (bs_finite(fcinfo, 2, 1, EXPECT_FINITE, &lo) != ARG_OK)
            bs_arg_error(fcinfo, 2, 1, EXPECT_FINITE);
        if (bs_finite(fcinfo, 3, 2, EXPECT_FINITE, &hi) != ARG_OK)
            bs_arg_error(fcinfo, 3, 2, EXPECT_FINITE);
        s->n++;
        s->in += lo <= x && x <= hi;
    }
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_band_inverse)
{
    struct band_state *s = BS_STATE(struct band_state, 0);
    if (!s)
        PG_RETURN_NULL();
    if (!PG_ARGISNULL(1)) {
        double x = PG_GETARG_FLOAT8(1), lo = PG_GETARG_FLOAT8(2), hi = PG_GETARG_FLOAT8(3);
        s->n--;
        s->in -= lo <= x && x <= hi;
    }
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_band_final)
{
    struct band_state *s = (struct band_state *)PG_GETARG_POINTER(0);
    if (s->n == 0)
        PG_RETURN_NULL();
    PG_RETURN_FLOAT8((double)s->in / (double)s->n);
}

BS_FUNCTION(bs_band_combine)
{
    BS_COMBINE_PLAIN(struct band_state, a, b);
    a->n += b->n;
    a->in += b->in;
    PG_RETURN_POINTER(a);
}

BS_PLAIN_SERIAL(bs_band, struct band_state)
