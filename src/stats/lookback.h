#ifndef BENCHDB_STATS_LOOKBACK_H
#define BENCHDB_STATS_LOOKBACK_H
/* Conbench's lookback z-score distribution (conbench/entities/history.py
 * at 3af4a55: _detect_shifts_with_trimmed_estimators, then
 * _add_rolling_stats_columns_to_df as of the last result): the mean and
 * the residual standard deviation a contender's z-score is taken against.
 * Plain C, no allocation: the caller gives the workspace. */
#include <stddef.h>

struct lookback {
    size_t n;        /* results in the distribution */
    size_t outliers; /* of them left out as outliers */
    double mean;     /* mean of the others; NaN when n == 0 */
    double stddev;   /* sample sd of their residuals; NaN when fewer than 2 */
};

/* x[0..n): the distribution's single-value summaries, oldest first (the
 * results of up to DISTRIBUTION_COMMITS commits before the contender, so
 * that every rolling window of that size spans all of them).
 *  1. Outliers: d[i] = x[i] - x[i-1] for i >= 1; the diffs outside
 *     [q05, q95] (numpy's linear quantiles of the diffs) are dropped for
 *     the estimates; m[i], s[i] = mean and sample sd of the kept diffs up
 *     to i; shift[i] = |d[i] - m[i]| / s[i] > 5 (compared as squares;
 *     false when s[i] is undefined, true for a nonzero d[i] - m[i] over
 *     s[i] = 0); x[i] is an outlier when shift[i] and shift[i+1] (a spike
 *     that comes back).
 *  2. Over the rest, in order: residual = x - mean of the earlier ones (0
 *     for the first); mean = their mean; stddev = sample sd of the
 *     residuals.
 * work: room for 2 n doubles. */
void lookback_baseline(const double *x, size_t n, double *work, struct lookback *out);

#endif
