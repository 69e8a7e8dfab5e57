/* Order statistics by selection: quickselect with a median-of-three pivot,
 * falling back to a full sort of the remaining range when partitioning
 * keeps going badly, so the worst case stays O(n log n). */
#include <math.h>
#include <stdlib.h>

#include "stats/dd.h"
#include "stats/stats.h"
#include "stats/xacc.h"

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

/* x(j) + h (x(j+1) - x(j)) with h = ((n - 1) p - den j) / den, rounded
 * once: the exact value times den, den x(j) + ((n - 1) p - den j)
 * (x(j+1) - x(j)), is formed in an exact accumulator (products of doubles,
 * and n - 1 and den j are integers below 2^53) and divided by den with one
 * rounding, whatever the magnitudes of x(j) and x(j+1): double-double
 * would round the product of h and a difference spanning hundreds of
 * orders of magnitude, and the sum after it. */
static double interpolate(double q, double up, size_t n, double p, double den, double jd)
{
    struct xacc t = {0}, d = {0}, s = {0};
    xacc_add_prod(&t, (double)(n - 1), p, 1);
    xacc_add_prod(&t, den, jd, -1);
    xacc_add(&d, up, 1);
    xacc_add(&d, q, -1);
    xacc_add_prod(&s, den, q, 1);
    xacc_add_mul(&s, &t, &d, 1);
    return xacc_div_double(&s, (int64_t)den);
}

/* R's type-7 quantile at the index (n - 1) prob = num / den, given exactly
 * as num = (n - 1) * p (a double-double product) and den (1 or 100): the
 * lower order statistic j = floor(num / den), h = num / den - j, and
 * x(j) + h (x(j+1) - x(j)) correctly rounded (interpolate), so that
 * neither the index nor the interpolation rounds before the result does. */
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
        if (up != q)
            q = interpolate(q, up, n, p, den, (double)lo);
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
    return xacc_div_double(&s, (int64_t)n);
}
