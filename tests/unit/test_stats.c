/* Unit tests of the statistics core (src/stats), no SQLite involved.
 * Expected values come from R 4.2; the R expression is given beside each. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>

#include "stats/stats.h"

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fmax(fabs(want), 1e-300))) {
        print_error("got %.17g, want %.17g (relative tolerance %g)\n", got, want, rel);
        fail();
    }
}

static void test_moments_offset_exact(void **state)
{
    (void)state;
    struct moments m = {0};
    for (int i = 1; i <= 4; i++)
        moments_add(&m, 1e9 + i);
    assert_true(moments_variance(&m) == 5.0 / 3); /* the promise */
    assert_true(moments_mean(&m) == 1e9 + 2.5);
}

static void test_moments_remove(void **state)
{
    (void)state;
    /* Sliding removal gives exactly, to the bit, what a fresh accumulator
     * over the same values gives, even after a value 1e12 times larger
     * than the others has left the frame. */
    double x[200];
    for (int i = 0; i < 200; i++)
        x[i] = 1e6 + sin(i * 0.7) * 1000 + (i % 13) + (i == 20 ? 1e18 : 0);
    struct moments slide = {0};
    for (int i = 0; i < 200; i++) {
        moments_add(&slide, x[i]);
        if (i >= 10)
            moments_remove(&slide, x[i - 10]);
        if (i >= 9) {
            struct moments fresh = {0};
            for (int j = i; j >= i - 9; j--)
                moments_add(&fresh, x[j]);
            assert_int_equal(slide.n, 10);
            assert_true(moments_variance(&slide) == moments_variance(&fresh));
            assert_true(moments_mean(&slide) == moments_mean(&fresh));
        }
    }
    /* Down to one value and to none. */
    struct moments m = {0};
    moments_add(&m, 3);
    moments_add(&m, 7);
    moments_remove(&m, 3);
    assert_true(isnan(moments_variance(&m)) && moments_mean(&m) == 7);
    moments_remove(&m, 7);
    assert_int_equal(m.n, 0);
    assert_true(isnan(moments_mean(&m)));
    moments_add(&m, 0.1);
    moments_remove(&m, 0.1);
    for (int i = 1; i <= 4; i++)
        moments_add(&m, 1e9 + i / 4.0);
    assert_true(moments_variance(&m) == 5.0 / 48);
}

static void test_geomean(void **state)
{
    (void)state;
    struct geomean_acc g = {0};
    assert_true(isnan(geomean_value(&g)));
    geomean_add(&g, 1e-9);
    geomean_add(&g, 1e9);
    assert_close(geomean_value(&g), 1.0, 1e-15);
    geomean_add(&g, 8);
    geomean_remove(&g, 1e-9);
    geomean_remove(&g, 1e9);
    assert_close(geomean_value(&g), 8.0, 1e-15);
}

/* The product accumulator against values whose product leaves the range of
 * doubles many times over: it must neither overflow nor underflow, and stay
 * within a few ulps of the known geometric mean. (exp of a mean log near
 * +-690 is itself only good to about 690 * 2^-53 = 8e-14.) */
static void test_geomean_range(void **state)
{
    (void)state;
    struct geomean_acc g = {0};
    for (int i = 0; i < 1000; i++)
        geomean_add(&g, 1e300); /* product 1e300000 */
    assert_close(geomean_value(&g), 1e300, 1e-13);
    g = (struct geomean_acc){0};
    for (int i = 0; i < 1000; i++)
        geomean_add(&g, 1e-300);
    assert_close(geomean_value(&g), 1e-300, 1e-13);
    /* Subnormal and huge values one after the other (each alone outside
     * [2^-500, 2^500]): 5e-324 = 2^-1074 exactly, 2^1000 * 2^74 = 2^1074. */
    g = (struct geomean_acc){0};
    for (int i = 0; i < 1001; i++) {
        geomean_add(&g, 0x1p-1074);
        geomean_add(&g, 0x1p1000);
        geomean_add(&g, 0x1p74);
    }
    assert_close(geomean_value(&g), 1.0, 1e-15);
    /* A window sliding over a million values of 1e200 and 1e-200 (the
     * product swings by 2^665 each step): every frame of two is exactly 1,
     * every frame of one is the value left. */
    g = (struct geomean_acc){0};
    geomean_add(&g, 1e200);
    for (int i = 1; i < 1000000; i++) {
        geomean_add(&g, i % 2 ? 1e-200 : 1e200);
        geomean_remove(&g, i % 2 ? 1e200 : 1e-200);
    }
    assert_close(geomean_value(&g), 1e-200, 1e-12);
    geomean_add(&g, 1e200);
    assert_close(geomean_value(&g), 1.0, 1e-12);
}

