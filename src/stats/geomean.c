/* The geometric mean from exact integer sums (see struct geomean_acc).
 *
 * Per value, x = m 2^e with m in [1, 2) read from the bits, and
 * ln(m) = ln(c) + 2 atanh(s), s = (m - c) / (m + c), where c is the centre
 * of m's 1/128-wide bin and ln(c) 2^62 a table integer. m - c is exact
 * (Sterbenz), |s| <= 1/512, and 2s (1 + s^2/3 + s^4/5) is within 3e-20 of
 * 2 atanh(s); the roundings of m + c and of the division put an error of
 * at most about 1e-18 into the term, so each ln(m) is within 2^-59 of the
 * true value before it is truncated to a multiple of 2^-62 and summed
 * exactly. The mean logarithm is then (sum e ln 2 + sum ln(m)) / n, which
 * is taken apart as q ln 2 + z with q = floor(sum e / n) and z in [0, 1.4)
 * so that exp(z) is computed in double-double without the amplification a
 * large mean logarithm (690 for values near 1e300) would bring. */
#include <math.h>
#include <string.h>

#include "stats/stats.h"

#include "stats/log_table.h"

/* round-toward-zero(ln(m) 2^62) and e for x > 0 finite. */
static inline int64_t split_log(double x, int64_t *e)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    int be = (int)(u >> 52);
    int64_t shift = 0;
    if (be == 0) {
        /* Subnormal: scale by 2^64 (exact) and count it out. */
        x *= 0x1p64;
        memcpy(&u, &x, sizeof u);
        be = (int)(u >> 52);
        shift = 64;
    }
    *e = be - 1023 - shift;
    uint64_t f = u & ((UINT64_C(1) << 52) - 1);
    int j = (int)(f >> 45);
    uint64_t mu = f | (UINT64_C(1023) << 52);
    double m;
    memcpy(&m, &mu, sizeof m);
    double c = (double)(257 + 2 * j) * (1.0 / 256);
    double s = (m - c) / (m + c);
    double s2 = s * s;
    double l = 2 * s + 2 * s * (s2 * (1.0 / 3 + s2 * (1.0 / 5)));
    return log_table[j] + (int64_t)(l * 0x1p62);
}

/* (hi, lo) += v, a 128-bit two's complement sum. */
static inline void add128(uint64_t *lo, int64_t *hi, int64_t v)
{
    uint64_t old = *lo;
    *lo += (uint64_t)v;
    *hi += (v < 0 ? -1 : 0) + (*lo < old);
}

void geomean_add(struct geomean_acc *g, double x)
{
    int64_t e, l = split_log(x, &e);
    g->n++;
    g->exp2 += e;
    add128(&g->log_lo, &g->log_hi, l);
}

void geomean_remove(struct geomean_acc *g, double x)
{
    int64_t e, l = split_log(x, &e);
    g->n--;
    g->exp2 -= e;
    add128(&g->log_lo, &g->log_hi, -l);
}

void geomean_merge(struct geomean_acc *a, const struct geomean_acc *b)
{
    a->n += b->n;
    a->exp2 += b->exp2;
    uint64_t old = a->log_lo;
    a->log_lo += b->log_lo;
    a->log_hi += b->log_hi + (a->log_lo < old);
}

double geomean_value(const struct geomean_acc *g)
{
    if (g->n <= 0)
        return NAN;
    int64_t n = g->n, q = g->exp2 / n, r = g->exp2 % n;
    if (r < 0) {
        r += n;
        q--;
    }
    /* sum ln(m) 2^62 = log_hi 2^64 + log_lo >= 0, in 32-bit pieces (exact
     * doubles) summed in double-double. */
    dd f = dd_d((double)g->log_hi * 0x1p64);
    f = dd_add_d(f, (double)(g->log_lo >> 32) * 0x1p32);
    f = dd_add_d(f, (double)(g->log_lo & 0xffffffffu));
    dd z = dd_add(dd_mul(dd_i64(r), DD_LN2), dd_ldexp(f, -62));
    z = dd_div(z, dd_i64(n));
    dd y = dd_exp(z);
    double v = y.hi + y.lo;
    if (q < -1100)
        return 0.0;
    if (q < -1000) {
        /* A subnormal result: one rounding, at 2^-1074. */
        return ldexp(ldexp(v, -800), (int)q + 800);
    }
    return ldexp(v, (int)(q > 2000 ? 2000 : q));
}
