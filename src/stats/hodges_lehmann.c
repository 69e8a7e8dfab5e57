/* The Hodges-Lehmann shift of sample 1 against sample 2 and its
 * distribution-free interval, as R's wilcox.test(x, y, conf.int = TRUE,
 * conf.level = level) gives them. With the M = n1 n2 differences
 * d = x[i] - y[j] sorted, d(1) <= ... <= d(M):
 *
 *  - estimate: the median of the d (R's median(diffs) in the exact case;
 *    in the normal case R's uniroot() looks for the zero of
 *    W(d) = (U(d) - M/2) / sigma(d), where U(d) = #{d > d0} + #{d = d0}/2,
 *    which is zero between the two middle differences, or changes sign at
 *    the middle one: the median again, which is what is returned here);
 *  - exact case (no ties, both samples below 50 values): with
 *    qu = qwilcox((1 - level)/2, n1, n2), at least 1, the interval is
 *    [d(qu), d(M - qu + 1)] and its achieved confidence
 *    1 - 2 pwilcox(qu - 1, n1, n2);
 *  - otherwise R solves W(d) - 0.5 sign(...) = +-z with uniroot(), only
 *    to its tolerance (1e-4). The exact solution is a difference: between
 *    two consecutive distinct differences U(d) = M - j, where j counts the
 *    differences below, so W there is
 *        w(j) = (M/2 - j - 0.5 sign(M/2 - j)) / sigma0,
 *    sigma0 being R's sigma with the ties within each sample only (ties
 *    across the samples happen at the differences themselves). w falls
 *    with j; the lower bound is d(J + 1) for the largest J with
 *    w(J) > z(1 - alpha/2), the upper d(J + 1) for the largest J with
 *    w(J) > z(alpha/2), clamped to d(1)..d(M). At a difference itself the
 *    extra ties shrink sigma, which can push W across z at that one point
 *    only; the bounds returned are those of the set of shifts the test
 *    accepts, which such points do not move.
 *
 * Up to HL_SORT_MAX differences they are formed and selected among; beyond,
 * no difference is ever stored: each d(k) is selected from the two sorted
 * samples (stats_shift_kth), O(n1 + n2) memory and O((n1 + n2) log(n1 n2))
 * time, after an O(n log n) sort: O(n log n) a result, a window frame's
 * too (docs/functions.md). out->work counts the steps (tests check it
 * grows as n log n). */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/rank.h"

/* ---- selection in the sorted matrix of differences ---- */

/* Row i of the matrix is x[i] - yd[0..n2), yd being y descending, so that
 * rows and columns both ascend (rounding is monotone, so the computed
 * differences do too). The active part of row i is columns [lo[i], hi[i]). */
struct shift_matrix {
    const double *x, *y; /* y ascending; column j is y[n2 - 1 - j] */
    size_t n1, n2;
};

static inline double cell(const struct shift_matrix *m, size_t i, size_t j)
{
    return m->x[i] - m->y[m->n2 - 1 - j];
}

/* count[i] = the number of columns of row i whose value is < p (strict) or
 * <= p, by one staircase walk: the count never grows from a row to the
 * next. O(n1 + n2); *work counts the differences looked at. */
static void count_below(const struct shift_matrix *m, double p, int strict, size_t *count, uint64_t *work)
{
    size_t c = m->n2;
    uint64_t looked = 0;
    for (size_t i = 0; i < m->n1; i++) {
        while (c > 0 && (looked++, strict ? cell(m, i, c - 1) >= p : cell(m, i, c - 1) > p))
            c--;
        count[i] = c;
    }
    *work += looked + m->n1;
}

struct weighted {
    double v;
    size_t w;
};

/* The weighted median of w[0..n) (n >= 1): the smallest value v with the
 * weight of the values <= v at least half of total, by quickselect on the
 * weights (median-of-three pivots, three-way partitions): O(n) expected,
 * where sorting the row middles took O(n log n) per round. w is reordered;
 * *work counts the elements partitioned. */
