/* A table's statistics as benchstat v2 computes them (benchmath's
 * AssumeNothing and AssumeExact, benchtab's summarizeCell and
 * summarizeCol; docs/queries.md, "compare"), with benchdb's own numerics
 * (src/stats): the median's order statistics, the U test's p under the
 * chosen method, the Hodges-Lehmann interval of the change. Then the
 * verdicts as the saved query `compare` gives them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/internal.h"
#include "compare/units.h"
#include "util/xalloc.h"

static const char *text(struct cmp_model *m, const char *s)
{
    return arena_strdup(&m->arena, s);
}

static void add_warn(const char **list, int *n, const char *w)
{
    if (w && *n < CMP_MAXWARN)
        list[(*n)++] = w;
}

/* benchmath's medianSamples: the least n in 2..50 whose interval at level
 * is bounded ("need >= N samples for confidence interval at level L"). */
static const char *ci_message(struct cmp_model *m, double level)
{
    int n = 2;
    for (; n <= 50; n++) {
        int64_t lo, hi;
        double conf;
        stats_median_orders(n, level, &lo, &hi, &conf);
        if (lo > 0 && hi <= n)
            break;
    }
    char lv[40], buf[160];
    cmp_go_float(level, lv, sizeof lv);
    snprintf(buf, sizeof buf, "need %s %d samples for confidence interval at level %s", n <= 50 ? ">=" : ">",
             n <= 50 ? n : 50, lv);
    return text(m, buf);
}

/* benchmath's uTestSamples at alpha: the least n whose best two-sided p
 * (two samples of n, all of one below all of the other: 2 / C(2n, n)) is
 * at most alpha; 10 when none up to 9 is. */
static int u_need(double alpha, const char **op)
{
    static const double min_p[] = {0, 1, 0.3333333333333333, 0.1, 0.02857142857142857, 0.007936507936507936,
                                   0.0021645021645021645, 0.0005827505827505828, 0.0001554001554001554,
                                   4.113533525298231e-05};
    for (int n = 1; n < 10; n++)
        if (min_p[n] <= alpha) {
            *op = ">=";
            return n;
        }
    *op = ">";
    return 10;
}

double cmp_best_p(int64_t n1, int64_t n2)
{
    double c = 1;
    int64_t k = n1 < n2 ? n1 : n2, n = n1 + n2;
    for (int64_t i = 1; i <= k && c < 2e6; i++)
        c = c * (double)(n - k + i) / (double)i;
    return c >= 2e6 ? 0 : c < 2 ? 1 : 2 / c;
}

void cmp_shift_short(char *buf, size_t size, int64_t n1, int64_t n2, double level)
{
    char lv[40];
    cmp_go_float(level, lv, sizeof lv);
    snprintf(buf, size, "with %lld+%lld%s%s", (long long)n1, (long long)n2, CMP_SHIFT_SHORT, lv);
}

/* go-moremath's Sample.Quantile(0.5), method R8, of sorted x. */
static double median_r8(const double *x, size_t n)
{
    double h = 1 / 3.0 + 0.5 * ((double)n + 1 / 3.0);
    double kf = floor(h), frac = h - kf;
    long k = (long)kf;
    if (k <= 0)
        return x[0];
    if (k >= (long)n)
        return x[n - 1];
    return x[k - 1] + frac * (x[k] - x[k - 1]);
}

static int sign_of(double x)
{
    return x < 0 ? -1 : x > 0 ? 1 : 0;
}

/* Summary.PctRangeString, and the same as a number (NAN when not one). */
static void pct_range(struct cmp_model *m, struct cmp_cell *c)
{
    char buf[32];
    c->pm = NAN;
    if (isinf(c->lo) || isinf(c->hi))
        c->pct = "∞";
    else if (sign_of(c->center) != sign_of(c->lo) || sign_of(c->center) != sign_of(c->hi))
        c->pct = "?";
    else if (c->center == 0) {
        c->pct = "0%";
        c->pm = 0;
    } else {
        double a = c->hi / c->center - 1, b = 1 - c->lo / c->center;
        c->pm = 100 * (a > b ? a : b);
        snprintf(buf, sizeof buf, "%.0f%%", c->pm);
        c->pct = text(m, buf);
    }
}

static void summary_nothing(struct cmp_model *m, struct cmp_cell *c, const double *x, size_t n, double level,
                            const char **ci_msg)
{
    int64_t lo, hi;
    double conf;
    stats_median_orders((int64_t)n, level, &lo, &hi, &conf);
    c->center = median_r8(x, n);
    c->lo = lo < 1 ? -INFINITY : x[lo - 1];
    c->hi = hi - 1 >= (int64_t)n ? INFINITY : x[hi - 1];
    if (isinf(c->lo) || isinf(c->hi)) {
        if (!*ci_msg)
            *ci_msg = ci_message(m, level);
        add_warn(c->warn, &c->nwarn, *ci_msg);
    }
}

