/* Unit tests of the rank and order-statistic methods (src/stats/rank.h):
 * benchstat's order statistics and U-test examples as go-moremath computed
 * them (tests/data/benchstat/quantileci_and_utest_probe.txt, read here),
 * the exact conditional Mann-Whitney distribution against an enumeration
 * of every split, and the selection of shift differences against sorting
 * them all. R's numbers are checked by tests/sql/fn_rank_r.sql. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>

#include "stats/rank.h"

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fmax(fabs(want), 1e-300))) {
        print_error("got %.17g, want %.17g (relative tolerance %g)\n", got, want, rel);
        fail();
    }
}

static FILE *open_probe(void)
{
    FILE *f = fopen(TEST_SRC_DIR "/tests/data/benchstat/quantileci_and_utest_probe.txt", "r");
    assert_non_null(f);
    return f;
}

/* Where benchdb's exact binomial arithmetic chooses the other of two
 * equally probable intervals than go-moremath, whose C(n, k) above n = 20
 * is exp(lgamma(...)) and breaks the tie by its last bits. */
static int lgamma_tie(double level, int n)
{
    return (level == 0.95 && n == 24) || (level == 0.99 && n == 28) || (level == 0.9 && (n == 22 || n == 29));
}

static void test_orders_probe(void **state)
{
    (void)state;
    FILE *f = open_probe();
    char line[512];
    double level = 0;
    int rows = 0, ties = 0;
    while (fgets(line, sizeof line, f)) {
        double lv;
        if (sscanf(line, "# QuantileCI(n, 0.5, %lf)", &lv) == 1) {
            level = lv;
            continue;
        }
        int n, lo, hi;
        double conf;
        char amb[8];
        if (line[0] == '#' || line[0] == '[' || level == 0 || sscanf(line, "%d %d %d %lf %7s", &n, &lo, &hi, &conf, amb) != 5)
            continue;
        if (strcmp(amb, "true") && strcmp(amb, "false"))
            continue; /* the uTestMinP table */
        int64_t l, r;
        double c;
        stats_median_orders(n, level, &l, &r, &c);
        rows++;
        if (lgamma_tie(level, n)) {
            /* One to the left: by symmetry the same mass. */
            ties++;
            assert_int_equal(l, lo - 1);
            assert_int_equal(r, hi - 1);
            assert_close(c, conf, 1e-13);
            continue;
        }
        assert_int_equal(l, lo);
        assert_int_equal(r, hi);
        if (n <= 20)
            assert_true(c == conf); /* both exact */
        else if (n <= 30)
            assert_close(c, conf, 1e-13); /* Go: exp(lgamma), last bits */
        /* Above 30 go-moremath reports its normal approximation's mass;
         * benchdb the exact one (checked against pbinom in fn_rank_r.sql). */
    }
    fclose(f);
    assert_int_equal(rows, 180);
    assert_int_equal(ties, 4);
    /* "need >= 6 samples for confidence interval at level 0.95" */
    int64_t l, r;
    double c;
    stats_median_orders(5, 0.95, &l, &r, &c);
    assert_true(l == 0 && r == 5);
    stats_median_orders(6, 0.95, &l, &r, &c);
    assert_true(l == 1 && r == 6);
}

/* "[1 2 2 3] vs [2 3 4 5]: U=2.5 P=0.2..." lines: benchstat's method. */
static void test_utest_probe(void **state)
{
    (void)state;
    FILE *f = open_probe();
    char line[512];
    int examples = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '[')
            continue;
        struct mw_obs obs[64];
        size_t n = 0;
        int first = 1, equal_err = strstr(line, "all samples are equal") != NULL;
        char *p = line + (line[1] == '[' ? 2 : 1);
        while (*p && *p != ':') {
            if (*p == ']') {
                first = 0;
                p++;
                continue;
            }
            char *end;
            double x = strtod(p, &end);
            if (end == p) {
                p++;
                continue;
            }
            assert_true(n < 64);
            obs[n++] = (struct mw_obs){.x = x, .first = first};
            p = end;
        }
        struct mw_result r;
        assert_int_equal(stats_mann_whitney_method(obs, n, MW_BENCHSTAT, &r), 0);
        examples++;
        if (equal_err) {
            assert_true(isnan(r.p));
            continue;
        }
        double u, pv;
        assert_int_equal(sscanf(strchr(line, ':'), ": U=%lf P=%lf", &u, &pv), 2);
        assert_true(r.u == u);
        /* Without ties go-moremath sums probabilities from a recurrence,
         * benchdb divides exact counts: the last two bits may differ. */
        assert_close(r.p, pv, 1e-15);
    }
    fclose(f);
    assert_int_equal(examples, 6);
}

