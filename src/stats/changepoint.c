/* Apache Otava's change-point detection (otava/analysis.py and
 * otava/change_point_divisive/ at 1ceb1537), reproduced operation for
 * operation where the order of floating-point operations can decide a
 * result:
 *
 *  - the E-divisive statistic Q(tau, kappa) is formed from the same
 *    cumulative sums, in the same order, as Otava's numpy code
 *    (PairDistanceCalculator._get_Q_vals), so that equal inputs give
 *    bit-identical Q and the same argmax;
 *  - means and population standard deviations use numpy's pairwise
 *    summation (np.mean, np.std);
 *  - the t-test is scipy's ttest_ind_from_stats(equal_var=True) fed those
 *    ddof-0 standard deviations, with p = 2 P(T <= -|t|);
 *  - maxima and minima keep the first of equals, as numpy's argmax and
 *    Python's max() and min() do, NaN included.
 *
 * Work is O(L^2) per candidate search over an interval of L values, in O(L)
 * memory (the Q matrix is never stored), so a window of W values costs
 * O(W^2) for its first split and less for each further one. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/changepoint.h"
#include "stats/stats.h"
#include "stats/stop.h"

/* numpy's pairwise summation (numpy/core/src/umath/loops_utils.h.src,
 * DOUBLE_pairwise_sum) of a[i], or of (a[i] - *mean)^2 when mean is not
 * NULL, which is how np.std sums its squared deviations. */
