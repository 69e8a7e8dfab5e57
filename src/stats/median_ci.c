/* The distribution-free confidence interval of the median from order
 * statistics, chosen as benchstat v2 chooses them (go-moremath
 * QuantileCI(n, 0.5, level)). K, the number of sample values below the
 * population median, is Binomial(n, 1/2); the interval [x(l), x(r)]
 * covers the median when l <= K < r, with x(0) = -inf, x(n + 1) = +inf.
 *
 *  - n <= 30: start at k = ceil((n + 1)/2) - 1 and add the more probable
 *    of the two neighbouring k (the left one when equal) until the mass
 *    reaches level. go-moremath computes C(n, k) as exp(lgamma(...)) above
 *    n = 20, so that from 21 to 30 values its left/right choice between two
 *    equal masses follows the last bits of Go's lgamma; here the masses
 *    are exact integers and equal masses always go left. The orders differ
 *    from benchstat's at n = 24 (level 0.95), n = 28 (0.99) and n = 22, 29
 *    (0.90) among n <= 60 at those levels (tests/unit/test_rank.c).
 *  - n > 30: benchstat's normal approximation with continuity correction:
 *    l1 = n/2 + sqrt(n)/2 z((1 - level)/2), r1 = n - l1,
 *    l = floor(l1 - 0.5) + 1, r = ceil(r1 - 0.5) + 1, then r - 1 instead of
 *    r when that still reaches level by the same approximation and gives
 *    less; l at least 0, r at most n + 1.
 *
 * The confidence reported is the exact binomial coverage P(l <= K < r),
 * the same number as benchstat's for n <= 20. */
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "stats/rank.h"

static void orders_exact(int64_t n, double level, int64_t *lo, int64_t *hi, double *confidence)
{
    /* C(n, k) for k = 0..n, exact in 64 bits for n <= 30. */
    uint64_t c[31];
    c[0] = 1;
    for (int64_t k = 1; k <= n; k++)
        c[k] = c[k - 1] * (uint64_t)(n - k + 1) / (uint64_t)k;
#define MASS(k) ((k) < 0 || (k) > n ? 0 : c[(k)])
    /* accum < level 2^n, compared exactly: both sides are exact doubles. */
    double target = ldexp(level, (int)n);
    int64_t l = (int64_t)ceil((double)(n + 1) * 0.5) - 1, r = l + 1;
    uint64_t accum = MASS(l), lp = MASS(l - 1), rp = MASS(r);
    while ((double)accum < target && (lp > 0 || rp > 0)) {
        if (lp >= rp) {
            accum += lp;
            l--;
            lp = MASS(l - 1);
        } else {
            accum += rp;
            r++;
            rp = MASS(r);
        }
    }
#undef MASS
    *lo = l;
    *hi = r;
    *confidence = ldexp((double)accum, -(int)n);
}

/* Benchstat's normal approximation: N(n/2, n/4), continuity corrected. */
static double approx_mass(double mu, double sigma, int64_t l, int64_t r)
{
    return gsl_cdf_gaussian_P((double)r - 0.5 - mu, sigma) - gsl_cdf_gaussian_P((double)l - 0.5 - mu, sigma);
}

/* Stirling's error, lgamma(m + 1) - (m + 1/2) log m + m - log(2 pi)/2,
 * for m >= 1: directly for small m (no cancellation there), else its
 * series, whose next term is below 1e-17 / m^11. */
static long double stirlerr(long double m)
{
    if (m <= 15)
        return lgammal(m + 1) - (m + 0.5L) * logl(m) + m - 0.5L * logl(2 * 3.14159265358979323846264338327950288L);
    long double m2 = 1 / (m * m);
    return (1.0L / 12 - m2 * (1.0L / 360 - m2 * (1.0L / 1260 - m2 * (1.0L / 1680 - m2 / 1188)))) / m;
}

/* x log(x / np) + np - x without its cancellation near x = np (Loader's
 * bd0, as R's dbinom uses it). */