/* Every choice of which nsel of the N observations form sample 1: the
 * conditional distribution by brute force. */
static void enumerate(const double *v, int N, int n1, double u, double *le, double *ge, double *below_small)
{
    double rank[20];
    for (int i = 0; i < N; i++) {
        double below = 0, same = 0;
        for (int j = 0; j < N; j++) {
            below += v[j] < v[i];
            same += v[j] == v[i];
        }
        rank[i] = below + (same + 1) / 2;
    }
    double m = (double)n1 * (N - n1), small = fmin(u, m - u);
    double total = 0;
    *le = *ge = *below_small = 0;
    for (unsigned mask = 0; mask < 1u << N; mask++) {
        if (__builtin_popcount(mask) != n1)
            continue;
        double rs = 0;
        for (int i = 0; i < N; i++)
            if (mask >> i & 1)
                rs += rank[i];
        double w = rs - n1 * (n1 + 1) / 2.0;
        total++;
        *le += w <= u;
        *ge += w >= u;
        *below_small += w <= small;
    }
    *le /= total;
    *ge /= total;
    *below_small /= total;
}

static void test_exact_conditional(void **state)
{
    (void)state;
    srand(7);
    for (int trial = 0; trial < 300; trial++) {
        int N = 2 + rand() % 15, n1 = 1 + rand() % (N - 1), levels = 1 + rand() % 6;
        double v[20];
        struct mw_obs obs[20];
        for (int i = 0; i < N; i++) {
            v[i] = rand() % levels;
            obs[i] = (struct mw_obs){.x = v[i], .first = i < n1};
        }
        struct mw_result r;
        assert_int_equal(stats_mann_whitney_method(obs, (size_t)N, MW_EXACT, &r), 0);
        double le, ge, small;
        enumerate(v, N, n1, r.u, &le, &ge, &small);
        assert_true(r.exact);
        assert_close(r.p, fmin(1, 2 * fmin(le, ge)), 1e-14);
        for (int i = 0; i < N; i++)
            obs[i] = (struct mw_obs){.x = v[i], .first = i < n1};
        assert_int_equal(stats_mann_whitney_method(obs, (size_t)N, MW_BENCHSTAT, &r), 0);
        int groups = 1;
        for (int i = 0; i < N; i++) {
            int seen = 0;
            for (int j = 0; j < i; j++)
                seen |= v[j] == v[i];
            groups += i > 0 && !seen;
        }
        if (groups == 1)
            assert_true(isnan(r.p));
        else if (2 * r.u == (double)n1 * (N - n1))
            assert_true(r.p == 1);
        else if (groups > 2 || r.exact == 0)
            assert_close(r.p, 2 * small, 1e-14);
        /* Two values: go-moremath's own count (test_mw_ties). */
    }
}

/* benchstat's p on 10,000 random tied pairs against an exact transcription
 * of go-moremath (tests/data/mw_ties/gen_mw_ties.py): each p to the last
 * bit (both are exact counts divided once), with the rows in a shuffled
 * order. The '*' pairs are where go-moremath's count is not the exact
 * lower tail (two values, the mirrored U below U1's smallest value). */
