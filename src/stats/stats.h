#ifndef BENCHDB_STATS_STATS_H
#define BENCHDB_STATS_STATS_H
/* The statistics behind benchdb's SQL functions, in plain C: no SQLite types,
 * no allocation except where a function says so.
 *
 * Every accumulator holds exact sums (stats/xacc.h, integers), so its
 * state after any sequence of additions and removals is a function of the
 * multiset of values alone: results are the same bits for any order of the
 * rows, and a window frame that removed values gives exactly what a fresh
 * accumulator over its rows gives. Results are computed from those exact
 * sums with double-double arithmetic and rounded once or twice: within a
 * few units of the last place of the exact value (tools/gen/ref/ holds the
 * 50-digit references). Accumulators are zero-initialised and merge
 * exactly (a PostgreSQL combine function). */
#include <stddef.h>
#include <stdint.h>

#include "stats/xacc.h"

/* n, sum x and sum x^2, exactly. Per row one split of x and three raw
 * chunk additions; the chunks touched are known from the range of binary
 * exponents seen, and the sums are carried every MOMENTS_ROWS rows. */
struct moments {
    int64_t n;
    struct xacc s1, s2;
    int32_t rows;          /* rows since the last carry */
    int32_t e_lo, e_hi;    /* 1100 - (least exponent seen), 1100 + (greatest); 0: none */
};
#define MOMENTS_ROWS 256   /* a chunk grows by less than 2^53 a row */

void moments_sync(struct moments *m);

static inline void moments_step(struct moments *m, double x, int64_t sign)
{
    int e;
    int64_t neg;
    uint64_t hi, lo, mant = xacc_split(x, &e, &neg);
    m->n += sign ? -1 : 1;
    xacc_add_raw(&m->s1, mant, e, neg ^ sign);
    xacc_square53(mant, &hi, &lo);
    xacc_add_raw(&m->s2, lo, 2 * e, sign);
    xacc_add_raw(&m->s2, hi, 2 * e + 53, sign);
    m->e_lo = 1100 - e > m->e_lo ? 1100 - e : m->e_lo;
    m->e_hi = 1100 + e > m->e_hi ? 1100 + e : m->e_hi;
    if (++m->rows >= MOMENTS_ROWS)
        moments_sync(m);
}

/* Inline: SQL aggregates call these once per row. x finite. */
static inline void moments_add(struct moments *m, double x) { moments_step(m, x, 0); }
static inline void moments_remove(struct moments *m, double x) { moments_step(m, x, -1); }
void moments_merge(struct moments *a, struct moments *b);
/* The readers carry the sums in place (same value, same results). */
double moments_mean(struct moments *m);     /* NaN when n == 0; sum / n rounded once */
double moments_fsum(struct moments *m);     /* the sum rounded once (0 for none) */
double moments_variance(struct moments *m); /* sample variance (n - 1); NaN when n < 2 */
double moments_stddev(struct moments *m);   /* its square root, without overflow */

/* Two samples: sample 1 (first is true) and sample 2. */
struct two_sample {
    struct moments a, b;
};
static inline void two_sample_add(struct two_sample *s, double x, int first)
{
    moments_add(first ? &s->a : &s->b, x);
}
static inline void two_sample_remove(struct two_sample *s, double x, int first)
{
    moments_remove(first ? &s->a : &s->b, x);
}

/* Geometric mean: x = m 2^e with m in [1, 2); the accumulator keeps the
 * exact sum of the exponents e and the exact sum of ln(m) rounded to a
 * multiple of 2^-62 (a 128-bit integer), so that the mean logarithm is
 * good to about 2^-60 absolute whatever the count, the order or the range
 * of the values, and removal subtracts exactly. ln(m) comes from a table
 * (mpmath) and three terms of an atanh series in IEEE basic operations
 * only: the same bits on every platform. x must be > 0 and finite. */
struct geomean_acc {
    int64_t n;
    int64_t exp2;     /* sum of e */
    uint64_t log_lo;  /* sum of round(ln(m) 2^62), low 64 bits */
    int64_t log_hi;   /* and high 64 bits */
};
void geomean_add(struct geomean_acc *g, double x);
void geomean_remove(struct geomean_acc *g, double x);
void geomean_merge(struct geomean_acc *a, const struct geomean_acc *b);
/* NaN when n == 0. */
double geomean_value(const struct geomean_acc *g);

/* A Student-t confidence interval (two-sided, mu = 0), as R's t.test()
 * defines it, computed from the exact sums: lo = estimate - q se and
 * hi = estimate + q se in double-double, t and p from a double-double t. */
struct t_interval {
    double estimate, lo, hi, se, df;
    double t, p;          /* NaN when se == 0 (reported as null) */
    double mean1, mean2;  /* mean2 unused by the one-sample interval */
    int64_t n1, n2;
    double level;
};

/* Each returns 0 and fills *out, or -1 when the interval does not exist
 * (too few values). level is in (0, 1). */
int t_interval_pooled(struct two_sample *s, double level, struct t_interval *out);
int t_interval_welch(struct two_sample *s, double level, struct t_interval *out);
int t_interval_one(struct moments *m, double level, struct t_interval *out);
/* The same, computing p only when with_p (else it is NaN): the t
 * distribution function for p is most of an interval's cost. */
int t_interval_pooled_p(struct two_sample *s, double level, int with_p, struct t_interval *out);
int t_interval_welch_p(struct two_sample *s, double level, int with_p, struct t_interval *out);

/* Student t distribution, within a few 1e-16 relative for df from 1e-3 to
 * 1e300 and probabilities down to 1e-300 (tdist.c).
 * df > 0; p in [0, 1] (0 and 1 give -inf and +inf). */
double t_cdf(double t, double df);       /* P(T <= t) */
double t_cdf_upper(double t, double df); /* P(T > t) */
double t_quantile(double p, double df);
/* q > 0 with P(|T| <= q) = level, 0 < level < 1: the half-width factor of
 * an interval, exact for any level (1 - level is never formed). */
double t_quantile_level(double level, double df);
/* 2 P(T > |t|) for t and df given in double-double (t may be infinite). */
double t_two_sided(dd t, dd df);

/* Order statistics. Each reorders x[0..n) in place (partial sorting,
 * O(n) expected, O(n log n) at worst). n >= 1. */
/* Puts the k-th smallest (0-based) at x[k], smaller ones before it and
 * larger ones after. */
void stats_select(double *x, size_t n, size_t k);
/* R's quantile(x, prob, type = 7); prob in [0, 1]. The index and the
 * interpolation are computed exactly and rounded once. */
double stats_quantile7(double *x, size_t n, double prob);
/* The same at prob = pct / 100 exactly (pct in [0, 100]): percentile(). */
double stats_percentile(double *x, size_t n, double pct);
/* R's median(x). */
double stats_median(double *x, size_t n);
/* Mean after dropping the k smallest and k largest; NaN when 2k >= n.
 * The kept values are summed exactly. */
double stats_trimmed_mean(double *x, size_t n, size_t k);
/* The mean of x[0..n), n >= 1, from the exact sum. */
double stats_mean_exact(const double *x, size_t n);

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
