/* Wilcoxon rank-sum / Mann-Whitney U test, two-sided, with three choices of
 * null distribution (stats/rank.h, enum mw_method):
 *  - R's wilcox.test(x, y) defaults: exact when both samples are below 50
 *    values and there are no ties (the counting recursion of R's cwilcox),
 *    else the normal approximation with tie and continuity correction;
 *  - the exact conditional distribution given the ties, at any size the
 *    work allows;
 *  - benchstat's policy (go-moremath MannWhitneyUTest): exact, with ties
 *    too, up to 50 values without ties and 25 with, else normal.
 * All methods report R's W = (rank sum of sample 1) - n1 (n1 + 1) / 2. */
#include <float.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/dd.h"
#include "stats/rank.h"

static int cmp_obs(const void *a, const void *b)
{
    double x = ((const struct mw_obs *)a)->x, y = ((const struct mw_obs *)b)->x;
    return (x > y) - (x < y);
}

/* The same counts while every one of them is an exact integer (their sum
 * C(m + n, m) at most 2^53): the coefficients of the Gaussian binomial
 * [m + n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), built one
 * factor at a time; after step i they are those of [n + i choose i]_q.
 * O(m^2 n) operations and one array, where the recursion below takes
 * O(m^2 n^2) and two tables of (n + 1) (m n + 1): what makes a compare of
 * many small cells fast. Exact arithmetic, so the same numbers. */
static double *wilcox_counts_exact(int m, int n)
{
    /* Room for the product's degree, i n + i, before each division. */
    size_t width = (size_t)m * (size_t)n + (size_t)m + 1;
    double *c = calloc(width, sizeof *c);
    if (!c)
        return NULL;
    c[0] = 1;
    for (size_t i = 1; i <= (size_t)m; i++) {
        size_t a = (size_t)n + i, deg = (i - 1) * (size_t)n; /* degree before this step */
        for (size_t k = deg + a; k >= a; k--) /* times (1 - q^a) */
            c[k] -= c[k - a];
        for (size_t k = i; k <= deg + (size_t)n; k++) /* over (1 - q^i): exact */
            c[k] += c[k - i];
        for (size_t k = deg + (size_t)n + 1; k <= deg + a; k++) /* what the division leaves is 0 */
            c[k] = 0;
    }
    return c;
}

/* counts[k] = number of arrangements of m + n ranks where the first sample's
 * U statistic is k, for k = 0..m*n: the recursion R's cwilcox() uses,
 *   c(k; i, j) = c(k - j; i - 1, j) + c(k; i, j - 1),
 * run bottom-up over i in one table of rows j = 0..n, updated in place:
 * row j from j = 1 up (row j - 1 already of step i), each row from its
 * highest k down (c(k - j; i - 1, j) not yet overwritten). Every count is
 * the same sum of the same two counts as with a table a step, so the same
 * bits, in half the memory and without a copy or a branch an element.
 * Returns NULL on OOM. */
