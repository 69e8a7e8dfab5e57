#ifndef BENCHDB_STATS_RANK_H
#define BENCHDB_STATS_RANK_H
/* Rank and order-statistic methods in plain C: the Mann-Whitney test with a
 * choice of null distribution, the Hodges-Lehmann shift with its interval,
 * and the distribution-free interval of the median. Results never depend
 * on the order of the input: each function sorts or selects. */
#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"

/* ---- Mann-Whitney (mannwhitney.c) ---- */

enum mw_method {
    /* R's wilcox.test(x, y): exact when both samples are below 50 values
     * and there are no ties, else normal with tie and continuity
     * correction; two-sided p = min(1, 2 min(P(W <= u), P(W >= u))). */
    MW_R = 0,
    /* Always the exact conditional (permutation) distribution of W given
     * the tie pattern, ties or not; the two-sided p as MW_R's. Refused
     * (-3) when the work would pass MW_EXACT_WORK. */
    MW_EXACT,
    /* go-moremath's MannWhitneyUTest as benchstat v2 calls it: exact when
     * there are no ties and both samples have at most 50 values, or ties
     * and at most 25; exact with ties is the conditional distribution;
     * p = 1 when u = n1 n2 / 2, else 2 P(W <= min(u, n1 n2 - u)), except
     * that with exactly two distinct values go-moremath also counts W's
     * lowest value when min(u, n1 n2 - u) lies below it (mannwhitney.c,
     * benchstat_two_groups); else the normal approximation as MW_R. */
    MW_BENCHSTAT,
};

/* The exact conditional distribution takes at most N nsel (2 nsel nother + 1)
 * additions (N = n1 + n2, nsel the smaller sample, nother the other) and
 * (nsel + 1)(2 nsel nother + 1) doubles, both twice over once the counts
 * can pass 2^53 (double-double counts): 5e9 is two samples of 188, 1 to 2
 * seconds and 110 MB; two of 100 take about 0.1 s (CPU time). */
#define MW_EXACT_WORK 5e9

/* Sorts obs. Returns 0, -1 when n1 or n2 is 0, -2 when memory ran out, -3
 * when MW_EXACT would pass MW_EXACT_WORK. p is NaN when every value is
 * tied (MW_R, MW_BENCHSTAT; MW_EXACT gives 1, the only value W can take). */
int stats_mann_whitney_method(struct mw_obs *obs, size_t n, enum mw_method method, struct mw_result *out);

/* R's qwilcox(p, m, n) for p <= 0.5: the smallest q with P(W <= q) >= p
 * (less 10 DBL_EPSILON, as R). Returns -1 when memory ran out. */
int stats_qwilcox_lower(double p, int m, int n);
/* The same, and in *below R's pwilcox(max(q, 1) - 1, m, n) to the bit,
 * from the same counts (hodges_lehmann's confidence). */
int stats_qwilcox_lower_below(double p, int m, int n, double *below);

/* ---- Hodges-Lehmann (hodges_lehmann.c) ---- */

struct hl_result {
    double estimate, lo, hi;
    double level;      /* as asked */
    double confidence; /* achieved, exact case only (else NaN) */
    int64_t n1, n2;
    int exact;
    uint64_t work; /* steps taken (differences formed or compared, sort
                      comparisons as n log2 n): O(n log n), for the tests */
};
/* R's wilcox.test(x, y, conf.int = TRUE, conf.level = level): see the file.
 * Sorts obs. Returns 0, -1 when a sample is empty, -2 when memory ran out. */
int stats_hodges_lehmann(struct mw_obs *obs, size_t n, double level, struct hl_result *out);

/* The k-th smallest (1-based, 1 <= k <= n1 n2) of the differences
 * x[i] - y[j], x and y sorted ascending, without forming them: O(n1 + n2)
 * memory, O((n1 + n2) log(n1 n2)) expected time. NaN when memory ran out. */
double stats_shift_kth(const double *x, size_t n1, const double *y, size_t n2, uint64_t k);

/* ---- the median's interval (median_ci.c) ---- */

struct median_ci {
    double center;            /* R's median */
    double lo, hi;            /* x(lo_order), x(hi_order); NaN outside 1..n */
    int64_t lo_order, hi_order; /* 1-based; 0 and n + 1 stand for -inf, +inf */
    double confidence;        /* exact binomial coverage of [lo, hi] */
    double level;
    int64_t n;
};
/* benchstat's order statistics for the median at level (go-moremath
 * QuantileCI(n, 0.5, level)) with exact binomial arithmetic, and their
 * exact coverage. n >= 1, 0 < level < 1. */
void stats_median_orders(int64_t n, double level, int64_t *lo_order, int64_t *hi_order, double *confidence);
/* Reorders x. n >= 1. */
void stats_median_ci(double *x, size_t n, double level, struct median_ci *out);

#endif