/* Against a long double sum of logs, on a million values spread over 600
 * orders of magnitude and on a million close to 1e9 (R's geomean/offset
 * data are of this kind): relative agreement to 1e-14. */
static void test_geomean_accuracy(void **state)
{
    (void)state;
    uint64_t r = 12345;
    for (int kind = 0; kind < 2; kind++) {
        struct geomean_acc g = {0};
        long double ls = 0;
        const int n = 1000000;
        for (int i = 0; i < n; i++) {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            double u = (double)(r >> 11) * 0x1p-53;
            double x = kind == 0 ? pow(10, -300 + 600 * u) : 1e9 + u;
            geomean_add(&g, x);
            ls += logl((long double)x);
        }
        assert_close(geomean_value(&g), (double)expl(ls / n), 1e-14);
    }
}

static void test_pooled_done_when(void **state)
{
    (void)state;
    /* t.test(c(.01,.03,-.02,.015,0), c(.02,.05,.01,.04,.03), var.equal = TRUE) */
    const double a[] = {0.01, 0.03, -0.02, 0.015, 0.0}, b[] = {0.02, 0.05, 0.01, 0.04, 0.03};
    struct two_sample s = {0};
    for (int i = 0; i < 5; i++) {
        two_sample_add(&s, a[i], 1);
        two_sample_add(&s, b[i], 0);
    }
    struct t_interval t;
    assert_int_equal(t_interval_pooled(&s, 0.95, &t), 0);
    /* 50-digit values (mpmath): estimate -0.023000000000000000999,
     * lo -0.048155535246101742211, hi 0.0021555352461017402125 */
    assert_true(t.estimate == -0.023);
    assert_close(t.lo, -0.048155535246101742211, 1e-15);
    assert_close(t.hi, 0.0021555352461017402125, 4e-15);
    assert_true(t.df == 8);
    assert_close(t.p, 0.068041800251720921837, 1e-15);
    assert_int_equal(t.n1, 5);
    assert_int_equal(t.n2, 5);
    assert_int_equal(t_interval_welch(&s, 0.95, &t), 0);
    assert_close(t.df, 7.8011293210301589, 1e-13);
    /* Without p: the same interval to the bit, p not computed. */
    struct t_interval u;
    assert_int_equal(t_interval_pooled(&s, 0.95, &t), 0);
    assert_int_equal(t_interval_pooled_p(&s, 0.95, 0, &u), 0);
    assert_true(isnan(u.p) && u.estimate == t.estimate && u.lo == t.lo && u.hi == t.hi && u.se == t.se &&
                u.df == t.df && u.t == t.t);
    assert_int_equal(t_interval_welch(&s, 0.9, &t), 0);
    assert_int_equal(t_interval_welch_p(&s, 0.9, 0, &u), 0);
    assert_true(isnan(u.p) && u.lo == t.lo && u.hi == t.hi && u.df == t.df);
}

static void test_one_sample(void **state)
{
    (void)state;
    /* t.test(c(2.1, 3.4, 1.9, 5.5, 4.2), conf.level = 0.9)$conf.int */
    const double x[] = {2.1, 3.4, 1.9, 5.5, 4.2};
    struct moments m = {0};
    struct t_interval t;
    moments_add(&m, x[0]);
    assert_int_equal(t_interval_one(&m, 0.9, &t), -1);
    for (int i = 1; i < 5; i++)
        moments_add(&m, x[i]);
    assert_int_equal(t_interval_one(&m, 0.9, &t), 0);
    assert_close(t.lo, 1.9908674093231080, 1e-13);
    assert_close(t.hi, 4.8491325906768914, 1e-13);
}