static double *wilcox_counts(int m, int n)
{
    double total = 1;
    for (int i = 1; i <= m && total <= 0x1p53; i++)
        total = total * (n + i) / i; /* C(n + i, i), exact while it stays below 2^53 */
    if (total <= 0x1p53)
        return wilcox_counts_exact(m, n);
    size_t width = (size_t)m * (size_t)n + 1;
    double *c = calloc((size_t)(n + 1) * width, sizeof *c);
    double *out = malloc(width * sizeof *out);
    if (!c || !out) {
        free(c);
        free(out);
        return NULL;
    }
    /* i = 0: only k = 0, for every j; row 0 stays so (k = 0 only). */
    for (int j = 0; j <= n; j++)
        c[(size_t)j * width] = 1;
    for (size_t i = 1; i <= (size_t)m; i++) {
        for (size_t j = 1; j <= (size_t)n; j++) {
            double *row = c + j * width;
            const double *left = row - width;
            /* c(k; i, j) is 0 past k = i j (U of i values against j), and
             * both its terms are: row j stays as calloc left it there, the
             * +0 that adding the two zeros gave before. */
            size_t kmax = i * j;
            for (size_t k = kmax; k >= j; k--)
                row[k] = left[k] + row[k - j];
            for (size_t k = 0; k < j; k++)
                row[k] = left[k];
        }
    }
    memcpy(out, c + (size_t)n * width, width * sizeof *out);
    free(c);
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

int stats_qwilcox_lower(double p, int m, int n) { return stats_qwilcox_lower_below(p, m, n, NULL); }

int stats_qwilcox_lower_below(double p, int m, int n, double *below)
{
    double *c = wilcox_counts(m, n);
    if (!c)
        return -1;
    double total = 0;
    for (size_t k = 0; k <= (size_t)m * (size_t)n; k++)
        total += c[k];
    /* As R's qwilcox: the first q whose cumulated probability reaches p
     * less 10 DBL_EPSILON. */
    p -= 10 * DBL_EPSILON;
    double acc = 0, before = 0;
    int q = 0;
    for (;;) {
        before = acc;
        acc += c[q] / total;
        if (acc >= p || q == m * n)
            break;
        q++;
    }
    /* pwilcox(max(q, 1) - 1, m, n) sums the same terms in the same order
     * (q <= m n / 2 here): the same bits, from one table of counts. */
    if (below)
        *below = q >= 1 ? before : acc;
    free(c);
    return q;
}

/* Twice the elements a vector where the processor has AVX2 (x86-64, GCC's
 * multiversioning: one copy compiled for AVX2, one for the base
 * instruction set, chosen once at load): each element gets the same IEEE
 * additions in any vector width (and there is no product to fuse), so the
 * same bits; about a quarter less CPU in unit/mw_exact (docs/testing.md,
 * "The exact Mann-Whitney counts in blocks of steps"). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define MW_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define MW_CLONES
#endif

/* Adds the counts from[k] to to[k + shift] for k in [a, b], each count a
 * double-double hi + lo: the counts pass 2^53 from 57 values on (C(57,
 * 28)), and a count of the largest samples is the sum of up to N rounded
 * additions, which in doubles alone drift by up to about N/3 units of
 * 2^-53 (p was 1.5e-14 off at 40 against 1,200, 3e-14 at 20 against
 * 2,400). The error of each addition is kept exactly (two-sum, no branch)
 * and added to lo, so a count is good to about N 2^-106. */
MW_CLONES
static void add_shifted(double *restrict to_hi, double *restrict to_lo, const double *restrict from_hi,
                        const double *restrict from_lo, size_t a, size_t b, int64_t shift)
{
    to_hi += (int64_t)a + shift;
    to_lo += (int64_t)a + shift;
    from_hi += a;
    from_lo += a;
    for (size_t k = 0, len = b - a + 1; k < len; k++) {
        double x = to_hi[k], y = from_hi[k];
        double sum = x + y, yy = sum - x;
        double err = (x - (sum - yy)) + (y - yy);
        to_hi[k] = sum;
        to_lo[k] += from_lo[k] + err;
    }
}

/* add_shifted while every count is an exact integer (no lo rows): one
 * addition an element. Rows to and from are distinct rows of one array,
 * which restrict tells the compiler, so that the loop is vectorized too
 * (it was not, written in place in cond_counts). */
MW_CLONES
static void add_shifted_exact(double *restrict to, const double *restrict from, size_t a, size_t b, int64_t shift)
{
    to += (int64_t)a + shift;
    from += a;
    for (size_t k = 0, len = b - a + 1; k < len; k++)
        to[k] += from[k];
}

/* cond_counts' rows: hi counts (and lo ones, or NULL), each of width
 * elements, row j's non-zero range lo[j] .. hi[j] (empty when lo > hi). */
struct cond_rows {
    double *c, *cl;
    size_t width, *lo, *hi;
};

/* The bytes of rows that a block of steps keeps in the cache (of the
 * 32 MB L3 of the machines measured, shared), and the most steps a block:
 * docs/testing.md, "The exact Mann-Whitney counts in blocks of steps". */
#define COND_BLOCK_BYTES ((size_t)8 << 20)
#define COND_BLOCK_STEPS 16

/* Step i (observation i, twice its mid-rank score2[i]) for row j: the
 * j-subsets that take observation i, from the (j - 1)-subsets of the
 * observations before it. Nothing when row j cannot hold subsets of the
 * first i + 1 observations or can no longer reach nsel. */
static void cond_step(struct cond_rows *r, const int64_t *score2, size_t N, size_t nsel, size_t i, size_t j)
{
    size_t left = N - 1 - i; /* observations after this one */
    size_t jmax = i + 1 < nsel ? i + 1 : nsel;
    size_t jmin = nsel > left + 1 ? nsel - left : 1;
    size_t *lo = r->lo, *hi = r->hi, width = r->width;
    if (j < jmin || j > jmax || lo[j - 1] > hi[j - 1])
        return;
    /* 2 R + s - j (j + 1) = (2 R - (j - 1) j) + s - 2 j */
    int64_t shift = score2[i] - 2 * (int64_t)j;
    double *c = r->c, *cl = r->cl;
    if (cl) {
        add_shifted(c + j * width, cl + j * width, c + (j - 1) * width, cl + (j - 1) * width, lo[j - 1], hi[j - 1],
                    shift);
    } else {
        add_shifted_exact(c + j * width, c + (j - 1) * width, lo[j - 1], hi[j - 1], shift);
    }
    size_t a = (size_t)((int64_t)lo[j - 1] + shift), b = (size_t)((int64_t)hi[j - 1] + shift);
    if (lo[j] > hi[j]) {
        lo[j] = a;
        hi[j] = b;
    } else {
        lo[j] = a < lo[j] ? a : lo[j];
        hi[j] = b > hi[j] ? b : hi[j];
    }
}

/* The exact conditional null distribution of 2U for a sample of nsel of the
 * N observations, given their twice-mid-ranks score2[0..N) (ascending):
 * hi[k] + lo[k], k = 0 .. 2 nsel (N - nsel), counts the nsel-subsets whose
 * twice rank sum less nsel (nsel + 1) is k. Subsets grow one observation
 * at a time (Streitberg and Roehmel's shift algorithm, which gives a tie
 * group of t the weights C(t, j) by itself): row j holds the j-subsets of
 * the observations seen so far, indexed by 2 (rank sum) - j (j + 1), never
 * negative (j mid-ranks sum to at least 1 + ... + j) and at most
 * 2 j (N - j) <= 2 nsel (N - nsel) as nsel <= N / 2. Rows that can no
 * longer reach nsel are skipped. Counts are double-doubles (add_shifted)
 * once they can pass 2^53, exact doubles before.
 * Returns -1 when memory ran out; *hi and *lo are then NULL. */
static int cond_counts(const int64_t *score2, size_t N, size_t nsel, double **out_hi, double **out_lo)
{
    size_t width = 2 * nsel * (N - nsel) + 1;
    /* While C(N, nsel), the sum of all counts, is at most 2^53 every count
     * is an exact integer in a double: no lo rows (*out_lo NULL). */
    double all = 1;
    for (size_t i = 1; i <= nsel && all <= 0x1p53; i++)
        all = all * (double)(N - nsel + i) / (double)i;
    int two = all > 0x1p53;
    double *c = calloc((two ? 2 : 1) * (nsel + 1) * width, sizeof *c); /* hi rows, then lo rows */
    size_t *lo = malloc((nsel + 1) * sizeof *lo), *hi = malloc((nsel + 1) * sizeof *hi);
    double *oh = malloc(width * sizeof *oh), *ol = two ? malloc(width * sizeof *ol) : NULL;
    *out_hi = *out_lo = NULL;
    if (!c || !lo || !hi || !oh || (two && !ol)) {
        free(c);
        free(lo);
        free(hi);
        free(oh);
        free(ol);
        return -1;
    }
    double *cl = two ? c + (nsel + 1) * width : NULL;
    c[0] = 1;
    lo[0] = hi[0] = 0;
    for (size_t j = 1; j <= nsel; j++) {
        lo[j] = width; /* empty: lo > hi */
        hi[j] = 0;
    }
    /* The steps i in blocks of up to T, each block as a wavefront
     * (cond_step): the rows a block touches come from memory once a block
     * instead of once a step. */
    size_t row_bytes = (two ? 2 : 1) * width * sizeof *c;
    size_t T = COND_BLOCK_BYTES / row_bytes;
    T = T < 1 ? 1 : T > COND_BLOCK_STEPS ? COND_BLOCK_STEPS : T;
    struct cond_rows r = {c, cl, width, lo, hi};
    for (size_t i0 = 0; i0 < N; i0 += T) {
        int64_t steps = (int64_t)(N - i0 < T ? N - i0 : T);
        /* Row j of step i0 + t at wave w = j - t, from the highest w down:
         * row j of step i (reading row j - 1 after step i - 1 and before
         * step i) then comes after (i - 1, j - 1) and (i - 1, j), which share
         * its wave or the one before, and before (i, j - 1), on the next. */
        for (int64_t w = (int64_t)nsel; w > -steps; w--)
            for (int64_t t = 0; t < steps; t++)
                if (w + t >= 1 && w + t <= (int64_t)nsel)
                    cond_step(&r, score2, N, nsel, i0 + (size_t)t, (size_t)(w + t));
    }
    memcpy(oh, c + nsel * width, width * sizeof *oh);
    if (two)
        memcpy(ol, cl + nsel * width, width * sizeof *ol);
    free(c);
    free(lo);
    free(hi);
    *out_hi = oh;
    *out_lo = ol;
    return 0;
}

/* a / b for counts: one IEEE division while both are exact integers
 * (below 2^53: the ratio rounded once), else double-double's. */
static double ratio(dd a, dd b)
{
    if (b.lo == 0 && b.hi <= 0x1p53)
        return a.hi / b.hi;
    dd q = dd_div(a, b);
    return q.hi + q.lo;
}

/* Two-sided p from the conditional distribution: MW_EXACT's
 * min(1, 2 min(P(W <= u), P(W >= u))) or benchstat's 2 P(W <= min(u,
 * n1 n2 - u)). score2 as for cond_counts; the tails and the total are
 * summed in double-double and divided there. NaN when memory ran out. */
static double cond_p(const int64_t *score2, int64_t n1, int64_t n2, double u, enum mw_method method)
{
    size_t N = (size_t)(n1 + n2), nsel = (size_t)(n1 <= n2 ? n1 : n2);
    double *ch, *cl;
    if (cond_counts(score2, N, nsel, &ch, &cl))
        return NAN;
    /* c counts 2U of the smaller sample; 2 W = 2 n1 n2 - 2U when that is
     * sample 2. */
    size_t width = 2 * nsel * (N - nsel) + 1;
    int flip = n1 > n2;
#define AT(k) dd_make(flip ? ch[width - 1 - (k)] : ch[(k)], !cl ? 0 : flip ? cl[width - 1 - (k)] : cl[(k)])
    dd total = dd_d(0);
    for (size_t k = 0; k < width; k++)
        total = dd_add(total, AT(k));
    double p;
    if (method == MW_BENCHSTAT) {
        double m = (double)n1 * (double)n2;
        double small = u < m - u ? u : m - u;
        dd le = dd_d(0);
        for (size_t k = 0; k <= (size_t)(2 * small); k++)
            le = dd_add(le, AT(k));
        p = ratio(le, total) * 2;
    } else {
        size_t w2 = (size_t)(2 * u);
        dd le = dd_d(0), ge = dd_d(0);
        for (size_t k = 0; k <= w2; k++)
            le = dd_add(le, AT(k));
        for (size_t k = w2; k < width; k++)
            ge = dd_add(ge, AT(k));
        p = 2 * ratio(le.hi < ge.hi ? le : ge, total);
        if (p > 1)
            p = 1;
    }
#undef AT
    free(ch);
    free(cl);
    return p;
}

/* C(n, k) as an exact integer, for n <= 50 (C(50, 25) < 2^47, so the
 * double is exact too; each step's product stays below 2^53). 0 outside
 * 0 <= k <= n. */
static double choose_exact(int64_t n, int64_t k)
{
    if (k < 0 || k > n)
        return 0;
    if (k > n - k)
        k = n - k;
    uint64_t c = 1;
    for (int64_t i = 1; i <= k; i++)
        c = c * (uint64_t)(n - k + i) / (uint64_t)i; /* exact: C(n - k + i, i) */
    return (double)c;
}

/* benchstat's p when the values take exactly two distinct values, t0 of
 * the lower and t1 of the higher: go-moremath's UDist.CDF(min(U1, U2))
 * doubles the count of choices of sample 1 (r2 of its n1 values from the
 * higher group) whose 2 U1 = n1 (t0 - n1) + r2 (t0 + t1) is at most
 * 2 min(U1, U2). Its makeUmemo bounds r2 by (2U - n1 (t0 - n1)) / (t0 + t1)
 * in Go's integer division, which truncates toward zero: when min(U1, U2)
 * lies below U1's smallest value the bound is 0, not -1, and the choice
 * r2 = 0 (when there is one) is counted. The distribution with ties is not
 * symmetric, so the mirrored U2 can lie there (docs/functions.md,
 * mann_whitney). C's division truncates as Go's does; every count is an
 * exact integer, so the p is the exact ratio rounded once. */
static double benchstat_two_groups(int64_t n1, int64_t n2, int64_t t0, int64_t t1, double small)
{
    int64_t n = t0 + t1, two_u = (int64_t)(2 * small);
    int64_t lo = n1 - t0 > 0 ? n1 - t0 : 0, hi = (two_u - n1 * (t0 - n1)) / n;
    double le = 0;
    for (int64_t r2 = lo; r2 <= hi && r2 <= n1; r2++)
        le += choose_exact(t0, n1 - r2) * choose_exact(t1, r2);
    return le / choose_exact(n1 + n2, n1) * 2;
}

int stats_mann_whitney(struct mw_obs *obs, size_t n, struct mw_result *out)
{
    return stats_mann_whitney_method(obs, n, MW_R, out);
}

/* Over obs sorted by value: the rank sum (mid-ranks) of the first sample,
 * the sum of t^3 - t over the tie groups (t values each), the number of
 * groups and the size of the lowest. */
static void rank_sums(const struct mw_obs *obs, size_t n, double *ranksum, double *ties, size_t *groups, size_t *lowest)
{
    *ranksum = 0;
    *ties = 0;
    *groups = 0;
    *lowest = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && obs[j].x == obs[i].x)
            j++;
        double rank = ((double)(i + 1) + (double)j) / 2;
        for (size_t k = i; k < j; k++)
            if (obs[k].first)
                *ranksum += rank;
        double t = (double)(j - i);
        *ties += t * t * t - t;
        if ((*groups)++ == 0)
            *lowest = j - i;
        i = j;
    }
}

