/* Moments from exact sums. n sum x^2 - (sum x)^2 = n sum (x - mean)^2 is
 * formed exactly (an exact product of the sums, stats/xacc.c) and rounded
 * once to double-double; every result is then a few double-double
 * operations from it, so variance and standard deviation are within an
 * ulp or so of the exact values, for offsets of 1e9 and spreads of 1e-3
 * as for values near 1e-300 or 1e300 (whose squares no double holds). */
#include <math.h>

#include "stats/moments.h"
#include "stats/stats.h"

void moments_merge(struct moments *a, const struct moments *b)
{
    a->n += b->n;
    xacc_merge(&a->s1, &b->s1);
    xacc_merge(&a->s2, &b->s2);
}

struct xdd moments_int(int64_t n) { return xdd_from_dd(dd_i64(n)); }

struct xdd moments_ndev2(struct moments *m)
{
    struct xacc d = {0};
    xacc_add_mul_int(&d, &m->s2, m->n);
    xacc_add_mul(&d, &m->s1, &m->s1, -1);
    return xacc_value(&d);
}

struct xdd moments_mean_xdd(struct moments *m)
{
    return xdd_div(xacc_value(&m->s1), moments_int(m->n));
}

double moments_mean(struct moments *m)
{
    return m->n > 0 ? xdd_double(moments_mean_xdd(m)) : NAN;
}

/* n sum (x - mean)^2 / (n (n - 1)) */
static struct xdd variance_xdd(struct moments *m)
{
    return xdd_div(moments_ndev2(m), xdd_mul(moments_int(m->n), moments_int(m->n - 1)));
}

double moments_variance(struct moments *m)
{
    return m->n >= 2 ? xdd_double(variance_xdd(m)) : NAN;
}

double moments_stddev(struct moments *m)
{
    return m->n >= 2 ? xdd_double(xdd_sqrt(variance_xdd(m))) : NAN;
}
