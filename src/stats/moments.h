#ifndef BENCHDB_STATS_MOMENTS_H
#define BENCHDB_STATS_MOMENTS_H
/* What the interval code reads from moments: exact quantities rounded once
 * to double-double with a free exponent (stats/xacc.h). */
#include "stats/stats.h"

struct xdd moments_int(int64_t n);
/* n sum x^2 - (sum x)^2 = n sum (x - mean)^2 >= 0. */
struct xdd moments_ndev2(struct moments *m);
/* sum x / n. */
struct xdd moments_mean_xdd(struct moments *m);

#endif
