/* exp, expm1, log and log1p in double-double. exp reduces x to
 * r = x - k ln 2 with |r| <= ln(2)/2, then r / 2^8, sums the Taylor series
 * of expm1 to the 11th power (the first term left out is below 2^-120 of
 * the sum) and undoes the division by eight squarings in the form
 * expm1(2r) = expm1(r) (2 + expm1(r)), which keeps small results relative.
 * log and log1p take one Newton step from the library's double result on
 * exp: the double's error e becomes about e^2 / 2. */
#include "stats/dd.h"

const dd DD_LN2 = {0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};
const dd DD_LN_PI = {0x1.250d048e7a1bdp+0, 0x1.7abf2ad8d5088p-57};
const dd DD_PI = {0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53};

/* 1/n! for n = 2..12 (mpmath, 300 bits). */
static const dd inv_fact[] = {
    {0x1.0000000000000p-1, 0x0.0p+0},
    {0x1.5555555555555p-3, 0x1.5555555555555p-57},
    {0x1.5555555555555p-5, 0x1.5555555555555p-59},
    {0x1.1111111111111p-7, 0x1.1111111111111p-63},
    {0x1.6c16c16c16c17p-10, -0x1.f49f49f49f49fp-65},
    {0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-73},
    {0x1.a01a01a01a01ap-16, 0x1.a01a01a01a01ap-76},
    {0x1.71de3a556c734p-19, -0x1.c154f8ddc6c00p-73},
    {0x1.27e4fb7789f5cp-22, 0x1.cbbc05b4fa99ap-76},
    {0x1.ae64567f544e4p-26, -0x1.c062e06d1f209p-80},
    {0x1.1eed8eff8d898p-29, -0x1.2aec959e14c06p-83},
};

/* expm1(r) for |r| <= 0.35 (about ln(2)/2). */
static dd expm1_reduced(dd r)
{
    enum { HALVINGS = 8 };
    r = dd_ldexp(r, -HALVINGS); /* |r| < 1.4e-3: r^12/12! < 2^-150 */
    dd s = inv_fact[10];
    for (int n = 9; n >= 0; n--)
        s = dd_add(dd_mul(s, r), inv_fact[n]);
    s = dd_mul(s, dd_mul(r, r));
    s = dd_add(s, r); /* r + r^2/2! + ... + r^12/12! */
    for (int i = 0; i < HALVINGS; i++)
        s = dd_mul(s, dd_add_d(s, 2.0));
    return s;
}

dd dd_exp(dd x)
{
    if (x.hi > 709.8)
        return dd_d(INFINITY);
    if (x.hi < -745.2)
        return dd_d(0.0);
    double k = nearbyint(x.hi / DD_LN2.hi);
    dd r = dd_sub(x, dd_mul_d(DD_LN2, k));
    dd e = dd_add_d(expm1_reduced(r), 1.0);
    int ki = (int)k;
    if (ki < -1020) {
        /* Subnormal result: scale in two steps so that hi rounds once. */
        e = dd_ldexp(e, ki + 600);
        return dd_d(ldexp(e.hi + e.lo, -600));
    }
    return dd_ldexp(e, ki);
}

dd dd_expm1(dd x)
{
    if (fabs(x.hi) <= 0.35)
        return expm1_reduced(x);
    return dd_add_d(dd_exp(x), -1.0);
}

dd dd_log(dd x)
{
    if (!(x.hi > 0))
        return dd_d(x.hi == 0 ? -INFINITY : NAN);
    if (isinf(x.hi))
        return x;
    /* x = m 2^k with m in [0.5, 1): ln x = k ln 2 + ln m, so that exp(-y)
     * below neither overflows nor underflows. */
    int k;
    frexp(x.hi, &k);
    dd m = dd_ldexp(x, -k);
    double y = log(m.hi);
    /* y + (m e^-y - 1); m e^-y is near 1 */
    dd l = dd_add_d(dd_add_d(dd_mul(m, dd_exp(dd_d(-y))), -1.0), y);
    return k ? dd_add(l, dd_mul_d(DD_LN2, (double)k)) : l;
}

dd dd_log1p(dd x)
{
    if (!(x.hi > -1))
        return dd_d(x.hi == -1 ? -INFINITY : NAN);
    if (isinf(x.hi))
        return x;
    if (fabs(x.hi) > 0.5)
        return dd_log(dd_add_d(x, 1.0)); /* 1 + x is good to 2^-106 of itself */
    double y = log1p(x.hi);
    /* y + ((1 + x) e^-y - 1), the bracket as x + expm1(-y) (1 + x): two
     * terms of size x whose difference is about ulp(y), each good to
     * 2^-104 of x, so that small x keep their relative precision. */
    dd c = dd_add(x, dd_mul(dd_expm1(dd_d(-y)), dd_add_d(x, 1.0)));
    return dd_add_d(c, y);
}