static double weighted_median(struct weighted *w, size_t n, uint64_t total, uint64_t *work)
{
    uint64_t need = (total + 1) / 2; /* 2 acc >= total */
    size_t lo = 0, hi = n;
    for (;;) {
        *work += hi - lo;
        size_t mid = lo + (hi - lo) / 2;
        double a = w[lo].v, b = w[mid].v, c = w[hi - 1].v;
        double pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        /* [lo, lt) < pivot, [lt, gt) == pivot, [gt, hi) > pivot */
        size_t lt = lo, i = lo, gt = hi;
        uint64_t below = 0, equal = 0;
        while (i < gt) {
            if (w[i].v < pivot) {
                below += w[i].w;
                struct weighted t = w[lt];
                w[lt++] = w[i];
                w[i++] = t;
            } else if (w[i].v > pivot) {
                struct weighted t = w[--gt];
                w[gt] = w[i];
                w[i] = t;
            } else {
                equal += w[i++].w;
            }
        }
        if (need <= below) {
            hi = lt;
        } else if (need <= below + equal) {
            return pivot;
        } else {
            need -= below + equal;
            lo = gt;
        }
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Selection after Johnson and Mizoguchi: the pivot is the weighted median
 * of the active rows' middle elements (weights: active lengths), so at
 * least a quarter of the active elements lie on each side of it and each
 * round drops a quarter or more; O(log(n1 n2)) rounds of O(n1 + n2).
 * Once at most n1 + n2 remain they are gathered and selected directly. */
static double shift_kth(const double *x, size_t n1, const double *y, size_t n2, uint64_t k, uint64_t *work)
{
    struct shift_matrix m = {x, y, n1, n2};
    size_t *lo = calloc(n1, sizeof *lo), *hi = malloc(n1 * sizeof *hi);
    size_t *lt = malloc(n1 * sizeof *lt), *le = malloc(n1 * sizeof *le);
    struct weighted *mid = malloc(n1 * sizeof *mid);
    double *buf = malloc((n1 + n2) * sizeof *buf);
    double result = NAN;
    if (!lo || !hi || !lt || !le || !mid || !buf)
        goto done;
    for (size_t i = 0; i < n1; i++)
        hi[i] = n2;
    for (;;) {
        uint64_t total = 0;
        for (size_t i = 0; i < n1; i++)
            total += hi[i] - lo[i];
        *work += n1;
        if (total <= n1 + n2) {
            size_t t = 0;
            for (size_t i = 0; i < n1; i++)
                for (size_t j = lo[i]; j < hi[i]; j++)
                    buf[t++] = cell(&m, i, j);
            stats_select(buf, t, (size_t)(k - 1));
            *work += 3 * (uint64_t)t; /* quickselect: about 3 t comparisons */
            result = buf[k - 1];
            break;
        }
        size_t rows = 0;
        for (size_t i = 0; i < n1; i++)
            if (hi[i] > lo[i])
                mid[rows++] = (struct weighted){cell(&m, i, lo[i] + (hi[i] - lo[i] - 1) / 2), hi[i] - lo[i]};
        /* rows > 0 (total > n1 + n2 > 0 above) and mid[0..rows) each set
         * just now: gcc -fanalyzer's "uninitialized" in weighted_median
         * follows rows == 0, which cannot happen. */
        double pivot = weighted_median(mid, rows, total, work);
        count_below(&m, pivot, 1, lt, work);
        count_below(&m, pivot, 0, le, work);
        uint64_t less = 0, leq = 0;
        for (size_t i = 0; i < n1; i++) {
            lt[i] = lt[i] < lo[i] ? lo[i] : lt[i] > hi[i] ? hi[i] : lt[i];
            le[i] = le[i] < lo[i] ? lo[i] : le[i] > hi[i] ? hi[i] : le[i];
            less += lt[i] - lo[i];
            leq += le[i] - lo[i];
        }
        if (k <= less) {
            memcpy(hi, lt, n1 * sizeof *hi);
        } else if (k <= leq) {
            result = pivot;
            break;
        } else {
            k -= leq;
            memcpy(lo, le, n1 * sizeof *lo);
        }
    }
done:
    free(lo);
    free(hi);
    free(lt);
    free(le);
    free(mid);
    free(buf);
    return result;
}

static double shift_kth_any(const double *x, size_t n1, const double *y, size_t n2, uint64_t k, uint64_t *work)
{
    if (n1 <= n2)
        return shift_kth(x, n1, y, n2, k, work);
    /* Rows over the smaller sample: x[i] - y[j] = (-y[j]) - (-x[i]), to the
     * last bit, with -y and -x reversed to ascend. */
    double *nx = malloc(n1 * sizeof *nx), *ny = malloc(n2 * sizeof *ny);
    double r = NAN;
    if (nx && ny) {
        for (size_t i = 0; i < n1; i++)
            nx[i] = -x[n1 - 1 - i];
        for (size_t j = 0; j < n2; j++)
            ny[j] = -y[n2 - 1 - j];
        r = shift_kth(ny, n2, nx, n1, k, work);
        *work += n1 + n2;
    }
    free(nx);
    free(ny);
    return r;
}

double stats_shift_kth(const double *x, size_t n1, const double *y, size_t n2, uint64_t k)
{
    uint64_t work = 0;
    return shift_kth_any(x, n1, y, n2, k, &work);
}

/* The smallest difference x[i] - y[j] above v, and in *at_most the number
 * of differences <= v: one staircase walk, O(n1 + n2) (rounding is
 * monotone, so x[i] - y[j] falls as j grows and rises with i). +inf when
 * none is above v. */
static double next_above(const double *x, size_t n1, const double *y, size_t n2, double v, uint64_t *at_most,
                         uint64_t *work)
{
    double best = INFINITY;
    uint64_t le = 0;
    size_t j = 0; /* y[0..j) give differences > v for row i */
    for (size_t i = 0; i < n1; i++) {
        while (j < n2 && x[i] - y[j] > v)
            j++;
        if (j > 0 && x[i] - y[j - 1] < best)
            best = x[i] - y[j - 1];
        le += n2 - j;
    }
    *work += n1 + n2;
    *at_most = le;
    return best;
}

/* ---- the interval ---- */

/* Up to this many differences they are all formed. */
#define HL_SORT_MAX 4096

/* What sorting n values costs, counted as n ceil(log2 n) comparisons. */
static uint64_t sort_work(size_t n)
{
    uint64_t lg = 0;
    while (((size_t)1 << lg) < n)
        lg++;
    return (uint64_t)n * lg;
}

/* The sum of t^3 - t over the tie groups of sorted v[0..n). */
static double tie_sum(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && v[j] == v[i])
            j++;
        double t = (double)(j - i);
        s += t * t * t - t;
        i = j;
    }
    return s;
}

