/* Wilcoxon rank-sum / Mann-Whitney U test, following R's wilcox.test(x, y)
 * defaults: two-sided, exact null distribution when both samples are below
 * 50 values and there are no ties, else the normal approximation with tie
 * and continuity correction. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#include "stats/stats.h"

static int cmp_obs(const void *a, const void *b)
{
    double x = ((const struct mw_obs *)a)->x, y = ((const struct mw_obs *)b)->x;
    return (x > y) - (x < y);
}

/* counts[k] = number of arrangements of m + n ranks where the first sample's
 * U statistic is k, for k = 0..m*n: the recursion R's cwilcox() uses,
 *   c(k; i, j) = c(k - j; i - 1, j) + c(k; i, j - 1),
 * run bottom-up over i with one row of j per step. Returns NULL on OOM. */
static double *wilcox_counts(int m, int n)
{
    size_t width = (size_t)m * (size_t)n + 1;
    double *prev = calloc((size_t)(n + 1) * width, sizeof *prev);
    double *cur = calloc((size_t)(n + 1) * width, sizeof *cur);
    double *out = malloc(width * sizeof *out);
    if (!prev || !cur || !out) {
        free(prev);
        free(cur);
        free(out);
        return NULL;
    }
    /* i = 0: only k = 0, for every j. */
    for (int j = 0; j <= n; j++)
        prev[(size_t)j * width] = 1;
    for (int i = 1; i <= m; i++) {
        size_t kmax_i = (size_t)i * (size_t)n;
        for (int j = 0; j <= n; j++) {
            double *row = cur + (size_t)j * width;
            const double *left = cur + (size_t)(j ? j - 1 : 0) * width;
            const double *up = prev + (size_t)j * width;
            for (size_t k = 0; k <= kmax_i; k++) {
                if (j == 0) {
                    row[k] = k == 0;
                    continue;
                }
                double v = left[k];
                if (k >= (size_t)j)
                    v += up[k - (size_t)j];
                row[k] = v;
            }
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    for (size_t k = 0; k < width; k++)
        out[k] = prev[(size_t)n * width + k];
    free(prev);
    free(cur);
    return out;
}

double stats_pwilcox(double q, int m, int n, int lower_tail)
{
    q = floor(q + 1e-7);
    if (q < 0)
        return lower_tail ? 0 : 1;
    if (q >= (double)m * n)
        return lower_tail ? 1 : 0;
    double *c = wilcox_counts(m, n);
    if (!c)
        return NAN;
    /* As R: choose(m + n, n), and summation over the shorter range. */
    double total = 0;
    for (size_t k = 0; k <= (size_t)m * (size_t)n; k++)
        total += c[k];
    double p = 0;
    if (q <= (double)m * n / 2) {
        for (int k = 0; k <= (int)q; k++)
            p += c[k] / total;
    } else {
        int qq = (int)((double)m * n - q);
        for (int k = 0; k < qq; k++)
            p += c[k] / total;
        lower_tail = !lower_tail;
    }
    free(c);
    return lower_tail ? p : 0.5 - p + 0.5;
}

int stats_mann_whitney(struct mw_obs *obs, size_t n, struct mw_result *out)
{
    int64_t n1 = 0, n2 = 0;
    for (size_t i = 0; i < n; i++)
        obs[i].first ? n1++ : n2++;
    if (n1 == 0 || n2 == 0)
        return -1;
    qsort(obs, n, sizeof *obs, cmp_obs);
    /* Mid-ranks; the rank sum of the first sample; sum of t^3 - t over ties. */
    double ranksum = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && obs[j].x == obs[i].x)
            j++;
        double rank = ((double)(i + 1) + (double)j) / 2;
        for (size_t k = i; k < j; k++)
            if (obs[k].first)
                ranksum += rank;
        double t = (double)(j - i);
        ties += t * t * t - t;
        i = j;
    }
    double nx = (double)n1, ny = (double)n2;
    double w = ranksum - nx * (nx + 1) / 2;
    out->u = w;
    out->n1 = n1;
    out->n2 = n2;
    out->exact = n1 < 50 && n2 < 50 && ties == 0;
    if (out->exact) {
        double p;
        if (w > nx * ny / 2)
            p = stats_pwilcox(w - 1, (int)n1, (int)n2, 0);
        else
            p = stats_pwilcox(w, (int)n1, (int)n2, 1);
        if (isnan(p))
            return -2;
        out->p = fmin(2 * p, 1);
        return 0;
    }
    double z = w - nx * ny / 2;
    double sigma = sqrt((nx * ny / 12) * ((nx + ny + 1) - ties / ((nx + ny) * (nx + ny - 1))));
    double correction = z > 0 ? 0.5 : z < 0 ? -0.5 : 0;
    z = (z - correction) / sigma;
    out->p = isnan(z) ? NAN : 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z));
    return 0;
}