/* AssumeExact: the mode (the least of the most frequent), min and max. */
static void summary_exact(struct cmp_model *m, struct cmp_cell *c, const double *x, size_t n)
{
    double val = x[0], mode = x[0];
    size_t count = 1, best = 1;
    for (size_t i = 1; i < n; i++) {
        if (x[i] == val) {
            if (++count > best)
                best = count, mode = val;
        } else
            val = x[i], count = 1;
    }
    c->center = mode;
    c->lo = x[0];
    c->hi = x[n - 1];
    if (best != n) {
        char a[40], b[40], buf[160];
        cmp_go_float(x[0], a, sizeof a);
        cmp_go_float(x[n - 1], b, sizeof b);
        snprintf(buf, sizeof buf, "exact distribution expected, but values range from %s to %s", a, b);
        add_warn(c->warn, &c->nwarn, text(m, buf));
    }
}

/* The U test of base against x (AssumeNothing.Compare): p, or P = 1 with
 * the test's error as a warning; and the warning when neither sample is
 * large enough to reach alpha. -1 when memory ran out or the exact method
 * would take too long (*err). */
static int u_test(struct cmp_model *m, struct cmp_cell *c, const double *base, size_t n1, const double *x, size_t n2,
                  const struct cmp_options *o, struct mw_obs *obs)
{
    for (size_t i = 0; i < n1; i++)
        obs[i] = (struct mw_obs){base[i], 1};
    for (size_t i = 0; i < n2; i++)
        obs[n1 + i] = (struct mw_obs){x[i], 0};
    struct mw_result r;
    int rc = stats_mann_whitney_method(obs, n1 + n2, o->method, &r);
    if (rc == -2 || rc == -3)
        return rc;
    c->tested = 1;
    c->n1 = (int64_t)n1;
    c->n2 = (int64_t)n2;
    if (rc || isnan(r.p)) {
        c->p_raw = 1;
        add_warn(c->cwarn, &c->ncwarn, "all samples are equal");
        return 0;
    }
    c->p_raw = r.p;
    if (r.p > o->alpha) {
        const char *op;
        int need = u_need(o->alpha, &op);
        if ((int64_t)n1 < need && (int64_t)n2 < need) {
            char a[40], buf[128];
            cmp_go_float(o->alpha, a, sizeof a);
            snprintf(buf, sizeof buf, "need %s %d samples to detect a difference at alpha level %s", op, need, a);
            add_warn(c->cwarn, &c->ncwarn, text(m, buf));
        }
        /* No outcome could reach alpha: benchstat's warning above when
         * both sides are small, but also 3 against 4, 2 against 7, 1
         * against 38 at 0.05, which it leaves unsaid. */
        c->too_few = cmp_best_p(c->n1, c->n2) > o->alpha;
    }
    return 0;
}

/* The Hodges-Lehmann interval of ln(x) - ln(base), as a change in
 * percent, when every value is positive. */
static int change_interval(struct cmp_cell *c, const double *base, size_t n1, const double *x, size_t n2,
                           double level, struct mw_obs *obs)
{
    for (size_t i = 0; i < n1; i++)
        if (!(base[i] > 0))
            return 0;
    for (size_t i = 0; i < n2; i++)
        if (!(x[i] > 0))
            return 0;
    for (size_t i = 0; i < n2; i++)
        obs[i] = (struct mw_obs){log(x[i]), 1};
    for (size_t i = 0; i < n1; i++)
        obs[n2 + i] = (struct mw_obs){log(base[i]), 0};
    struct hl_result h;
    int rc = stats_hodges_lehmann(obs, n1 + n2, level, &h);
    if (rc == -2)
        return -1;
    if (rc == 0 && !isnan(h.lo) && !isnan(h.hi)) {
        c->has_ci = 1;
        c->ci_lo = (exp(h.lo) - 1) * 100;
        c->ci_hi = (exp(h.hi) - 1) * 100;
    }
    return 0;
}

/* go-moremath's GeoMean: NaN when a value is <= 0 or there is none. */
static double go_geomean(const double *x, size_t n)
{
    if (!n)
        return NAN;
    double mean = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0))
            return NAN;
        mean += (log(x[i]) - mean) / (double)(i + 1);
    }
    return exp(mean);
}

/* benchtab's summarizeCol: the geomean of the column's centers and, after
 * the first column, of its ratios to the first. benchstat warns that the
 * benchmark set differs when the baseline has a row the column lacks;
 * with benchdb's columns (extras) also when the column has a row the
 * baseline lacks, as the query does: its geomean is then over rows the
 * change is not (--benchstat keeps benchstat's text). */
