/* Order statistics by selection: quickselect with a median-of-three pivot,
 * falling back to a full sort of the remaining range when partitioning
 * keeps going badly, so the worst case stays O(n log n). */
#include <math.h>
#include <stdlib.h>

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

double stats_quantile7(double *x, size_t n, double prob)
{
    /* As R: index = 1 + (n - 1) * prob; lo = floor; interpolate
     * (1 - h) * x[lo] + h * x[hi] when index > lo and x[hi] != x[lo]. */
    double index = (double)(n - 1) * prob;
    double flo = floor(index);
    size_t lo = (size_t)flo;
    if (lo >= n)
        lo = n - 1;
    stats_select(x, n, lo);
    double q = x[lo];
    if (index > flo && lo + 1 < n) {
        double up = min_of(x + lo + 1, n - lo - 1);
        if (up != q) {
            double h = index - flo;
            q = (1 - h) * q + h * up;
        }
    }
    return q;
}

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