static double pairwise_sum(const double *a, size_t n, const double *mean)
{
#define TERM(i) (mean ? (a[i] - *mean) * (a[i] - *mean) : a[i])
    if (n < 8) {
        double res = 0.;
        for (size_t i = 0; i < n; i++)
            res += TERM(i);
        return res;
    }
    if (n <= 128) {
        double r[8];
        for (int k = 0; k < 8; k++)
            r[k] = TERM(k);
        size_t i;
        for (i = 8; i < n - (n % 8); i += 8)
            for (int k = 0; k < 8; k++)
                r[k] += TERM(i + k);
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += TERM(i);
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise_sum(a, n2, mean) + pairwise_sum(a + n2, n - n2, mean);
#undef TERM
}

/* np.mean and, for n >= 2, np.std (ddof 0); Otava's std is 0 for n < 2. */
static void segment_stats(const double *a, size_t n, double *mean, double *sd)
{
    /* np.add.reduce starts from its identity: 0 + sum. */
    double m = (0.0 + pairwise_sum(a, n, NULL)) / (double)n;
    *mean = m;
    *sd = n >= 2 ? sqrt((0.0 + pairwise_sum(a, n, &m)) / (double)n) : 0.0;
}

/* Otava's TTestSignificanceTester.compare on left = a[0..n1), right =
 * b[0..n2): fills c's statistics (not its index). */
static void ttest(const double *a, size_t n1, const double *b, size_t n2, struct changepoint *c)
{
    segment_stats(a, n1, &c->mean_before, &c->stddev_before);
    segment_stats(b, n2, &c->mean_after, &c->stddev_after);
    c->pvalue = 1.0;
    if (n1 + n2 <= 2)
        return;
    double v1 = c->stddev_before * c->stddev_before, v2 = c->stddev_after * c->stddev_after;
    double df = (double)(n1 + n2) - 2.0;
    double svar = ((double)(n1 - 1) * v1 + (double)(n2 - 1) * v2) / df;
    double denom = sqrt(svar * (1.0 / (double)n1 + 1.0 / (double)n2));
    double t = (c->mean_before - c->mean_after) / denom;
    /* Both sides constant: +-inf gives p = 0; equal means 0/0, p = NaN. */
    c->pvalue = isnan(t) ? NAN : 2.0 * t_cdf(-fabs(t), df);
}

double changepoint_forward_change(const struct changepoint *c)
{
    return c->mean_before == 0 ? 0.0 : c->mean_after / c->mean_before - 1.0;
}

double changepoint_magnitude(const struct changepoint *c)
{
    double f = fabs(changepoint_forward_change(c));
    double b = c->mean_after == 0 ? 0.0 : fabs(c->mean_before / c->mean_after - 1.0);
    return b > f ? b : f; /* Python's max(f, b): f unless b is greater */
}

/* ---- the detector within one window ---- */

/* The window's values and the O(N) arrays of a candidate search. */
struct window {
    const double *z;
    size_t n;
    double *v;     /* v[t] = sum_{i<t} |z_i - z_t|, in i order (Otava's V) */
    double *sv;    /* sv[tau] = sum_{s<t<tau} V_s(t): the left within-sum */
    double *h;     /* h[t] = sum_{t<j<kappa} |z_t - z_j| for the current kappa */
    double *suf;   /* suf[tau] = sum_{tau<=t<=kappa-2} h[t], summed downwards */
    size_t *cps;   /* change points found, sorted */
    size_t *ctau;  /* per interval: its best tau (0: interval too short) */
    double *cq;    /* per interval: the Q of that tau */
    struct stats_stop_poll stop; /* asked now and then whether to stop (stats/stop.h) */
};

/* True when (tau, kappa) comes before (bt, bk) in row-major order. */
static int before(size_t tau, size_t kappa, size_t bt, size_t bk)
{
    return tau < bt || (tau == bt && kappa < bk);
}

/* Otava's PairDistanceCalculator.get_candidate_change_point for the
 * interval [s, e) (e - s >= 2): the tau of the first maximum of
 * Q(tau, kappa) over s < tau < kappa <= e in (tau, kappa) order, and that
 * maximum in *q. Q = A - B - C with (n = tau - s, m = kappa - tau)
 *   A = 2/(m+n) (SH - SV), SH = sum_{s<=t<tau} H(t, kappa),
 *   B = 2m/((m+n)(n-1)) SV, SV = sum_{s<t<tau} V_s(t),
 *   C = 2n/((m+n)(m-1)) sum_{tau<=t<kappa-1} H(t, kappa),
 * H(t, kappa) = sum_{t<j<kappa} |z_t - z_j|, V_s(t) = V(t) - sum_{i<s}
 * |z_i - z_t|: SH - SV is the cross sum, SV and the C sum the within sums. */
static size_t candidate(struct window *w, size_t s, size_t e, double *q)
{
    const double *z = w->z;
    double *v = w->v, *sv = w->sv, *h = w->h, *suf = w->suf;
    /* sv[tau] as numpy's cumsum of V[start:end] - distances[:start].sum(0). */
    sv[s + 1] = 0.0;
    double acc = 0.0;
    for (size_t t = s + 1; t + 1 < e; t++) {
        if (stats_stop_poll(&w->stop, s + 1))
            return 0;
        double sub = 0.0;
        for (size_t i = 0; i < s; i++)
            sub += fabs(z[i] - z[t]);
        acc = t == s + 1 ? v[t] - sub : acc + (v[t] - sub);
        sv[t + 1] = acc;
    }
    size_t best_tau = 0, best_kappa = 0;
    double best = 0.0;
    int have = 0, best_nan = 0;
    for (size_t kappa = s + 2; kappa <= e; kappa++) {
        if (stats_stop_poll(&w->stop, 3 * (kappa - s)))
            return 0;
        /* h[t] = H(t, kappa) from H(t, kappa - 1): numpy's cumsum along j. */
        const double zk = z[kappa - 1];
        for (size_t t = s; t + 2 < kappa; t++)
            h[t] += fabs(z[t] - zk);
        h[kappa - 2] = fabs(z[kappa - 2] - zk);
        /* numpy's flipud(cumsum(flipud(H))): summed from the bottom row. */
        double down = 0.0;
        suf[kappa - 1] = 0.0;
        for (size_t t = kappa - 2; t > s; t--) {
            down += h[t];
            suf[t] = down;
        }
        const double ks = (double)(kappa - s);
        const double acoef = 2.0 / ks;
        double sh = 0.0;
        for (size_t tau = s + 1; tau < kappa; tau++) {
            sh += h[tau - 1];
            double a = acoef * (sh - sv[tau]);
            double b = 0.0, c = 0.0;
            if (tau >= s + 2)
                b = (double)(2 * (kappa - tau)) / (ks * (double)(tau - s - 1)) * sv[tau];
            if (kappa >= tau + 2)
                c = (double)(2 * (tau - s)) / (ks * (double)(kappa - tau - 1)) * suf[tau];
            double qv = (a - b) - c;
            /* np.argmax: the first maximum in row-major order, and the first
             * NaN if there is one. */
            int take;
            if (!have)
                take = 1;
            else if (best_nan)
                take = isnan(qv) && before(tau, kappa, best_tau, best_kappa);
            else if (isnan(qv))
                take = 1;
            else
                take = qv > best || (qv == best && before(tau, kappa, best_tau, best_kappa));
            if (take) {
                have = 1;
                best = qv;
                best_nan = isnan(qv);
                best_tau = tau;
                best_kappa = kappa;
            }
        }
    }
    *q = best;
    return best_tau;
}

/* The products (kappa - s)(tau - s - 1) above are formed in double: exact
 * while below 2^53, that is for any window that fits in memory; numpy
 * forms them in int64 and converts, which gives the same double. */

/* Interval i of the window's current split: [bounds). */
static size_t lo_of(const struct window *w, size_t i) { return i == 0 ? 0 : w->cps[i - 1]; }
static size_t hi_of(const struct window *w, size_t i, size_t k) { return i == k ? w->n : w->cps[i]; }

static void search(struct window *w, size_t i, size_t k)
{
    size_t s = lo_of(w, i), e = hi_of(w, i, k);
    w->ctau[i] = e - s > 1 ? candidate(w, s, e, &w->cq[i]) : 0;
}

/* Otava's ChangePointDetector.get_change_points on the window: returns the
 * number of change points, sorted in w->cps. */
static size_t detect(struct window *w, double threshold)
{
    const double *z = w->z;
    size_t n = w->n, k = 0;
    if (n < 2)
        return 0;
    /* V(t) over the whole window, each a sum in i order (numpy's sum over
     * axis 0 of the upper triangle). */
    for (size_t t = 0; t < n; t++) {
        if (stats_stop_poll(&w->stop, t + 1))
            return 0;
        double acc = 0.0;
        for (size_t i = 0; i < t; i++)
            acc += fabs(z[i] - z[t]);
        w->v[t] = acc;
    }
    /* Otava searches every interval again after each split; an interval's
     * candidate depends only on the interval, so each is kept until split. */
    search(w, 0, 0);
    while (!w->stop.stopped) {
        /* Python's max() over the intervals' candidates: the first of
         * equals, and a NaN only if it comes first. */
        size_t best = SIZE_MAX;
        for (size_t i = 0; i <= k; i++)
            if (w->ctau[i] && (best == SIZE_MAX || w->cq[i] > w->cq[best]))
                best = i;
        if (best == SIZE_MAX)
            break;
        size_t s = lo_of(w, best), e = hi_of(w, best, k), tau = w->ctau[best];
        struct changepoint c;
        ttest(z + s, tau - s, z + tau, e - tau, &c);
        if (!(c.pvalue <= threshold))
            break; /* the first candidate that is not significant ends it */
        memmove(w->cps + best + 1, w->cps + best, (k - best) * sizeof *w->cps);
        memmove(w->ctau + best + 2, w->ctau + best + 1, (k - best) * sizeof *w->ctau);
        memmove(w->cq + best + 2, w->cq + best + 1, (k - best) * sizeof *w->cq);
        w->cps[best] = tau;
        k++;
        search(w, best, k);
        search(w, best + 1, k);
    }
    return k;
}

/* ---- workspace ---- */

struct work {
    struct window w;
    unsigned char *weak; /* weak[i]: i is a weak change point */
};

size_t changepoint_work_size(size_t n, size_t window)
{
    size_t m = window < n ? window : n;
    /* v, sv, h, suf: m + 1 doubles each; cps, ctau, cq: m + 1 each. */
    return (size_t)7 * (m + 1) * sizeof(double) + n + 1;
}

static struct work carve(void *work, size_t n, size_t window)
{
    size_t m = (window < n ? window : n) + 1;
    double *d = work;
    struct work k;
    k.w.stop = (struct stats_stop_poll){0};
    k.w.v = d;
    k.w.sv = d + m;
    k.w.h = d + 2 * m;
    k.w.suf = d + 3 * m;
    k.w.cq = d + 4 * m;
    k.w.cps = (size_t *)(d + 5 * m);
    k.w.ctau = (size_t *)(d + 6 * m);
    k.weak = (unsigned char *)(d + 7 * m);
    return k;
}

size_t changepoint_detect(const double *x, size_t n, double threshold, void *work, size_t *out)
{
    struct work k = carve(work, n, n);
    k.w.z = x;
    k.w.n = n;
    size_t m = detect(&k.w, threshold);
    if (k.w.stop.stopped)
        return CHANGEPOINT_STOPPED;
    memcpy(out, k.w.cps, m * sizeof *out);
    return m;
}

/* ---- split and merge (otava/analysis.py) ---- */

/* Recomputes cps[i]'s statistics between its neighbours in the whole
 * series (TTestSignificanceTester.change_point with the merge-step sides). */
static void recompute(struct changepoint *cps, size_t m, size_t i, const double *x, size_t n)
{
    if (i >= m)
        return;
    size_t prev = i > 0 ? cps[i - 1].index : 0;
    size_t next = i + 1 < m ? cps[i + 1].index : n;
    size_t at = cps[i].index;
    ttest(x + prev, at - prev, x + at, next - at, &cps[i]);
}

size_t changepoint_otava(const double *x, size_t n, size_t window, double max_pvalue, double min_magnitude,
                         void *work, struct changepoint *out)
{
    if (n < 2)
        return 0;
    /* Windows beyond 2n behave as 2n: one window holds everything and the
     * next start is past the end. */
    if (window > 2 * n)
        window = 2 * n;
    struct work k = carve(work, n, window);
    memset(k.weak, 0, n);
    /* The first pass is more permissive ("weak" change points). */
    double first = max_pvalue < 0.05 ? max_pvalue * 10 : max_pvalue < 0.5 ? max_pvalue * 2 : max_pvalue;
    size_t step = window / 2;
    for (size_t start = 0; start < n;) {
        size_t end = start + window < n ? start + window : n;
        k.w.z = x + start;
        k.w.n = end - start;
        size_t found = detect(&k.w, first);
        if (k.w.stop.stopped)
            return CHANGEPOINT_STOPPED;
        for (size_t i = 0; i < found; i++)
            k.weak[k.w.cps[i] + start] = 1;
        size_t last = found ? k.w.cps[found - 1] + start : 0;
        start = last > start + step ? last : start + step;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (k.weak[i])
            out[m++].index = i;
    for (size_t i = 0; i < m; i++)
        recompute(out, m, i, x, n);

    /* Merge: drop the weakest until every p-value is < max_pvalue and every
     * magnitude > min_magnitude. */
    while (m > 0) {
        size_t w = 0;
        for (size_t i = 1; i < m; i++)
            if (out[i].pvalue > out[w].pvalue)
                w = i;
        if (out[w].pvalue < max_pvalue) {
            w = 0;
            double wm = changepoint_magnitude(&out[0]);
            for (size_t i = 1; i < m; i++) {
                double mi = changepoint_magnitude(&out[i]);
                if (mi < wm) {
                    w = i;
                    wm = mi;
                }
            }
            if (wm > min_magnitude)
                break;
        }
        memmove(out + w, out + w + 1, (m - w - 1) * sizeof *out);
        m--;
        /* Otava's quirk, kept: the right neighbour (now at w) and the point
         * after it are recomputed; the left neighbour (w - 1), whose right
         * segment just grew, keeps its stale statistics. */
        recompute(out, m, w, x, n);
        recompute(out, m, w + 1, x, n);
    }
    return m;
}