static int column_summary(struct cmp_table *t, int c, double *buf, double *ratios, int extras)
{
    struct cmp_sum *s = &t->sums[c];
    size_t n = 0, nr = 0, nbase = 0;
    int bad_ratio = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        const struct cmp_cell *x = &t->rows[r].cells[c], *b = &t->rows[r].cells[0];
        nbase += b->present;
        if (!x->present)
            continue;
        buf[n++] = x->center;
        if (c == 0 || !b->present)
            continue;
        if (x->center == b->center)
            ratios[nr++] = 1;
        else if (b->center == 0) {
            bad_ratio = 1;
            ratios[nr++] = 0;
        } else
            ratios[nr++] = x->center / b->center;
    }
    s->n = (int64_t)n;
    if (c > 0 && (nbase != nr || (extras && n != nr)))
        s->warn[s->nwarn++] = "benchmark set differs from baseline; geomeans may not be comparable";
    double gm = go_geomean(buf, n);
    if (isnan(gm))
        s->warn[s->nwarn++] = "summaries must be >0 to compute geomean";
    else
        s->has_summary = 1, s->summary = gm;
    if (c > 0 && !bad_ratio) {
        gm = go_geomean(ratios, nr);
        if (isnan(gm))
            s->warn[s->nwarn++] = "ratios must be >0 to compute geomean";
        else
            s->has_ratio = 1, s->ratio = gm;
    }
    return 0;
}

int cmp_table_summarize(struct cmp_table *t, int extras)
{
    double *buf = xmalloc((2 * t->nrows + 1) * sizeof *buf);
    if (!buf)
        return -1;
    int rc = 0;
    for (int c = 0; rc == 0 && c < t->ncols; c++)
        rc = column_summary(t, c, buf, buf + t->nrows, extras);
    free(buf);
    return rc;
}

int cmp_table_stats(struct cmp_model *m, struct cmp_table *t, const struct cmp_options *o, double **vals,
                    size_t *nvals)
{
    size_t most = 0;
    for (size_t k = 0; k < t->nrows * (size_t)t->ncols; k++)
        most = nvals[k] > most ? nvals[k] : most;
    struct mw_obs *obs = xmalloc((2 * most + 1) * sizeof *obs);
    double *buf = xmalloc((2 * t->nrows + 1) * sizeof *buf);
    t->sums = arena_alloc(&m->arena, (size_t)t->ncols * sizeof *t->sums);
    if (!obs || !buf || !t->sums) {
        free(obs);
        free(buf);
        return -1;
    }
    const char *ci_msg = NULL;
    int rc = 0;
    for (size_t r = 0; rc == 0 && r < t->nrows; r++)
        for (int c = 0; rc == 0 && c < t->ncols; c++) {
            struct cmp_cell *x = &t->rows[r].cells[c];
            const double *v = vals[r * (size_t)t->ncols + (size_t)c], *bv = vals[r * (size_t)t->ncols];
            size_t n = nvals[r * (size_t)t->ncols + (size_t)c], nb = nvals[r * (size_t)t->ncols];
            x->change = NAN;
            if (!n)
                continue;
            x->present = 1;
            x->n = (int64_t)n;
            if (t->exact)
                summary_exact(m, x, v, n);
            else
                summary_nothing(m, x, v, n, o->level, &ci_msg);
            pct_range(m, x);
            if (c == 0 || !nb)
                continue;
            x->compared = 1;
            x->n1 = (int64_t)nb;
            x->n2 = (int64_t)n;
            if (!t->exact) {
                rc = u_test(m, x, bv, nb, v, n, o, obs);
                if (rc == 0 && o->extras)
                    rc = change_interval(x, bv, nb, v, n, o->level, obs);
            }
        }
    for (int c = 0; rc == 0 && c < t->ncols; c++)
        rc = column_summary(t, c, buf, buf + t->nrows, o->extras);
    free(obs);
    free(buf);
    return rc;
}

/* ---- judging: p adjusted per pair of sides, deltas, verdicts ---- */

struct pref {
    const char *a, *b; /* the pair's labels */
    struct cmp_cell *cell;
    size_t seq;        /* order of the cell in the model (ties) */
};

