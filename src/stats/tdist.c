/* Student t distribution from GSL's regularized incomplete beta function,
 * arranged as R's pt() arranges it so that both tails keep their relative
 * precision. (GSL's gsl_cdf_tdist_P switches to a Cornish-Fisher
 * approximation for df > 30 that is off by up to 1e-8 in the tails, and its
 * inverse fails beyond about 1e-20; hence this file.) Quantiles start from
 * GSL's inverse and are refined with Newton steps on these functions. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>

#include "stats/stats.h"

/* P(T > |t|) for df > 0, as R's pt(-|t|, df). */
static double upper_tail(double t, double df)
{
    t = fabs(t);
    if (isinf(t))
        return 0.0;
    double nx = 1 + (t / df) * t;
    if (nx > 1e100) {
        double lval = -0.5 * df * (2 * log(t) - log(df)) - gsl_sf_lnbeta(0.5 * df, 0.5) - log(0.5 * df);
        return 0.5 * exp(lval);
    }
    /* I_x(df/2, 1/2) at x = df / (df + t^2). For large df, x is close to 1
     * and its rounding alone would cost digits (R avoids forming it), so
     * the rounding error of x is computed exactly and corrected for with
     * the first-order term dx * dI/dx, the beta density. */
    double s = t * t, e1 = fma(t, t, -s);
    double d = df + s, bb = d - df, e2 = (df - (d - bb)) + (s - bb);
    double x = df / d;
    double dx = (fma(-x, d, df) - x * (e1 + e2)) / d;
    double i = gsl_sf_beta_inc(0.5 * df, 0.5, x);
    if (dx != 0)
        i += dx * gsl_ran_beta_pdf(x, 0.5 * df, 0.5);
    return 0.5 * i;
}

/* P(0 < T <= |t|): accurate in relative terms for small |t|. */
static double central(double t, double df)
{
    double t2 = t * t;
    return 0.5 * gsl_sf_beta_inc(0.5, 0.5 * df, t2 / (df + t2));
}

double t_cdf(double t, double df)
{
    if (isinf(t))
        return t > 0 ? 1.0 : 0.0;
    /* Near the centre the tail is 0.5 - central, with no cancellation
     * (central < 0.25); further out, the tail's own formula. */
    double c = central(t, df);
    if (t <= 0)
        return c < 0.25 ? 0.5 - c : upper_tail(t, df);
    return c < 0.25 ? 0.5 + c : 1.0 - upper_tail(t, df);
}

double t_cdf_upper(double t, double df)
{
    return t_cdf(-t, df);
}

/* log of the density at x >= 0. */
static double log_pdf(double x, double df)
{
    double l = log1p((x / df) * x);
    if (!isfinite(l))
        l = 2 * log(x) - log(df);
    return gsl_sf_lngamma(0.5 * (df + 1)) - gsl_sf_lngamma(0.5 * df) - 0.5 * log(df * M_PI) - 0.5 * (df + 1) * l;
}

/* x > 0 with P(T > x) = p, for 0 < p < 0.5. */
static double upper_quantile(double p, double df)
{
    double x = -gsl_cdf_tdist_Pinv(p, df);
    if (!(x > 0) || !isfinite(x)) {
        /* Beyond GSL's range: the tail's leading term, c x^-df. */
        double lx = (0.5 * df * log(df) - gsl_sf_lnbeta(0.5 * df, 0.5) - log(df) - log(p)) / df;
        x = exp(lx);
        if (!isfinite(x))
            return INFINITY;
    }
    if (p > 0.25) {
        /* Near the centre: solve central(x) = 0.5 - p (exact). */
        double c = 0.5 - p;
        for (int i = 0; i < 50; i++) {
            double step = (central(x, df) - c) / exp(log_pdf(x, df));
            x -= step;
            if (fabs(step) <= 1e-16 * fabs(x))
                break;
        }
        return x;
    }
    /* In the tail: Newton on log P(T > e^u) = log p, in u = log x, where
     * the function is nearly linear. */
    double u = log(x), lp = log(p);
    for (int i = 0; i < 100; i++) {
        double xu = exp(u);
        double tail = upper_tail(xu, df);
        if (!(tail > 0))
            break;
        double g = log(tail) - lp;
        double dg = -exp(log_pdf(xu, df) + u - log(tail));
        double step = g / dg;
        if (!isfinite(step))
            break;
        u -= step;
        if (fabs(step) <= 1e-16 * fabs(u) || fabs(step) < 1e-300)
            break;
    }
    return exp(u);
}

/* upper_quantile costs tens of microseconds (Newton steps on incomplete
 * beta functions), and a rule evaluates hundreds of intervals that all ask
 * for the same (level, df): the last few answers are remembered, per
 * thread. A pure function's memo: the results are bit for bit the same. */
#define QUANTILE_MEMO 4
static _Thread_local struct {
    double p, df, x;
} quantile_memo[QUANTILE_MEMO];
static _Thread_local unsigned quantile_memo_next;

static double upper_quantile_memo(double p, double df)
{
    for (int i = 0; i < QUANTILE_MEMO; i++)
        if (quantile_memo[i].p == p && quantile_memo[i].df == df)
            return quantile_memo[i].x;
    double x = upper_quantile(p, df);
    unsigned k = quantile_memo_next++ % QUANTILE_MEMO;
    quantile_memo[k].p = p;
    quantile_memo[k].df = df;
    quantile_memo[k].x = x;
    return x;
}

double t_quantile(double p, double df)
{
    if (isnan(p) || isnan(df) || p < 0 || p > 1 || !(df > 0))
        return NAN;
    if (p == 0)
        return -INFINITY;
    if (p == 1)
        return INFINITY;
    if (p == 0.5)
        return 0.0;
    if (p < 0.5)
        return -upper_quantile_memo(p, df);
    return upper_quantile_memo(1.0 - p, df); /* 1 - p is exact for p >= 0.5 */
}
