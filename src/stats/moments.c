/* Moments from exact sums. n sum x^2 - (sum x)^2 = n sum (x - mean)^2 is
 * taken from the sums' double-double values when the difference keeps at
 * least 2^-40 of n sum x^2 (then it is good to 2^-60 relative), and
 * formed exactly otherwise (an exact product of the sums, stats/xacc.c,
 * rounded once): offsets of 1e9 with spreads of 1e-3 take the exact way,
 * typical data the short one. Either way the result is a function of the
 * exact sums alone. Variance and standard deviation are then a few
 * double-double operations away, within an ulp or so of the exact values,
 * for values near 1e-300 or 1e300 too (whose squares no double holds). */
#include <math.h>

#include "stats/moments.h"
#include "stats/stats.h"

/* Makes the sums' ranges cover every chunk the raw additions touched and
 * carries them: after it the xacc functions may read them. */
void moments_sync(struct moments *m)
{
    m->rows = 0;
    if (m->e_hi == 0)
        return;
    int elo = 1100 - m->e_lo, ehi = m->e_hi - 1100;
    xacc_cover(&m->s1, xacc_chunk(elo), xacc_chunk(ehi) + 2);
    xacc_cover(&m->s2, xacc_chunk(2 * elo), xacc_chunk(2 * ehi + 53) + 2);
    xacc_carry(&m->s1);
    xacc_carry(&m->s2);
}

void moments_merge(struct moments *a, struct moments *b)
{
    moments_sync(a);
    moments_sync(b);
    a->n += b->n;
    xacc_merge(&a->s1, &b->s1);
    xacc_merge(&a->s2, &b->s2);
    a->e_lo = a->e_lo > b->e_lo ? a->e_lo : b->e_lo;
    a->e_hi = a->e_hi > b->e_hi ? a->e_hi : b->e_hi;
}

struct xdd moments_int(int64_t n) { return xdd_from_dd(dd_i64(n)); }

struct xdd xdd_neg(struct xdd a) { return (struct xdd){-a.hi, -a.lo, a.e}; }

struct xdd moments_sum(struct moments *m)
{
    moments_sync(m);
    return xacc_value(&m->s1);
}

struct xdd moments_ndev2_from(struct moments *m, struct xdd s1)
{
    moments_sync(m);
    struct xdd ns2 = xdd_mul(xacc_value(&m->s2), moments_int(m->n));
    struct xdd d = xdd_add(ns2, xdd_neg(xdd_mul(s1, s1)));
    /* ns2 and s1^2 are each within 2^-103 of their exact values, so d is
     * within 2^-101 ns2 of n sum x^2 - (sum x)^2: 2^-60 of d when
     * d >= 2^-41 ns2. */
    if (d.hi > 0 && d.e - ns2.e >= -40)
        return d;
    struct xacc x = {0};
    xacc_add_mul_int(&x, &m->s2, m->n);
    xacc_add_mul(&x, &m->s1, &m->s1, -1);
    return xacc_value(&x);
}

struct xdd moments_ndev2(struct moments *m) { return moments_ndev2_from(m, moments_sum(m)); }

struct xdd moments_mean_xdd(struct moments *m) { return xdd_div(moments_sum(m), moments_int(m->n)); }

double moments_mean(struct moments *m)
{
    if (m->n <= 0)
        return NAN;
    moments_sync(m);
    return xacc_div_double(&m->s1, m->n);
}

double moments_fsum(struct moments *m)
{
    moments_sync(m);
    return xacc_double(&m->s1);
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