static int by_pair_p(const void *x, const void *y)
{
    const struct pref *a = x, *b = y;
    int c = strcmp(a->a, b->a);
    if (!c)
        c = strcmp(a->b, b->b);
    if (c)
        return c;
    if (a->cell->p_raw != b->cell->p_raw)
        return a->cell->p_raw < b->cell->p_raw ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* R's p.adjust over p[0..n), sorted ascending, into the cells. */
static void adjust_run(struct pref *p, size_t n, enum cmp_adjust how)
{
    double m = (double)n, acc = 0;
    if (how == CMP_ADJUST_HOLM) {
        for (size_t i = 0; i < n; i++) {
            double v = (m - (double)i) * p[i].cell->p_raw;
            acc = i == 0 || v > acc ? v : acc;
            p[i].cell->p = acc < 1 ? acc : 1;
        }
        return;
    }
    for (size_t i = n; i-- > 0;) {
        double v = m / (double)(i + 1) * p[i].cell->p_raw;
        acc = i == n - 1 || v < acc ? v : acc;
        p[i].cell->p = acc < 1 ? acc : 1;
    }
}

static int adjust_all(struct cmp_model *m)
{
    size_t n = 0, seq = 0;
    for (size_t t = 0; t < m->ntables; t++)
        for (size_t r = 0; r < m->tables[t].nrows; r++)
            for (int c = 1; c < m->tables[t].ncols; c++)
                n += m->tables[t].rows[r].cells[c].tested;
    struct pref *p = xmalloc((n ? n : 1) * sizeof *p);
    if (!p)
        return -1;
    n = 0;
    for (size_t t = 0; t < m->ntables; t++)
        for (size_t r = 0; r < m->tables[t].nrows; r++)
            for (int c = 1; c < m->tables[t].ncols; c++, seq++)
                if (m->tables[t].rows[r].cells[c].tested)
                    p[n++] = (struct pref){m->tables[t].cols[0], m->tables[t].cols[c], &m->tables[t].rows[r].cells[c], seq};
    qsort(p, n, sizeof *p, by_pair_p);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && strcmp(p[j].a, p[i].a) == 0 && strcmp(p[j].b, p[i].b) == 0; j++)
            ;
        adjust_run(p + i, j - i, m->adjust);
    }
    free(p);
    return 0;
}

/* The saved query's verdict of a compared cell (docs/queries.md): which
 * way the median moved (not the change's sign, which a negative baseline
 * turns over), as the unit reads it. */
static const char *verdict(const struct cmp_table *t, const struct cmp_cell *c, double base, double alpha)
{
    if (!t->exact && c->p > alpha)
        return "~";
    if (isnan(c->center) || isnan(base))
        return "?";
    if (c->change == 0)
        return "same";
    /* From a baseline of 0 too, where the change is undefined (NaN): 0 to
     * 16 B/op is worse. */
    int up = c->center > base;
    if (strcmp(t->kind, "time") == 0)
        return up ? "slower" : "faster";
    if (strcmp(t->kind, "throughput") == 0 || strcmp(t->kind, "byte-throughput") == 0)
        return up ? "faster" : "slower";
    if (t->direction && strcmp(t->direction, "lower") == 0)
        return up ? "worse" : "better";
    if (t->direction && strcmp(t->direction, "higher") == 0)
        return up ? "better" : "worse";
    return up ? "higher" : "lower";
}

/* Comparison.FormatDelta, the change and the verdict of a compared cell. */
static void judge_cell(struct cmp_model *m, const struct cmp_table *t, struct cmp_cell *c, const struct cmp_cell *b,
                       const struct cmp_options *o)
{
    if (!c->tested)
        c->p = c->p_raw = 0; /* an exact unit: no test, the change is shown */
    else if (m->adjust == CMP_ADJUST_NONE)
        c->p = c->p_raw;
    double oldv = b->center, newv = c->center;
    c->change = oldv == newv ? 0 : oldv == 0 ? NAN : (newv / oldv - 1) * 100;
    char buf[40];
    if (c->tested && c->p > o->alpha)
        c->delta = "~";
    else if (oldv == newv)
        c->delta = "0.00%";
    else if (oldv == 0)
        c->delta = "?";
    else {
        snprintf(buf, sizeof buf, "%+.2f%%", c->change);
        c->delta = text(m, buf);
    }
    c->verdict = verdict(t, c, oldv, o->alpha);
    c->regressed = (strcmp(c->verdict, "slower") == 0 || strcmp(c->verdict, "worse") == 0) &&
                   (isnan(c->change) || fabs(c->change) > o->threshold); /* from 0: by more than any threshold */
    m->compared++;
    m->regressed += (size_t)c->regressed;
}

int cmp_model_judge(struct cmp_model *m, const struct cmp_options *o)
{
    if (m->adjust != CMP_ADJUST_NONE && adjust_all(m))
        return -1;
    for (size_t t = 0; t < m->ntables; t++) {
        struct cmp_table *tb = &m->tables[t];
        for (size_t r = 0; r < tb->nrows; r++)
            for (int c = 1; c < tb->ncols; c++)
                if (tb->rows[r].cells[c].compared)
                    judge_cell(m, tb, &tb->rows[r].cells[c], &tb->rows[r].cells[0], o);
    }
    return m->arena.failed ? -1 : 0;
}