static void test_t_distribution(void **state)
{
    (void)state;
    assert_close(t_quantile(0.975, 8), 2.3060041352041658, 1e-14); /* qt(0.975, 8) */
    assert_close(t_cdf(-2.5, 3), 0.043853323504032753, 1e-14);     /* pt(-2.5, 3) */
    assert_true(t_quantile(0, 3) == -INFINITY && t_quantile(1, 3) == INFINITY);
    assert_true(isnan(t_quantile(1.5, 3)) && isnan(t_quantile(0.5, 0)));
    /* Round trips across tails and degrees of freedom. */
    const double ps[] = {1e-200, 1e-30, 1e-8, 0.01, 0.3, 0.4999999, 0.5000001, 0.9, 1 - 1e-12};
    const double dfs[] = {1, 2.5, 7, 40, 300};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (size_t j = 0; j < sizeof dfs / sizeof dfs[0]; j++) {
            double q = t_quantile(ps[i], dfs[j]);
            double p = ps[i] < 0.5 ? t_cdf(q, dfs[j]) : t_cdf_upper(q, dfs[j]);
            assert_close(p, ps[i] < 0.5 ? ps[i] : 1 - ps[i], 1e-12);
        }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_select(void **state)
{
    (void)state;
    /* Against a full sort, for random, constant, sorted and reversed inputs. */
    size_t n = 1001;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *s = malloc(n * sizeof *s);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(s);
    srand(7);
    for (int kind = 0; kind < 4; kind++) {
        for (size_t i = 0; i < n; i++)
            x[i] = kind == 0 ? (double)(rand() % 100) : kind == 1 ? 5.0 : kind == 2 ? (double)i : (double)(n - i);
        memcpy(s, x, n * sizeof *x);
        qsort(s, n, sizeof *s, cmp);
        for (size_t k = 0; k < n; k += 37) {
            memcpy(y, x, n * sizeof *x);
            stats_select(y, n, k);
            assert_true(y[k] == s[k]);
            for (size_t i = 0; i < k; i++)
                assert_true(y[i] <= y[k]);
            for (size_t i = k + 1; i < n; i++)
                assert_true(y[i] >= y[k]);
        }
    }
    free(x);
    free(y);
    free(s);
}

static void test_quantiles(void **state)
{
    (void)state;
    /* quantile(c(10, 1, 7, 3, 5), c(0, .3, .5, .77, 1), type = 7); R gives
     * 3.4000000000000004 and 7.2400000000000002 (its (1 - h) x + h y rounds
     * three times), the formula's exact values at these doubles are
     * 3.3999999999999999112 and 7.2400000000000002132 (mpmath), whose
     * nearest doubles are 3.4 and 7.24. */
    const double probs[] = {0, 0.3, 0.5, 0.77, 1};
    const double want[] = {1, 3.4, 5, 7.24, 10};
    for (int i = 0; i < 5; i++) {
        double x[] = {10, 1, 7, 3, 5};
        assert_true(stats_quantile7(x, 5, probs[i]) == want[i]);
    }
    double e[] = {4, 1, 3, 2};
    assert_true(stats_median(e, 4) == 2.5);
    double o[] = {4, 1, 3};
    assert_true(stats_median(o, 3) == 3);
    double t[] = {100, 1, 2, 3, -50};
    assert_true(stats_trimmed_mean(t, 5, 1) == 2);
    double u[] = {1, 2};
    assert_true(isnan(stats_trimmed_mean(u, 2, 1)));
}

static void test_wilcox(void **state)
{
    (void)state;
    assert_close(stats_pwilcox(3, 4, 5, 1), 0.055555555555555552, 1e-15);  /* pwilcox(3, 4, 5) */
    assert_close(stats_pwilcox(10, 4, 5, 0), 0.45238095238095233, 1e-15); /* lower.tail = FALSE */
    assert_true(stats_pwilcox(-1, 4, 5, 1) == 0 && stats_pwilcox(20, 4, 5, 1) == 1);
    /* wilcox.test(c(1.1, 2.2, 3.3, 4.4), c(0.5, 5.5, 6.6, 7.7, 8.8)) */
    const double x[] = {1.1, 2.2, 3.3, 4.4}, y[] = {0.5, 5.5, 6.6, 7.7, 8.8};
    struct mw_obs obs[9];
    for (int i = 0; i < 4; i++)
        obs[i] = (struct mw_obs){.x = x[i], .first = 1};
    for (int i = 0; i < 5; i++)
        obs[4 + i] = (struct mw_obs){.x = y[i], .first = 0};
    struct mw_result r;
    assert_int_equal(stats_mann_whitney(obs, 9, &r), 0);
    assert_true(r.u == 4 && r.exact);
    assert_close(r.p, 0.19047619047619047, 1e-15);
    struct mw_obs one[2] = {{.x = 1, .first = 1}, {.x = 2, .first = 1}};
    assert_int_equal(stats_mann_whitney(one, 2, &r), -1); /* no second sample */
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moments_offset_exact),
        cmocka_unit_test(test_moments_remove),
        cmocka_unit_test(test_geomean),
        cmocka_unit_test(test_geomean_range),
        cmocka_unit_test(test_geomean_accuracy),
        cmocka_unit_test(test_pooled_done_when),
        cmocka_unit_test(test_one_sample),
        cmocka_unit_test(test_t_distribution),
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_quantiles),
        cmocka_unit_test(test_wilcox),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