static long double bd0(long double x, long double np)
{
    if (fabsl(x - np) < 0.1L * (x + np)) {
        long double v = (x - np) / (x + np), s = (x - np) * v, ej = 2 * x * v;
        v *= v;
        for (int j = 1; j < 1000; j++) {
            ej *= v;
            long double s1 = s + ej / (2 * j + 1);
            if (s1 == s)
                return s1;
            s = s1;
        }
        return s;
    }
    return x * logl(x / np) + np - x;
}

/* P(K = k) for K ~ Binomial(n, 1/2), 0 < k < n, by Loader's saddle-point
 * form (R's dbinom_raw) in long double: no difference of large
 * logarithms, so it keeps about 18 digits at any n. */
static long double binom_half_mass(long double n, long double k)
{
    long double lc = stirlerr(n) - stirlerr(k) - stirlerr(n - k) - bd0(k, n / 2) - bd0(n - k, n / 2);
    return expl(lc) / sqrtl(2 * 3.14159265358979323846264338327950288L * k * (n - k) / n);
}

/* P(l <= K <= r - 1) for K ~ Binomial(n, 1/2), n >= 1: the masses summed
 * in long double outwards from the one nearest n/2 (by binom_half_mass),
 * each next by the ratio of neighbouring masses, so that nothing
 * underflows before it no longer counts. GSL's binomial distribution
 * function, through its incomplete beta function, is off by 2e-12 at
 * n = 4096 already. */
static double coverage(int64_t n, int64_t l, int64_t r)
{
    if (l < 0)
        l = 0;
    if (r > n + 1)
        r = n + 1;
    if (l == 0 && r == n + 1)
        return 1;
    int64_t m = n / 2;
    m = m < l ? l : m > r - 1 ? r - 1 : m;
    long double nn = (long double)n;
    long double start = m == 0 || m == n ? ldexpl(1, -(int)n) : binom_half_mass(nn, (long double)m);
    long double sum = 0, mass = start;
    for (int64_t k = m; k < r && mass > 0; k++) {
        sum += mass;
        mass *= (nn - (long double)k) / ((long double)k + 1);
    }
    mass = start;
    for (int64_t k = m; k > l && mass > 0; k--) {
        mass *= (long double)k / (nn - (long double)k + 1);
        sum += mass;
    }
    return (double)sum;
}

void stats_median_orders(int64_t n, double level, int64_t *lo, int64_t *hi, double *confidence)
{
    if (n <= 30) {
        orders_exact(n, level, lo, hi, confidence);
        return;
    }
    double mu = (double)n * 0.5, sigma = sqrt((double)n * 0.5 * 0.5);
    double l1 = mu + sigma * gsl_cdf_ugaussian_Pinv((1 - level) / 2);
    double r1 = 2 * mu - l1;
    int64_t l = (int64_t)floor(floor(l1 - 0.5) + 0.5) + 1;
    int64_t r = (int64_t)floor(ceil(r1 - 0.5) + 0.5) + 1;
    double unbiased = approx_mass(mu, sigma, l, r), biased = approx_mass(mu, sigma, l, r - 1);
    if (biased >= level && biased < unbiased)
        r--;
    if (l < 0)
        l = 0;
    if (r > n + 1)
        r = n + 1;
    *lo = l;
    *hi = r;
    *confidence = coverage(n, l, r);
}

void stats_median_ci(double *x, size_t n, double level, struct median_ci *out)
{
    out->n = (int64_t)n;
    out->level = level;
    stats_median_orders((int64_t)n, level, &out->lo_order, &out->hi_order, &out->confidence);
    out->center = stats_median(x, n);
    out->lo = out->hi = NAN;
    if (out->lo_order >= 1) {
        stats_select(x, n, (size_t)out->lo_order - 1);
        out->lo = x[out->lo_order - 1];
    }
    if (out->hi_order <= out->n) {
        stats_select(x, n, (size_t)out->hi_order - 1);
        out->hi = x[out->hi_order - 1];
    }
}
