#ifndef BENCHDB_STATS_DD_H
#define BENCHDB_STATS_DD_H
/* Double-double arithmetic: a number hi + lo with |lo| <= ulp(hi) / 2, about
 * 106 significant bits. Used where a result must be right to the last bit
 * of a double after cancellation or amplification (finishing exact sums,
 * the t distribution's tails), never per row.
 *
 * Products use fma(), which C requires to round once: the library's
 * software fma where the processor has none, so results are the same
 * everywhere. The exact error terms below (Knuth's two-sum, fma's
 * two-product) are the classical ones; dd_add, dd_mul and dd_div follow
 * Joldes, Muller and Popescu, "Tight and rigorous error bounds for basic
 * building blocks of double-word arithmetic" (2017), with relative errors
 * below 3u^2, 5u^2 and 10u^2 (u = 2^-53). */
#include <math.h>
#include <stdint.h>

/* No fused multiply-adds but the explicit fma() calls: the error terms
 * need each operation rounded on its own. GCC does not contract in ISO C
 * mode (-std=c17); clang needs telling. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

typedef struct {
    double hi, lo;
} dd;

static inline dd dd_make(double hi, double lo) { return (dd){hi, lo}; }
static inline dd dd_d(double x) { return (dd){x, 0.0}; }

/* a + b exactly, for any a, b (no overflow). */
static inline dd dd_two_sum(double a, double b)
{
    double s = a + b, bb = s - a;
    return (dd){s, (a - (s - bb)) + (b - bb)};
}

/* a + b exactly, given |a| >= |b| (or a == 0). */
static inline dd dd_fast_two_sum(double a, double b)
{
    double s = a + b;
    return (dd){s, b - (s - a)};
}

/* a * b exactly, barring underflow of the error term. */
static inline dd dd_two_prod(double a, double b)
{
    double p = a * b;
    return (dd){p, fma(a, b, -p)};
}

/* An int64 exactly (two doubles). */
static inline dd dd_i64(int64_t n)
{
    double hi = (double)n;
    /* hi is n rounded; n - (int64)hi is exact in int64 unless hi is 2^63,
     * which it is only for n near INT64_MAX: (n - 2^62) - 2^62 then. */
    if (hi >= 0x1p63)
        return dd_fast_two_sum(hi, (double)((n - INT64_C(0x4000000000000000)) - INT64_C(0x4000000000000000)));
    return dd_fast_two_sum(hi, (double)(n - (int64_t)hi));
}

static inline dd dd_neg(dd a) { return (dd){-a.hi, -a.lo}; }

static inline dd dd_add(dd a, dd b)
{
    dd s = dd_two_sum(a.hi, b.hi), t = dd_two_sum(a.lo, b.lo);
    s.lo += t.hi;
    s = dd_fast_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return dd_fast_two_sum(s.hi, s.lo);
}

static inline dd dd_sub(dd a, dd b) { return dd_add(a, dd_neg(b)); }

static inline dd dd_add_d(dd a, double b)
{
    dd s = dd_two_sum(a.hi, b);
    s.lo += a.lo;
    return dd_fast_two_sum(s.hi, s.lo);
}

static inline dd dd_mul(dd a, dd b)
{
    dd p = dd_two_prod(a.hi, b.hi);
    p.lo += a.hi * b.lo + a.lo * b.hi;
    return dd_fast_two_sum(p.hi, p.lo);
}

static inline dd dd_mul_d(dd a, double b)
{
    dd p = dd_two_prod(a.hi, b);
    p.lo += a.lo * b;
    return dd_fast_two_sum(p.hi, p.lo);
}

static inline dd dd_div(dd a, dd b)
{
    double q1 = a.hi / b.hi;
    dd r = dd_sub(a, dd_mul_d(b, q1));
    double q2 = r.hi / b.hi;
    r = dd_sub(r, dd_mul_d(b, q2));
    double q3 = r.hi / b.hi;
    dd q = dd_fast_two_sum(q1, q2);
    return dd_add_d(q, q3);
}

/* a / b for a double b (Joldes et al.'s DWDivFP: relative error < 3.5u^2). */
static inline dd dd_div_d(dd a, double b)
{
    double q = a.hi / b;
    dd p = dd_two_prod(q, b);
    double d = ((a.hi - p.hi) - p.lo + a.lo) / b;
    return dd_fast_two_sum(q, d);
}

/* a * 2^k, exact barring overflow and underflow. */
static inline dd dd_ldexp(dd a, int k) { return (dd){ldexp(a.hi, k), ldexp(a.lo, k)}; }

/* Square root of a >= 0 (one Newton step on the double root). */
static inline dd dd_sqrt(dd a)
{
    if (!(a.hi > 0))
        return dd_d(a.hi == 0 ? 0.0 : NAN);
    double r = sqrt(a.hi);
    dd r2 = dd_two_prod(r, r);
    dd e = dd_sub(a, r2);
    return dd_fast_two_sum(r, e.hi / (2 * r));
}

static inline int dd_lt(dd a, dd b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }

/* Transcendental functions, accurate to about 2^-100 relative (dd.c). */
dd dd_exp(dd x);   /* 0 below -745.2, +inf above 709.8 */
dd dd_expm1(dd x); /* exp(x) - 1 without cancellation for small x */
dd dd_log(dd x);   /* x > 0 */
dd dd_log1p(dd x); /* x > -1 */

/* Constants. */
extern const dd DD_LN2, DD_LN_PI, DD_PI;

#endif
