/* Student-t confidence intervals, step for step as R's t.test() computes
 * them (mu = 0, two-sided), so that results agree with R to the last few
 * bits. The difference of two means comes from moments with one common
 * shift, which keeps it exact under large offsets. */
#include <math.h>

#include "stats/stats.h"

/* Fills estimate, se, df into *out first; this finishes t, p, lo, hi (p
 * only when with_p: its t distribution function is most of the cost). */
static void finish(struct t_interval *out, int with_p)
{
    double alpha = 1 - out->level;
    double q = t_quantile(1 - alpha / 2, out->df);
    if (out->se == 0) {
        out->t = out->p = NAN;
        out->lo = out->hi = out->estimate;
        return;
    }
    out->t = out->estimate / out->se;
    out->p = with_p ? 2 * t_cdf(-fabs(out->t), out->df) : NAN;
    out->lo = (out->t - q) * out->se;
    out->hi = (out->t + q) * out->se;
}

static void fill_two(const struct two_sample *s, double level, struct t_interval *out)
{
    out->n1 = s->a.n;
    out->n2 = s->b.n;
    out->mean1 = moments_mean(&s->a);
    out->mean2 = moments_mean(&s->b);
    out->estimate = moments_mean_shifted(&s->a) - moments_mean_shifted(&s->b);
    out->level = level;
}

int t_interval_pooled_p(const struct two_sample *s, double level, int with_p, struct t_interval *out)
{
    int64_t nx = s->a.n, ny = s->b.n;
    if (nx < 1 || ny < 1 || nx + ny - 2 < 1)
        return -1;
    fill_two(s, level, out);
    out->df = (double)(nx + ny - 2);
    double v = 0;
    if (nx > 1)
        v += (double)(nx - 1) * moments_variance(&s->a);
    if (ny > 1)
        v += (double)(ny - 1) * moments_variance(&s->b);
    v /= out->df;
    out->se = sqrt(v * (1 / (double)nx + 1 / (double)ny));
    finish(out, with_p);
    return 0;
}

int t_interval_welch_p(const struct two_sample *s, double level, int with_p, struct t_interval *out)
{
    int64_t nx = s->a.n, ny = s->b.n;
    if (nx < 2 || ny < 2)
        return -1;
    fill_two(s, level, out);
    double sx = sqrt(moments_variance(&s->a) / (double)nx);
    double sy = sqrt(moments_variance(&s->b) / (double)ny);
    out->se = sqrt(sx * sx + sy * sy);
    double se2 = out->se * out->se, sx2 = sx * sx, sy2 = sy * sy;
    /* Welch-Satterthwaite; undefined (NaN, reported as null) when se == 0. */
    out->df = se2 * se2 / (sx2 * sx2 / (double)(nx - 1) + sy2 * sy2 / (double)(ny - 1));
    if (out->se == 0) {
        out->df = NAN;
        out->t = out->p = NAN;
        out->lo = out->hi = out->estimate;
        return 0;
    }
    finish(out, with_p);
    return 0;
}

int t_interval_one(const struct moments *m, double level, struct t_interval *out)
{
    if (m->n < 2)
        return -1;
    out->n1 = m->n;
    out->n2 = 0;
    out->mean1 = out->estimate = moments_mean(m);
    out->mean2 = NAN;
    out->level = level;
    out->df = (double)(m->n - 1);
    out->se = sqrt(moments_variance(m) / (double)m->n);
    finish(out, 1);
    return 0;
}

int t_interval_pooled(const struct two_sample *s, double level, struct t_interval *out)
{
    return t_interval_pooled_p(s, level, 1, out);
}

int t_interval_welch(const struct two_sample *s, double level, struct t_interval *out)
{
    return t_interval_welch_p(s, level, 1, out);
}
