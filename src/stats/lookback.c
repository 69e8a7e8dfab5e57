/* Conbench's lookback distribution (stats/lookback.h has the steps). Sums
 * are compensated; the quantiles follow numpy's "linear" method operation
 * by operation, as pandas' Series.quantile calls it, so that a diff lying
 * exactly on a quantile is kept or dropped as Conbench keeps or drops it. */
#include "stats/lookback.h"

#include <math.h>
#include <stdlib.h>

#include "stats/stats.h"
#include "stats/sum.h"

/* The k-th smallest of v[0..n) (0-based) into *a and the next one into *b
 * (*a again when k is the last). v may be reordered. Near either end, as
 * for the 5% and 95% quantiles of a hundred diffs, one pass through a
 * short sorted buffer; else selection. */
static void order_pair(double *v, size_t n, size_t k, double *a, double *b)
{
    enum { SHORT = 16 };
    double buf[SHORT] = {0};
    size_t want = k + 1 < n ? 2 : 1;
    int from_top = k + want > SHORT;
    size_t cap = from_top ? n - k : k + want; /* the k-th is buf[cap - want] from its end */
    if (cap > SHORT) {
        stats_select(v, n, k);
        *a = *b = v[k];
        for (size_t i = k + 1; i < n; i++)
            *b = i == k + 1 || v[i] < *b ? v[i] : *b;
        return;
    }
    /* buf holds the cap smallest (or largest) so far, best first. */
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        double x = from_top ? -v[i] : v[i];
        if (len == cap && !(x < buf[cap - 1]))
            continue;
        size_t j = len < cap ? len++ : cap - 1;
        while (j > 0 && x < buf[j - 1]) {
            buf[j] = buf[j - 1];
            j--;
        }
        buf[j] = x;
    }
    if (from_top) { /* the k-th smallest is the (n - 1 - k)-th largest */
        *a = -buf[n - 1 - k];
        *b = want == 2 ? -buf[n - 2 - k] : *a;
    } else {
        *a = buf[k];
        *b = want == 2 ? buf[k + 1] : *a;
    }
}

/* numpy.percentile(v, 100 q, method="linear") of v[0..n), n >= 1, which it
 * may reorder. */
static double np_quantile(double *v, size_t n, double q)
{
    double vi = (double)n * q + (1 + q * (1 - 1 - 1)) - 1; /* alpha = beta = 1 */
    double prev = floor(vi);
    double gamma = vi - prev;
    double hi = (double)(n - 1);
    double lo_i = prev < 0 ? 0 : prev > hi ? hi : prev;
    double hi_i = prev + 1 < 0 ? 0 : prev + 1 > hi ? hi : prev + 1;
    double a, b;
    order_pair(v, n, (size_t)lo_i, &a, &b);
    if (hi_i == lo_i)
        b = a;
    double diff = b - a;
    return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
}

/* A power of two that brings the largest |v[i]| near 1 when it lies
 * outside [2^-500, 2^500] (squares of it would overflow or underflow),
 * else 1: scaling by it is exact but for subnormal results, and every
 * step here is scale-invariant, so results are those of the unscaled
 * arithmetic where that has no overflow. */
static double scale_for(const double *v, size_t n, size_t stride)
{
    double big = 0;
    for (size_t i = 0; i < n; i++)
        big = fmax(big, fabs(v[i * stride]));
    if (big == 0 || (big >= 0x1p-500 && big <= 0x1p500))
        return 1;
    int e;
    frexp(big, &e);
    return ldexp(1.0, -e);
}

/* Sample sd of v[0..n) (two passes: a compensated mean, then compensated
 * squared deviations with the first-order correction); NaN when n < 2.
 * Values beyond 2^500 (or all below 2^-500) are scaled first, so that no
 * square overflows (+-1e200 once gave 0 here). */
static double sample_sd(double *v, size_t n)
{
    if (n < 2)
        return NAN;
    double f = scale_for(v, n, 1);
    for (size_t i = 0; f != 1 && i < n; i++)
        v[i] *= f;
    struct ksum s = {0};
    for (size_t i = 0; i < n; i++)
        ksum_add(&s, v[i]);
    double m = ksum_value(&s) / (double)n, c = 0;
    struct ksum q = {0};
    for (size_t i = 0; i < n; i++) {
        c += v[i] - m;
        ksum_add(&q, (v[i] - m) * (v[i] - m));
    }
    return sqrt(fmax(ksum_value(&q) - c * c / (double)n, 0) / (double)(n - 1)) / f;
}

void lookback_baseline(const double *x, size_t n, double *work, struct lookback *out)
{
    *out = (struct lookback){.n = n, .mean = NAN, .stddev = NAN};
    if (n == 0)
        return;
    double *sorted = work, *keep = work + n;
    /* 1. Shifts, from the diffs: quantiles of all of them, then running
     * estimates from the ones within the quantiles. The decisions do not
     * change when every value is scaled by the same power of two, so
     * values beyond 2^500 are, by g (scale_for), and their diffs and the
     * squares below do not overflow. */
    size_t m = n - 1;
    double g = scale_for(x, n, 1);
    for (size_t i = 1; i < n; i++)
        sorted[i - 1] = x[i] * g - x[i - 1] * g;
    double q05 = NAN, q95 = NAN;
    if (m > 0) {
        q05 = np_quantile(sorted, m, 0.05);
        q95 = np_quantile(sorted, m, 0.95);
    }
    /* Running mean and sum of squared deviations (Welford, as pandas'
     * rolling var updates them) of the kept diffs. */
    double wm = 0, wm2 = 0;
    size_t nk = 0;
    int prev_shift = 0;
    for (size_t i = 0; i < n; i++)
        keep[i] = 1;
    for (size_t i = 1; i < n; i++) {
        double d = x[i] * g - x[i - 1] * g;
        if (!(d < q05 || d > q95)) {
            nk++;
            double delta = d - wm;
            wm += delta / (double)nk;
            wm2 += delta * (d - wm);
        }
        /* |d - m| / s > 5, compared as squares (no square root or division
         * per diff); s = 0 shifts on any d != m, as inf > 5 does. */
        int shift = 0;
        if (nk >= 2) {
            double var = fmax(wm2, 0) / (double)(nk - 1), dev = d - wm;
            shift = var > 0 ? dev * dev > 25 * var : dev != 0;
        }
        if (shift && prev_shift) {
            keep[i - 1] = 0;
            out->outliers++;
        }
        prev_shift = shift;
    }
    /* 2. The rest: their mean (the exact sum divided once: no overflow),
     * and the residuals from the running mean of the ones before each.
     * Values are taken relative to the first (exact for nearby values), so
     * that a large offset costs no digits, and scaled by g, so that no
     * difference overflows. */
    struct ksum run = {0};
    struct xacc all = {0};
    size_t k = 0;
    double *res = sorted, shift = 0;
    for (size_t i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        if (k == 0)
            shift = x[i] * g;
        double y = x[i] * g - shift;
        res[k] = k == 0 ? 0 : y - ksum_value(&run) / (double)k;
        ksum_add(&run, y);
        xacc_add(&all, x[i], 1);
        k++;
    }
    out->mean = xacc_div_double(&all, (int64_t)k);
    out->stddev = sample_sd(res, k) / g; /* +-Inf only when it is beyond the doubles */
}