/* benchstat's p without ties: the plain distribution of U for (n1, n2),
 * exact integers while they sum below 2^53, hence the same p as cond_p's
 * at a fraction of its work (most benchmark cells: 10 values a side).
 * 1 with *p, 0 when the counts are too large for that, -2 when memory ran
 * out. */
static int benchstat_plain_p(int64_t n1, int64_t n2, double w, double *p)
{
    double nx = (double)n1, ny = (double)n2;
    double all = 1;
    for (int64_t i = 1; i <= n1 && all <= 0x1p53; i++)
        all = all * (double)(n2 + i) / (double)i;
    if (all > 0x1p53)
        return 0;
    double *c = wilcox_counts((int)n1, (int)n2);
    if (!c)
        return -2;
    double m = nx * ny, small = w < m - w ? w : m - w, total = 0, le = 0;
    for (size_t k = 0; k <= (size_t)m; k++)
        total += c[k];
    for (size_t k = 0; k <= (size_t)small; k++)
        le += c[k];
    free(c);
    *p = le / total * 2;
    return 1;
}

/* The p from the conditional distribution given the ties of obs (sorted
 * by value): 0, or -2 when memory ran out. */
static int conditional_p(const struct mw_obs *obs, size_t n, int64_t n1, int64_t n2, double w, enum mw_method method,
                         struct mw_result *out)
{
    int64_t *score2 = malloc(n * sizeof *score2);
    if (!score2)
        return -2;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && obs[j].x == obs[i].x)
            j++;
        for (size_t k = i; k < j; k++)
            score2[k] = (int64_t)(i + 1 + j);
        i = j;
    }
    out->p = cond_p(score2, n1, n2, w, method);
    free(score2);
    return isnan(out->p) ? -2 : 0;
}

