#ifndef BENCHDB_STATS_MOMENTS_H
#define BENCHDB_STATS_MOMENTS_H
/* What the interval code reads from moments: exact quantities rounded once
 * to double-double with a free exponent (stats/xacc.h). */
#include "stats/stats.h"

struct xdd moments_int(int64_t n);
struct xdd xdd_neg(struct xdd a);
/* sum x */
struct xdd moments_sum(struct moments *m);
/* n sum x^2 - (sum x)^2 = n sum (x - mean)^2 >= 0, to 2^-60 relative at
 * worst; _from takes sum x as moments_sum gave it. */
struct xdd moments_ndev2(struct moments *m);
struct xdd moments_ndev2_from(struct moments *m, struct xdd s1);
/* sum x / n. */
struct xdd moments_mean_xdd(struct moments *m);

#endif