/* The largest j in [0, M] with w(j) > z, or -1; w falls with j. */
static int64_t last_above(uint64_t M, double sigma0, double z)
{
    double half = (double)M / 2;
    int64_t a = -1, b = (int64_t)M + 1; /* w(a) > z (a = -1: by convention), w(b) <= z */
    while (b - a > 1) {
        int64_t j = a + (b - a) / 2;
        double dz = half - (double)j;
        double corr = dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0;
        if ((dz - corr) / sigma0 > z)
            a = j;
        else
            b = j;
    }
    return a;
}

/* Whether the sorted samples x and y hold a tie: within x, within y, or
 * across. */
static int any_ties(const double *x, size_t n1, const double *y, size_t n2)
{
    int ties = 0;
    for (size_t i = 1; i < n1 && !ties; i++)
        ties = x[i] == x[i - 1];
    for (size_t j = 1; j < n2 && !ties; j++)
        ties = y[j] == y[j - 1];
    for (size_t i = 0, j = 0; i < n1 && j < n2 && !ties;) {
        ties = x[i] == y[j];
        if (x[i] < y[j])
            i++;
        else
            j++;
    }
    return ties;
}

/* The ranks klo and khi (1-based, among the M = n1 n2 differences) of the
 * interval's ends at level 1 - alpha: exact (Wilcoxon's distribution,
 * out->confidence set) when out->exact, else from the normal
 * approximation with the ties' correction. 0, or -2 when the exact
 * quantile fails. */
static int interval_ranks(const double *x, size_t n1, const double *y, size_t n2, double alpha, struct hl_result *out,
                          uint64_t *klo, uint64_t *khi)
{
    uint64_t M = (uint64_t)n1 * n2;
    if (out->exact) {
        double p;
        int qu = stats_qwilcox_lower_below(alpha / 2, (int)n1, (int)n2, &p);
        if (qu < 0)
            return -2;
        if (qu == 0)
            qu = 1;
        out->confidence = 1 - 2 * p;
        *klo = (uint64_t)qu;
        *khi = M - (uint64_t)qu + 1;
    } else {
        double nx = (double)n1, ny = (double)n2;
        double sigma0 = sqrt((nx * ny / 12) * ((nx + ny + 1) - (tie_sum(x, n1) + tie_sum(y, n2)) / ((nx + ny) * (nx + ny - 1))));
        int64_t jl = last_above(M, sigma0, gsl_cdf_ugaussian_Qinv(alpha / 2));
        int64_t jh = last_above(M, sigma0, gsl_cdf_ugaussian_Pinv(alpha / 2));
        *klo = jl + 1 < 1 ? 1 : (uint64_t)(jl + 1) > M ? M : (uint64_t)(jl + 1);
        *khi = jh + 1 < 1 ? 1 : (uint64_t)(jh + 1) > M ? M : (uint64_t)(jh + 1);
    }
    return 0;
}