static void test_mw_ties(void **state)
{
    (void)state;
    FILE *f = fopen(TEST_SRC_DIR "/tests/data/mw_ties/mw_ties.txt", "r");
    assert_non_null(f);
    char line[256];
    int pairs = 0, marked = 0, zeros = 0, nans = 0, above_one = 0;
    srand(27);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char c1[64], c2[64], ps[64];
        long long two_u;
        assert_int_equal(sscanf(line, "%63s %63s %lld %63s", c1, c2, &two_u, ps), 4);
        struct mw_obs obs[40];
        size_t n = 0;
        const char *cs[2] = {c1, c2};
        for (int side = 0; side < 2; side++) {
            const char *p = cs[side];
            for (int level = 0; *p; level++) {
                char *end;
                long count = strtol(p, &end, 10);
                for (long k = 0; k < count; k++) {
                    assert_true(n < 40);
                    obs[n++] = (struct mw_obs){.x = 48.0 * (level + 1), .first = side == 0};
                }
                p = *end == ',' ? end + 1 : end;
            }
        }
        for (size_t i = n - 1; i > 0; i--) { /* row order must not matter */
            size_t j = (size_t)rand() % (i + 1);
            struct mw_obs t = obs[i];
            obs[i] = obs[j];
            obs[j] = t;
        }
        struct mw_result r;
        assert_int_equal(stats_mann_whitney_method(obs, n, MW_BENCHSTAT, &r), 0);
        assert_true(r.exact);
        assert_true(2 * r.u == (double)two_u);
        if (strcmp(ps, "nan") == 0) {
            nans++;
            assert_true(isnan(r.p));
        } else {
            long long num, den;
            assert_int_equal(sscanf(ps, "%lld/%lld", &num, &den), 2);
            double want = (double)num / (double)den;
            if (r.p != want) {
                print_error("%s: p %.17g, want %.17g\n", line, r.p, want);
                fail();
            }
            zeros += want == 0;
            above_one += want > 1;
        }
        marked += strstr(line, " *") != NULL;
        pairs++;
    }
    fclose(f);
    assert_int_equal(pairs, 10000);
    /* The data must keep exercising each branch: counted by the generator. */
    assert_int_equal(marked, 98);
    assert_true(zeros > 100 && nans > 50 && above_one > 100);
}

/* The reproducer of docs/functions.md (mann_whitney): base [1,2,2,2]
 * against head [1 x11, 2 x3]. benchstat prints p=0.324: 2 C(12, 4) / C(18, 4)
 * = 11/34, go-moremath counting the mass of U1's lowest value, 16; the
 * exact lower tail of U1 at min(U1, U2) = 13 is 0. */
static void test_mw_ties_reproducer(void **state)
{
    (void)state;
    struct mw_obs obs[18];
    double base[] = {1, 2, 2, 2};
    for (int i = 0; i < 4; i++)
        obs[i] = (struct mw_obs){.x = base[i], .first = 1};
    for (int i = 0; i < 14; i++)
        obs[4 + i] = (struct mw_obs){.x = i < 11 ? 1 : 2, .first = 0};
    struct mw_result r;
    assert_int_equal(stats_mann_whitney_method(obs, 18, MW_BENCHSTAT, &r), 0);
    assert_true(r.u == 43 && r.exact);
    assert_true(r.p == 11.0 / 34);
    char printed[16];
    snprintf(printed, sizeof printed, "%.3f", r.p);
    assert_string_equal(printed, "0.324");
}

/* Without ties: benchstat's p from the plain counts of U (the fast path
 * below 2^53 arrangements) is the enumeration's to the last bit, and R's
 * exact p agrees. */
