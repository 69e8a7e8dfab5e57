/* Student-t confidence intervals (two-sided, mu = 0) from exact sums.
 *
 * Every input is an exact quantity rounded once to double-double with a
 * free exponent: sum x, and n sum x^2 - (sum x)^2 = n sum (x - mean)^2
 * (stats/moments.c); for two samples the difference of the means, formed
 * exactly as (n2 sum x1 - n1 sum x2) / (n1 n2) when the means agree to
 * more than 12 digits, so that neither a common offset nor a difference
 * far below the spread costs precision. Everything after is double-double, so estimate, se,
 * df and t are within an ulp or two of the exact values; lo and hi are
 * estimate -+ q se with q = t_quantile_level(level, df). */
#include <math.h>

#include "stats/moments.h"
#include "stats/stats.h"

/* Fills lo, hi, t, p and the doubles of estimate and se; estimate is
 * est_double when that is not NaN (a mean rounded from its exact sum). */
static void finish(struct t_interval *out, struct xdd est, double est_double, struct xdd se, dd df, int with_p)
{
    out->estimate = isnan(est_double) ? xdd_double(est) : est_double;
    out->se = xdd_double(se);
    if (se.hi == 0) {
        out->t = out->p = NAN;
        out->lo = out->hi = out->estimate;
        return;
    }
    struct xdd t = xdd_div(est, se);
    out->t = xdd_double(t);
    out->p = with_p ? t_two_sided(xdd_dd(t), df) : NAN;
    double q = t_quantile_level(out->level, out->df);
    struct xdd qse = xdd_mul(xdd_from_dd(dd_d(q)), se);
    out->lo = xdd_double(xdd_add(est, xdd_neg(qse)));
    out->hi = xdd_double(xdd_add(est, qse));
}

/* The sums of both samples, read once. */
struct two_read {
    struct xdd s1a, s1b, mean1, mean2;
};

static void read_two(struct two_sample *s, double level, struct t_interval *out, struct two_read *r)
{
    r->s1a = moments_sum(&s->a);
    r->s1b = moments_sum(&s->b);
    r->mean1 = xdd_div(r->s1a, moments_int(s->a.n));
    r->mean2 = xdd_div(r->s1b, moments_int(s->b.n));
    out->n1 = s->a.n;
    out->n2 = s->b.n;
    out->mean1 = moments_mean(&s->a); /* the exact sums' quotients, rounded once */
    out->mean2 = moments_mean(&s->b);
    out->level = level;
}

/* estimate = mean1 - mean2: from the means' double-double values when the
 * difference keeps 2^-40 of them (then it is good to 2^-60), else exactly
 * as (n2 sum x1 - n1 sum x2) / (n1 n2). */
static struct xdd difference(struct two_sample *s, const struct two_read *r)
{
    struct xdd d = xdd_add(r->mean1, xdd_neg(r->mean2));
    int64_t big = r->mean1.e > r->mean2.e ? r->mean1.e : r->mean2.e;
    if (r->mean1.hi == 0 || r->mean2.hi == 0 || (d.hi != 0 && d.e - big >= -40))
        return d;
    struct xacc e = {0};
    xacc_add_mul_int(&e, &s->a.s1, s->b.n);
    xacc_add_mul_int(&e, &s->b.s1, -s->a.n);
    return xdd_div(xacc_value(&e), xdd_mul(moments_int(s->a.n), moments_int(s->b.n)));
}

int t_interval_pooled_p(struct two_sample *s, double level, int with_p, struct t_interval *out)
{
    int64_t nx = s->a.n, ny = s->b.n;
    if (nx < 1 || ny < 1 || nx + ny - 2 < 1)
        return -1;
    struct two_read r;
    read_two(s, level, out, &r);
    out->df = (double)(nx + ny - 2);
    /* se^2 = (ss1 + ss2) / (n1 + n2 - 2) (1/n1 + 1/n2), ssi = ndev2_i / ni */
    struct xdd ss = xdd_add(xdd_div(moments_ndev2_from(&s->a, r.s1a), moments_int(nx)),
                            xdd_div(moments_ndev2_from(&s->b, r.s1b), moments_int(ny)));
    struct xdd f = xdd_div(moments_int(nx + ny),
                           xdd_mul(moments_int(nx + ny - 2), xdd_mul(moments_int(nx), moments_int(ny))));
    struct xdd se = xdd_sqrt(xdd_mul(ss, f));
    finish(out, difference(s, &r), NAN, se, dd_i64(nx + ny - 2), with_p);
    return 0;
}

int t_interval_welch_p(struct two_sample *s, double level, int with_p, struct t_interval *out)
{
    int64_t nx = s->a.n, ny = s->b.n;
    if (nx < 2 || ny < 2)
        return -1;
    struct two_read r;
    read_two(s, level, out, &r);
    /* si^2 = ndev2_i / (ni^2 (ni - 1)): the squared standard errors */
    struct xdd sx2 = xdd_div(moments_ndev2_from(&s->a, r.s1a),
                             xdd_mul(xdd_mul(moments_int(nx), moments_int(nx)), moments_int(nx - 1)));
    struct xdd sy2 = xdd_div(moments_ndev2_from(&s->b, r.s1b),
                             xdd_mul(xdd_mul(moments_int(ny), moments_int(ny)), moments_int(ny - 1)));
    struct xdd se2 = xdd_add(sx2, sy2);
    struct xdd est = difference(s, &r);
    if (se2.hi == 0) {
        /* Welch-Satterthwaite is 0/0: df, t and p undefined (null). */
        out->df = out->t = out->p = NAN;
        out->estimate = out->lo = out->hi = xdd_double(est);
        out->se = 0;
        return 0;
    }
    struct xdd den = xdd_add(xdd_div(xdd_mul(sx2, sx2), moments_int(nx - 1)),
                             xdd_div(xdd_mul(sy2, sy2), moments_int(ny - 1)));
    dd df = xdd_dd(xdd_div(xdd_mul(se2, se2), den));
    out->df = df.hi;
    finish(out, est, NAN, xdd_sqrt(se2), df, with_p);
    return 0;
}

int t_interval_one(struct moments *m, double level, struct t_interval *out)
{
    if (m->n < 2)
        return -1;
    int64_t n = m->n;
    out->n1 = n;
    out->n2 = 0;
    out->mean2 = NAN;
    out->level = level;
    out->df = (double)(n - 1);
    struct xdd s1 = moments_sum(m), est = xdd_div(s1, moments_int(n));
    out->mean1 = moments_mean(m);
    struct xdd se = xdd_sqrt(
        xdd_div(moments_ndev2_from(m, s1), xdd_mul(xdd_mul(moments_int(n), moments_int(n)), moments_int(n - 1))));
    finish(out, est, out->mean1, se, dd_i64(n - 1), 1);
    return 0;
}

int t_interval_pooled(struct two_sample *s, double level, struct t_interval *out)
{
    return t_interval_pooled_p(s, level, 1, out);
}

int t_interval_welch(struct two_sample *s, double level, struct t_interval *out)
{
    return t_interval_welch_p(s, level, 1, out);
}
