/* Conbench's lookback distribution (stats/lookback.h has the steps). Sums
 * are compensated; the quantiles follow numpy's "linear" method operation
 * by operation, as pandas' Series.quantile calls it, so that a diff lying
 * exactly on a quantile is kept or dropped as Conbench keeps or drops it. */
#include "stats/lookback.h"

#include <math.h>
#include <stdlib.h>

#include "stats/sum.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* numpy.percentile(v, 100 q, method="linear") of sorted v[0..n), n >= 1. */
static double np_quantile(const double *v, size_t n, double q)
{
    double vi = (double)n * q + (1 + q * (1 - 1 - 1)) - 1; /* alpha = beta = 1 */
    double prev = floor(vi);
    double gamma = vi - prev;
    double hi = (double)(n - 1);
    double lo_i = prev < 0 ? 0 : prev > hi ? hi : prev;
    double hi_i = prev + 1 < 0 ? 0 : prev + 1 > hi ? hi : prev + 1;
    double a = v[(size_t)lo_i], b = v[(size_t)hi_i];
    double diff = b - a;
    return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
}

/* Mean and sample sd (two passes, compensated) of the first n of v. */
static void mean_sd(const double *v, size_t n, double *mean, double *sd)
{
    struct ksum s = {0};
    for (size_t i = 0; i < n; i++)
        ksum_add(&s, v[i]);
    double m = ksum_value(&s) / (double)n;
    struct ksum d = {0}, q = {0};
    for (size_t i = 0; i < n; i++) {
        ksum_add(&d, v[i] - m);
        ksum_add(&q, (v[i] - m) * (v[i] - m));
    }
    double c = ksum_value(&d);
    *mean = m + c / (double)n;
    *sd = n < 2 ? NAN : sqrt(fmax(ksum_value(&q) - c * c / (double)n, 0) / (double)(n - 1));
}

void lookback_baseline(const double *x, size_t n, double *work, struct lookback *out)
{
    *out = (struct lookback){.n = n, .mean = NAN, .stddev = NAN};
    if (n == 0)
        return;
    double *sorted = work, *kept = work + n, *keep = work + 2 * n;
    /* 1. Shifts, from the diffs: quantiles of all of them, then running
     * estimates from the ones within the quantiles. */
    size_t m = n - 1;
    for (size_t i = 1; i < n; i++)
        sorted[i - 1] = x[i] - x[i - 1];
    double q05 = NAN, q95 = NAN;
    if (m > 0) {
        qsort(sorted, m, sizeof *sorted, cmp_double);
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
        double d = x[i] - x[i - 1];
        if (!(d < q05 || d > q95)) {
            nk++;
            double delta = d - wm;
            wm += delta / (double)nk;
            wm2 += delta * (d - wm);
        }
        int shift = 0;
        if (nk >= 2) {
            double sd = sqrt(fmax(wm2, 0) / (double)(nk - 1)), dev = d - wm;
            shift = sd > 0 ? fabs(dev / sd) > 5 : dev != 0;
        }
        if (shift && prev_shift) {
            keep[i - 1] = 0;
            out->outliers++;
        }
        prev_shift = shift;
    }
    /* 2. The rest: their mean, and the residuals from the running mean of
     * the ones before each. Values are taken relative to the first (exact
     * for nearby values), so that a large offset costs no digits. */
    struct ksum run = {0};
    size_t k = 0;
    double *res = sorted, shift = 0;
    for (size_t i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        if (k == 0)
            shift = x[i];
        double y = x[i] - shift;
        res[k] = k == 0 ? 0 : y - ksum_value(&run) / (double)k;
        ksum_add(&run, y);
        kept[k++] = y;
    }
    double mean, sd;
    mean_sd(kept, k, &mean, &sd);
    out->mean = shift + mean;
    mean_sd(res, k, &mean, &out->stddev);
}
