#ifndef BENCHDB_STATS_STATS_H
#define BENCHDB_STATS_STATS_H
/* The statistics behind benchdb's SQL functions, in plain C: no SQLite types,
 * no allocation except where a function says so. Every result is meant to
 * agree with R 4.2 to a relative error of 1e-12 (tests/r/ holds the proof).
 *
 * Accumulators are zero-initialised and support removal (for SQL window
 * frames, which remove the oldest row first). */
#include <stddef.h>
#include <stdint.h>

#include "stats/sum.h"

/* Running moments of x. Values are taken relative to the first value ever
 * added (the shift), so that large offsets with a tiny spread keep their
 * precision: 1e9 + {1,2,3,4} has variance exactly 5/3. The mean is
 * shift + (compensated sum of x - shift) / n; the second central moment
 * follows Welford's update (never sum of squares minus square of sums). */
struct moments {
    int64_t n;
    int shifted;
    double shift;
    struct ksum sum; /* of x - shift */
    double mean;     /* Welford's running mean of x - shift */
    double m2;       /* sum of squared deviations from the mean */
};

/* Adds x: inline, as SQL aggregates call it once per row. */
static inline void moments_add(struct moments *m, double x)
{
    if (!m->shifted) {
        m->shift = x;
        m->shifted = 1;
    }
    double y = x - m->shift;
    m->n++;
    ksum_add(&m->sum, y);
    double delta = y - m->mean;
    m->mean += delta / (double)m->n;
    m->m2 += delta * (y - m->mean);
}
void moments_remove(struct moments *m, double x);
/* Mean of the values relative to the shift, accurate to the last bits. */
double moments_mean_shifted(const struct moments *m);
double moments_mean(const struct moments *m);
/* Sample variance (n - 1); NaN when n < 2. */
double moments_variance(const struct moments *m);

/* Two samples with one common shift, so that the difference of their
 * means is exact however large the common offset. */
struct two_sample {
    struct moments a, b; /* sample 1 (first is true), sample 2 */
};
static inline void two_sample_add(struct two_sample *s, double x, int first)
{
    if (!s->a.shifted) {
        s->a.shift = s->b.shift = x;
        s->a.shifted = s->b.shifted = 1;
    }
    moments_add(first ? &s->a : &s->b, x);
}
void two_sample_remove(struct two_sample *s, double x, int first);

/* Geometric mean: the running product of the values, x1 x2 ... xn =
 * prod 2^exp2, with powers of two moved into exp2 whenever prod leaves
 * [2^-500, 2^500] (and out of an x outside that range before it is
 * multiplied in), so that it can neither overflow nor underflow. A
 * multiplication per value instead of a log: each rounds by at most
 * 2^-53 relative, so n of them put a relative error of at most about
 * n 2^-53 into the product, an absolute one of n 2^-53 into the sum of
 * logs, and 2^-53 into their mean: the accuracy of the compensated sum of
 * logs this replaced. Removal divides. x must be > 0 and finite. */
struct geomean_acc {
    int64_t n;
    double prod;  /* 1 when n == 0 (read as such while zero-initialised) */
    int64_t exp2;
};
#define GEOMEAN_LO 0x1p-500
#define GEOMEAN_HI 0x1p500
void geomean_renormalise(double *x, int64_t *exp2, int sign);
static inline void geomean_add(struct geomean_acc *g, double x)
{
    if (g->n++ == 0) {
        g->prod = 1;
        g->exp2 = 0;
    }
    if (!(x >= GEOMEAN_LO && x <= GEOMEAN_HI))
        geomean_renormalise(&x, &g->exp2, 1);
    g->prod *= x;
    if (!(g->prod >= GEOMEAN_LO && g->prod <= GEOMEAN_HI))
        geomean_renormalise(&g->prod, &g->exp2, 1);
}
void geomean_remove(struct geomean_acc *g, double x);
/* NaN when n == 0. */
double geomean_value(const struct geomean_acc *g);

/* A Student-t confidence interval, computed as R's t.test() does. */
struct t_interval {
    double estimate, lo, hi, se, df;
    double t, p;          /* NaN when se == 0 (reported as null) */
    double mean1, mean2;  /* mean2 unused by the one-sample interval */
    int64_t n1, n2;
    double level;
};

/* Each returns 0 and fills *out, or -1 when the interval does not exist
 * (too few values). level is in (0, 1). */
int t_interval_pooled(const struct two_sample *s, double level, struct t_interval *out);
int t_interval_welch(const struct two_sample *s, double level, struct t_interval *out);
int t_interval_one(const struct moments *m, double level, struct t_interval *out);
/* The same, computing p only when with_p (else it is NaN): the t
 * distribution function for p is most of an interval's cost. */
int t_interval_pooled_p(const struct two_sample *s, double level, int with_p, struct t_interval *out);
int t_interval_welch_p(const struct two_sample *s, double level, int with_p, struct t_interval *out);

/* Student t distribution (GSL, Newton-refined to match R's pt/qt).
 * df > 0; p in [0, 1] (0 and 1 give -inf and +inf). */
double t_cdf(double t, double df);       /* P(T <= t) */
double t_cdf_upper(double t, double df); /* P(T > t) */
double t_quantile(double p, double df);

/* Order statistics. Each reorders x[0..n) in place (partial sorting,
 * O(n) expected, O(n log n) at worst). n >= 1. */
/* Puts the k-th smallest (0-based) at x[k], smaller ones before it and
 * larger ones after. */
void stats_select(double *x, size_t n, size_t k);
/* R's quantile(x, prob, type = 7); prob in [0, 1]. */
double stats_quantile7(double *x, size_t n, double prob);
/* R's median(x). */
double stats_median(double *x, size_t n);
/* Mean after dropping the k smallest and k largest; NaN when 2k >= n. */
double stats_trimmed_mean(double *x, size_t n, size_t k);

/* Wilcoxon rank-sum / Mann-Whitney U test, as R's wilcox.test(x, y) with
 * its defaults (two-sided, exact when both samples are below 50 values and
 * there are no ties, else normal with tie and continuity correction). */
struct mw_obs {
    double x;
    int first; /* nonzero: sample x (first), else y */
};
struct mw_result {
    double u;       /* R's W: rank sum of the first sample - n1 (n1 + 1) / 2 */
    double p;       /* two-sided; NaN when all values are tied */
    int64_t n1, n2;
    int exact;
};
/* Sorts obs. Returns 0, -1 when n1 or n2 is 0, -2 when memory ran out. */
int stats_mann_whitney(struct mw_obs *obs, size_t n, struct mw_result *out);
/* P(W <= q), or P(W > q) when !lower_tail, under the null for samples of
 * sizes m and n (R's pwilcox). Returns NaN when memory ran out. */
double stats_pwilcox(double q, int m, int n, int lower_tail);

#endif