static void test_exact_no_ties(void **state)
{
    (void)state;
    srand(17);
    for (int trial = 0; trial < 300; trial++) {
        int N = 2 + rand() % 15, n1 = 1 + rand() % (N - 1);
        double v[20];
        struct mw_obs obs[20];
        for (int i = 0; i < N; i++) {
            v[i] = i + rand() / (RAND_MAX + 1.0); /* distinct */
            obs[i] = (struct mw_obs){.x = v[i], .first = 0};
        }
        for (int k = 0; k < n1;) { /* exactly n1 in sample 1, placed at random */
            int i = rand() % N;
            if (!obs[i].first) {
                obs[i].first = 1;
                k++;
            }
        }
        double w[20];
        int first[20];
        for (int i = 0; i < N; i++) {
            w[i] = obs[i].x;
            first[i] = obs[i].first;
        }
        struct mw_result r;
        assert_int_equal(stats_mann_whitney_method(obs, (size_t)N, MW_BENCHSTAT, &r), 0);
        /* enumerate() takes sample 1 to be the first n1 values. */
        double sorted[20];
        int a = 0, b = n1;
        for (int i = 0; i < N; i++)
            sorted[first[i] ? a++ : b++] = w[i];
        double le, ge, small;
        enumerate(sorted, N, n1, r.u, &le, &ge, &small);
        assert_true(r.exact);
        if (2 * r.u == (double)n1 * (N - n1))
            assert_true(r.p == 1);
        else
            assert_true(r.p == 2 * small);
        for (int i = 0; i < N; i++)
            obs[i] = (struct mw_obs){.x = w[i], .first = first[i]};
        assert_int_equal(stats_mann_whitney_method(obs, (size_t)N, MW_R, &r), 0);
        assert_close(r.p, fmin(1, 2 * fmin(le, ge)), 1e-14);
    }
}

static void test_exact_limits(void **state)
{
    (void)state;
    size_t n = 378;
    struct mw_obs *obs = calloc(n, sizeof *obs);
    for (size_t i = 0; i < n; i++)
        obs[i] = (struct mw_obs){.x = (double)(i % 17), .first = i % 2};
    struct mw_result r;
    assert_int_equal(stats_mann_whitney_method(obs, n, MW_EXACT, &r), -3); /* 189 and 189 */
    assert_int_equal(stats_mann_whitney_method(obs, n, MW_BENCHSTAT, &r), 0);
    assert_false(r.exact); /* ties and more than 25: normal */
    assert_int_equal(stats_mann_whitney_method(obs, 200, MW_EXACT, &r), 0); /* 100 and 100 */
    assert_true(r.exact && r.p >= 0 && r.p <= 1);
    free(obs);
}

/* hodges_lehmann over sliding frames of a long sequence, as a window
 * function computes each row's value (the frame's rows, then the
 * aggregate): the work per frame (hl_result.work: differences formed or
 * compared, sorting counted as n log2 n) must grow as n log n, the bound
 * docs/functions.md states: at most 25 n log2 n per frame (15 to 18 here)
 * from 1,000 to 16,000 values, and a frame 4 times larger costs at most
 * 5.5 times as much. Work, not time: make bench (figure 12) has the
 * timings. */