/* The exact p of MW_EXACT and MW_BENCHSTAT (U = w; ties, groups and lowest
 * as rank_sums gives them): 0, -2 when memory ran out, -3 when MW_EXACT's
 * work would exceed MW_EXACT_WORK. */
static int exact_p(const struct mw_obs *obs, size_t n, int64_t n1, int64_t n2, double w, double ties, size_t groups,
                   size_t lowest, enum mw_method method, struct mw_result *out)
{
    double nx = (double)n1, ny = (double)n2;
    if (method == MW_BENCHSTAT && groups == 1) {
        out->p = NAN; /* go-moremath: "all samples are equal" */
        return 0;
    }
    if (method == MW_BENCHSTAT && w == nx * ny - w) {
        out->p = 1;
        return 0;
    }
    double nsel = fmin(nx, ny);
    if (method == MW_EXACT && (nx + ny) * nsel * (2 * nsel * (nx + ny - nsel) + 1) > MW_EXACT_WORK)
        return -3;
    if (method == MW_BENCHSTAT && groups == 2) {
        double m = nx * ny;
        out->p = benchstat_two_groups(n1, n2, (int64_t)lowest, (int64_t)n - (int64_t)lowest, w < m - w ? w : m - w);
        return 0;
    }
    if (method == MW_BENCHSTAT && ties == 0) {
        int rc = benchstat_plain_p(n1, n2, w, &out->p);
        if (rc)
            return rc < 0 ? rc : 0;
    }
    return conditional_p(obs, n, n1, n2, w, method, out);
}