/* The differences of ranks klo and khi (out->lo, out->hi) and the two
 * middle ones (*m1, *m2), with their work counted in out->work. 0, or -2
 * when memory runs out. */
static int select_differences(const double *x, size_t n1, const double *y, size_t n2, uint64_t klo, uint64_t khi,
                              struct hl_result *out, double *m1, double *m2)
{
    uint64_t M = (uint64_t)n1 * n2;
    if (M <= HL_SORT_MAX) {
        /* Few differences (a benchmark cell's 10 against 10): all of them
         * formed, and each order statistic selected among them (the same
         * values as the selection in the sorted matrix below, with less
         * work for so few). */
        double *d = malloc(M * sizeof *d);
        if (!d)
            return -2;
        size_t t = 0;
        for (size_t i = 0; i < n1; i++)
            for (size_t j = 0; j < n2; j++)
                d[t++] = x[i] - y[j];
        out->work += 4 * 4 * M; /* forming them, and four quickselects */
        stats_select(d, M, klo - 1);
        out->lo = d[klo - 1];
        stats_select(d, M, khi - 1);
        out->hi = d[khi - 1];
        stats_select(d, M, (M + 1) / 2 - 1);
        *m1 = d[(M + 1) / 2 - 1];
        stats_select(d, M, M / 2);
        *m2 = d[M / 2];
        free(d);
    } else {
        out->lo = shift_kth_any(x, n1, y, n2, klo, &out->work);
        out->hi = shift_kth_any(x, n1, y, n2, khi, &out->work);
        *m1 = shift_kth_any(x, n1, y, n2, (M + 1) / 2, &out->work);
        *m2 = *m1;
        if (M % 2 == 0 && !isnan(*m1)) { /* d(M/2 + 1): m1 again, or the next difference up */
            uint64_t le;
            double up = next_above(x, n1, y, n2, *m1, &le, &out->work);
            if (le < M / 2 + 1)
                *m2 = up;
        }
    }
    return 0;
}

int stats_hodges_lehmann(struct mw_obs *obs, size_t n, double level, struct hl_result *out)
{
    size_t n1 = 0;
    for (size_t i = 0; i < n; i++)
        n1 += obs[i].first != 0;
    size_t n2 = n - n1;
    if (n1 == 0 || n2 == 0)
        return -1;
    double *x = malloc(n1 * sizeof *x), *y = malloc(n2 * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return -2;
    }
    size_t a = 0, b = 0;
    for (size_t i = 0; i < n; i++) {
        if (obs[i].first)
            x[a++] = obs[i].x;
        else
            y[b++] = obs[i].x;
    }
    qsort(x, n1, sizeof *x, cmp_double);
    qsort(y, n2, sizeof *y, cmp_double);
    out->work = n + sort_work(n1) + sort_work(n2);
    int ties = any_ties(x, n1, y, n2);
    double alpha = 1 - level;
    out->n1 = (int64_t)n1;
    out->n2 = (int64_t)n2;
    out->level = level;
    out->exact = n1 < 50 && n2 < 50 && !ties;
    out->confidence = NAN;
    int rc = -2;
    uint64_t klo, khi;
    double m1, m2;
    if (interval_ranks(x, n1, y, n2, alpha, out, &klo, &khi) || select_differences(x, n1, y, n2, klo, khi, out, &m1, &m2))
        goto done;
    if (isnan(out->lo) || isnan(out->hi) || isnan(m1) || isnan(m2))
        goto done;
    out->estimate = (m1 + m2) / 2;
    if (isinf(out->estimate) && isfinite(m1) && isfinite(m2))
        out->estimate = m1 / 2 + m2 / 2;
    rc = 0;
done:
    free(x);
    free(y);
    return rc;
}