static void test_hl_window_work(void **state)
{
    (void)state;
    size_t sizes[] = {1000, 4000, 16000}, total = 16000 + 8;
    struct mw_obs *seq = malloc(total * sizeof *seq), *frame = malloc(total * sizeof *frame);
    assert_non_null(seq);
    assert_non_null(frame);
    srand(41);
    for (size_t i = 0; i < total; i++)
        seq[i] = (struct mw_obs){.x = floor(rand() / (double)RAND_MAX * 1e5) / 100 + (i % 2) * 0.5, .first = rand() % 2};
    double per[3];
    for (int s = 0; s < 3; s++) {
        size_t n = sizes[s];
        uint64_t work = 0;
        int frames = 0;
        for (size_t end = n; end <= n + 8 && end <= total; end += 2, frames++) {
            memcpy(frame, seq + end - n, n * sizeof *frame);
            struct hl_result r;
            assert_int_equal(stats_hodges_lehmann(frame, n, 0.95, &r), 0);
            assert_false(r.exact);
            work += r.work;
        }
        per[s] = (double)work / frames;
        double nlogn = (double)n * log2((double)n);
        print_message("frame of %zu: %.0f steps, %.1f n log2 n\n", n, per[s], per[s] / nlogn);
        assert_true(per[s] >= nlogn && per[s] <= 25 * nlogn);
    }
    /* n log n: 4.8 from 1,000 to 4,000 and 4.7 from 4,000 to 16,000, with
     * the rounds' count growing as log(n): about 5; n^2 would be 16. */
    assert_true(per[1] / per[0] <= 5.5 && per[2] / per[1] <= 5.5);
    free(seq);
    free(frame);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_shift_kth(void **state)
{
    (void)state;
    srand(11);
    for (int trial = 0; trial < 200; trial++) {
        size_t n1 = 1 + (size_t)(rand() % 40), n2 = 1 + (size_t)(rand() % 40);
        int ties = rand() % 2;
        double x[40], y[40], d[1600];
        for (size_t i = 0; i < n1; i++)
            x[i] = ties ? rand() % 7 : rand() / (double)RAND_MAX * 100;
        for (size_t j = 0; j < n2; j++)
            y[j] = ties ? rand() % 7 : rand() / (double)RAND_MAX * 100;
        qsort(x, n1, sizeof *x, cmp_double);
        qsort(y, n2, sizeof *y, cmp_double);
        for (size_t i = 0; i < n1; i++)
            for (size_t j = 0; j < n2; j++)
                d[i * n2 + j] = x[i] - y[j];
        qsort(d, n1 * n2, sizeof *d, cmp_double);
        for (uint64_t k = 1; k <= n1 * n2; k++)
            assert_true(stats_shift_kth(x, n1, y, n2, k) == d[k - 1]);
    }
}

/* Large samples: the selected difference has at least k differences at or
 * below it and fewer than k strictly below, counted by a merge walk. */
static void test_shift_kth_large(void **state)
{
    (void)state;
    size_t n1 = 20000, n2 = 30000;
    double *x = malloc(n1 * sizeof *x), *y = malloc(n2 * sizeof *y);
    srand(5);
    for (size_t i = 0; i < n1; i++)
        x[i] = floor(rand() / (double)RAND_MAX * 5000) / 8;
    for (size_t j = 0; j < n2; j++)
        y[j] = rand() / (double)RAND_MAX * 600;
    qsort(x, n1, sizeof *x, cmp_double);
    qsort(y, n2, sizeof *y, cmp_double);
    uint64_t M = (uint64_t)n1 * n2, ks[] = {1, 2, M / 3, M / 2, M / 2 + 1, M - 1, M};
    for (size_t t = 0; t < sizeof ks / sizeof *ks; t++) {
        double v = stats_shift_kth(x, n1, y, n2, ks[t]);
        uint64_t lt = 0, le = 0;
        size_t a = 0, b = 0; /* of row i: differences < v, <= v */
        for (size_t i = n1; i-- > 0;) {
            /* x falls as i does, so each row has at least the previous
             * row's count: a and b only grow. */
            while (a < n2 && x[i] - y[n2 - 1 - a] < v)
                a++;
            while (b < n2 && x[i] - y[n2 - 1 - b] <= v)
                b++;
            lt += a;
            le += b;
        }
        assert_true(lt < ks[t] && ks[t] <= le);
    }
    free(x);
    free(y);
}

/* qwilcox's by-product is R's pwilcox(max(q, 1) - 1) to the bit. */
static void test_qwilcox_below(void **state)
{
    (void)state;
    double ps[] = {0.005, 0.025, 0.05, 0.25, 0.5};
    for (int m = 1; m <= 30; m++)
        for (int n = 1; n <= 30; n += 3)
            for (int k = 0; k < 5; k++) {
                double below;
                int q = stats_qwilcox_lower_below(ps[k], m, n, &below);
                assert_int_equal(q, stats_qwilcox_lower(ps[k], m, n));
                assert_true(below == stats_pwilcox((q < 1 ? 1 : q) - 1, m, n, 1));
            }
}

static void test_hodges_lehmann_small(void **state)
{
    (void)state;
    /* wilcox.test(c(1, 3, 5, 7, 9), c(2, 4, 6, 8, 10), conf.int = TRUE):
     * estimate -1, interval [-7, 5], exact. */
    struct mw_obs obs[10];
    for (int i = 0; i < 10; i++)
        obs[i] = (struct mw_obs){.x = i + 1, .first = i % 2 == 0};
    struct hl_result r;
    assert_int_equal(stats_hodges_lehmann(obs, 10, 0.95, &r), 0);
    assert_true(r.estimate == -1 && r.lo == -7 && r.hi == 5 && r.exact);
    /* 1 - 2 pwilcox(qwilcox(0.025, 5, 5) - 1, 5, 5) */
    assert_close(r.confidence, 0.96825396825396826, 1e-15);
    struct mw_obs one[2] = {{.x = 1, .first = 1}, {.x = 2, .first = 1}};
    assert_int_equal(stats_hodges_lehmann(one, 2, 0.95, &r), -1);
}

/* Up to 4096 differences the interval and the estimate come from sorting
 * them all: the same order statistics as the selection's, at the orders R
 * uses in the exact case (qwilcox). */
static void test_hodges_lehmann_sorted(void **state)
{
    (void)state;
    srand(23);
    for (int trial = 0; trial < 200; trial++) {
        size_t n1 = 1 + (size_t)(rand() % 49), n2 = 1 + (size_t)(rand() % 49);
        double x[49], y[49];
        struct mw_obs obs[98];
        for (size_t i = 0; i < n1; i++)
            obs[i] = (struct mw_obs){.x = x[i] = rand() / (double)RAND_MAX * 100 + 0.5 * (double)i, .first = 1};
        for (size_t j = 0; j < n2; j++)
            obs[n1 + j] = (struct mw_obs){.x = y[j] = rand() / (double)RAND_MAX * 100 - 0.25 * (double)j,
                                          .first = 0};
        qsort(x, n1, sizeof *x, cmp_double);
        qsort(y, n2, sizeof *y, cmp_double);
        struct hl_result r;
        assert_int_equal(stats_hodges_lehmann(obs, n1 + n2, 0.95, &r), 0);
        uint64_t M = (uint64_t)n1 * n2;
        double m = (stats_shift_kth(x, n1, y, n2, (M + 1) / 2) + stats_shift_kth(x, n1, y, n2, M / 2 + 1)) / 2;
        assert_true(r.estimate == m);
        if (!r.exact)
            continue; /* a tie across the samples: rare with these values */
        int qu = stats_qwilcox_lower(0.025, (int)n1, (int)n2);
        uint64_t klo = qu < 1 ? 1 : (uint64_t)qu;
        assert_true(r.lo == stats_shift_kth(x, n1, y, n2, klo));
        assert_true(r.hi == stats_shift_kth(x, n1, y, n2, M - klo + 1));
    }
}

static void test_median_ci_values(void **state)
{
    (void)state;
    double x[] = {9, 1, 8, 2, 7, 3, 6, 4, 5, 10};
    struct median_ci m;
    stats_median_ci(x, 10, 0.95, &m);
    assert_true(m.center == 5.5 && m.lo == 2 && m.hi == 9 && m.lo_order == 2 && m.hi_order == 9);
    assert_true(m.confidence == 0.978515625); /* ALGORITHMS.md: n = 10 */
    double y[] = {3, 1, 2, 5, 4};
    stats_median_ci(y, 5, 0.95, &m);
    assert_true(m.center == 3 && isnan(m.lo) && m.hi == 5 && m.lo_order == 0 && m.hi_order == 5);
    double z[] = {42};
    stats_median_ci(z, 1, 0.5, &m);
    assert_true(m.center == 42 && isnan(m.lo) && m.hi == 42 && m.lo_order == 0 && m.hi_order == 1 && m.confidence == 0.5);
    stats_median_ci(z, 1, 0.95, &m);
    assert_true(isnan(m.lo) && isnan(m.hi) && m.lo_order == 0 && m.hi_order == 2 && m.confidence == 1);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orders_probe),
        cmocka_unit_test(test_utest_probe),
        cmocka_unit_test(test_exact_conditional),
        cmocka_unit_test(test_exact_no_ties),
        cmocka_unit_test(test_mw_ties),
        cmocka_unit_test(test_mw_ties_reproducer),
        cmocka_unit_test(test_exact_limits),
        cmocka_unit_test(test_shift_kth),
        cmocka_unit_test(test_shift_kth_large),
        cmocka_unit_test(test_qwilcox_below),
        cmocka_unit_test(test_hodges_lehmann_small),
        cmocka_unit_test(test_hodges_lehmann_sorted),
        cmocka_unit_test(test_hl_window_work),
        cmocka_unit_test(test_median_ci_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
