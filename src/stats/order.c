/* Order statistics by selection: quickselect with a median-of-three pivot,
 * falling back to a full sort of the remaining range when partitioning
 * keeps going badly, so the worst case stays O(n log n). */
#include <math.h>
#include <stdlib.h>

#include "stats/dd.h"
#include "stats/stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void swap(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

void stats_select(double *x, size_t n, size_t k)
{
    size_t lo = 0, hi = n; /* the k-th is in [lo, hi) */
    int budget = 2;
    for (size_t m = n; m > 1; m >>= 1)
        budget += 2;
    while (hi - lo > 16) {
        if (budget-- == 0) {
            qsort(x + lo, hi - lo, sizeof *x, cmp_double);
            return;
        }
        size_t mid = lo + (hi - lo) / 2;
        /* Median of three into x[lo], then Hoare partition around it. */
        if (x[mid] < x[lo])
            swap(&x[mid], &x[lo]);
        if (x[hi - 1] < x[lo])
            swap(&x[hi - 1], &x[lo]);
        if (x[hi - 1] < x[mid])
            swap(&x[hi - 1], &x[mid]);
        swap(&x[lo], &x[mid]);
        double pivot = x[lo];
        size_t i = lo, j = hi;
        for (;;) {
            do
                i++;
            while (i < hi && x[i] < pivot);
            do
                j--;
            while (x[j] > pivot);
            if (i >= j)
                break;
            swap(&x[i], &x[j]);
        }
        swap(&x[lo], &x[j]);
        /* Now x[lo..j) <= pivot = x[j] <= x(j..hi). */
        if (k == j)
            return;
        if (k < j)
            hi = j;
        else
            lo = j + 1;
    }
    /* Insertion sort of the small remainder. */
    for (size_t i = lo + 1; i < hi; i++) {
        double v = x[i];
        size_t j = i;
        while (j > lo && x[j - 1] > v) {
            x[j] = x[j - 1];
            j--;
        }
        x[j] = v;
    }
}

/* The smallest of x[0..n), n >= 1. */
static double min_of(const double *x, size_t n)
{
    double m = x[0];
    for (size_t i = 1; i < n; i++)
        if (x[i] < m)
            m = x[i];
    return m;
}

/* R's type-7 quantile at the index (n - 1) prob = num / den, given exactly
 * as num = (n - 1) * p (a double-double product) and den (1 or 100): the
 * lower order statistic j = floor(num / den), h = num / den - j, and
 * x(j) + h (x(j+1) - x(j)) in double-double, so that neither the index nor
 * the interpolation rounds before the result does. */
static double quantile_at(double *x, size_t n, double p, double den)
{
    dd num = dd_two_prod((double)(n - 1), p);
    double jd = floor(num.hi / den);
    /* num - den j exactly (Sterbenz, then an exact two-sum); fix floor's
     * rounding either way. */
    dd rem = dd_two_sum(num.hi - den * jd, num.lo);
    if (rem.hi < 0 || (rem.hi == 0 && rem.lo < 0)) {
        jd -= 1;
        rem = dd_add_d(rem, den);
    } else if (rem.hi >= den) {
        jd += 1;
        rem = dd_add_d(rem, -den);
    }
    size_t lo = jd < 0 ? 0 : (size_t)jd;
    if (lo >= n)
        lo = n - 1;
    stats_select(x, n, lo);
    double q = x[lo];
    if ((rem.hi > 0 || rem.lo > 0) && lo + 1 < n) {
        double up = min_of(x + lo + 1, n - lo - 1);
        if (up != q) {
            dd h = dd_div_d(rem, den);
            double scale = fabs(q) > 0x1p1000 || fabs(up) > 0x1p1000 ? 0.25 : 1;
            dd d = dd_two_sum(up * scale, -q * scale);
            dd r = dd_add_d(dd_mul(h, d), q * scale);
            q = (r.hi + r.lo) / scale;
        }
    }
    return q;
}

double stats_quantile7(double *x, size_t n, double prob) { return quantile_at(x, n, prob, 1); }

double stats_percentile(double *x, size_t n, double pct) { return quantile_at(x, n, pct, 100); }

double stats_median(double *x, size_t n)
{
    size_t half = (n - 1) / 2;
    stats_select(x, n, half);
    if (n % 2)
        return x[half];
    double a = x[half], b = min_of(x + half + 1, n - half - 1);
    double m = (a + b) / 2;
    if (isinf(m)) /* a + b overflowed */
        m = a / 2 + b / 2;
    return m;
}

double stats_trimmed_mean(double *x, size_t n, size_t k)
{
    if (k >= n || n - k <= k)
        return NAN;
    size_t last = n - k - 1; /* keep the order statistics k..last */
    stats_select(x, n, k);
    stats_select(x + k, n - k, last - k);
    return stats_mean_exact(x + k, last - k + 1);
}

double stats_mean_exact(const double *x, size_t n)
{
    struct xacc s = {0};
    for (size_t i = 0; i < n; i++)
        xacc_add(&s, x[i], 1);
    return xdd_double(xdd_div(xacc_value(&s), xdd_from_dd(dd_i64((int64_t)n))));
}