int stats_mann_whitney_method(struct mw_obs *obs, size_t n, enum mw_method method, struct mw_result *out)
{
    int64_t n1 = 0, n2 = 0;
    for (size_t i = 0; i < n; i++)
        obs[i].first ? n1++ : n2++;
    if (n1 == 0 || n2 == 0)
        return -1;
    qsort(obs, n, sizeof *obs, cmp_obs);
    /* Mid-ranks; the rank sum of the first sample; sum of t^3 - t over ties. */
    double ranksum, ties;
    size_t groups, lowest; /* lowest: the size of the lowest tie group */
    rank_sums(obs, n, &ranksum, &ties, &groups, &lowest);
    double nx = (double)n1, ny = (double)n2;
    double w = ranksum - nx * (nx + 1) / 2;
    out->u = w;
    out->n1 = n1;
    out->n2 = n2;
    switch (method) {
    case MW_R:
        out->exact = n1 < 50 && n2 < 50 && ties == 0;
        break;
    case MW_EXACT:
        out->exact = 1;
        break;
    case MW_BENCHSTAT:
        out->exact = ties == 0 ? n1 <= 50 && n2 <= 50 : n1 <= 25 && n2 <= 25;
        break;
    }
    if (out->exact && method == MW_R) {
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
    if (out->exact)
        return exact_p(obs, n, n1, n2, w, ties, groups, lowest, method, out);
    double z = w - nx * ny / 2;
    double sigma = sqrt((nx * ny / 12) * ((nx + ny + 1) - ties / ((nx + ny) * (nx + ny - 1))));
    double correction = z > 0 ? 0.5 : z < 0 ? -0.5 : 0;
    z = (z - correction) / sigma;
    out->p = isnan(z) ? NAN : 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z));
    return 0;
}
