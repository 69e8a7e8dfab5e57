#ifndef BENCHDB_STATS_NORMAL_H
#define BENCHDB_STATS_NORMAL_H
/* The standard normal distribution's quantile (R's qnorm). */

/* z with P(Z <= z) = p, for p in [0, 1]; 0 and 1 give -inf and +inf.
 * Wichura's AS 241 (PPND16), as R and GSL compute it: relative error
 * about 1e-16. */
double normal_quantile(double p);

#endif
