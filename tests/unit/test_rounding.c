/* Correct rounding of the exact sums' results: fsum and mean (and so
 * trimmed_mean, t_ci's estimate and pooled_t_ci's means, which round as
 * mean does) and percentile, against exact references
 * (tools/gen/data/rounding/gen_rounding.py: Fractions, checked against
 * math.fsum and mpmath) on adversarial inputs: exact sums at or just past
 * a halfway point between two doubles, beyond double-double's precision
 * from one, subnormal and overflowing results, values of every magnitude.
 * Every result must be the reference's bits, in any row order and after
 * a window frame's removals. */
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

#include "stats/moments.h"
#include "stats/stats.h"

#define MAXN 128

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static void expect_bits(double got, double want, const char *what, int line)
{
    if (!same_bits(got, want)) {
        print_error("case %d, %s: got %a (%.17g), want %a (%.17g)\n", line, what, got, got, want, want);
        fail();
    }
}

static FILE *open_data(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/rounding/%s", TEST_SRC_DIR, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    return f;
}

static double read_double(FILE *f)
{
    char tok[64];
    assert_int_equal(fscanf(f, "%63s", tok), 1);
    char *end;
    double v = strtod(tok, &end);
    assert_true(*end == 0);
    return v;
}

static void shuffle(double *x, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)rand() % i;
        double t = x[i - 1];
        x[i - 1] = x[j];
        x[j] = t;
    }
}

static void test_sums(void **state)
{
    (void)state;
    FILE *f = open_data("sums.txt");
    char head[256];
    assert_non_null(fgets(head, sizeof head, f));
    srand(5);
    int cases = 0, ties = 0;
    size_t n;
    while (fscanf(f, "%zu", &n) == 1) {
        assert_true(n >= 1 && n <= MAXN);
        double x[MAXN];
        for (size_t i = 0; i < n; i++)
            x[i] = read_double(f);
        double fs = read_double(f), mean = read_double(f);
        int line = cases + 2;
        cases++;
        /* In order, shuffled, and after other rows came and left. */
        for (int pass = 0; pass < 3; pass++) {
            struct moments m = {0};
            double extra[8];
            for (int k = 0; k < 8; k++)
                extra[k] = (rand() % 2 ? 1 : -1) * ldexp(1 + rand() / (double)RAND_MAX, rand() % 400 - 200);
            if (pass == 2)
                for (int k = 0; k < 8; k++)
                    moments_add(&m, extra[k]);
            for (size_t i = 0; i < n; i++)
                moments_add(&m, x[i]);
            if (pass == 2)
                for (int k = 0; k < 8; k++)
                    moments_remove(&m, extra[k]);
            expect_bits(moments_fsum(&m), fs, "fsum", line);
            expect_bits(moments_mean(&m), mean, "mean", line);
            if (n >= 2) {
                struct t_interval t;
                assert_int_equal(t_interval_one(&m, 0.95, &t), 0);
                expect_bits(t.estimate, mean, "t_ci estimate", line);
                expect_bits(t.mean1, mean, "t_ci mean", line);
                struct two_sample s = {.a = m};
                moments_add(&s.b, 1.0);
                moments_add(&s.b, 2.0);
                assert_int_equal(t_interval_pooled(&s, 0.95, &t), 0);
                expect_bits(t.mean1, mean, "pooled_t_ci mean1", line);
                struct two_sample w = {.b = m};
                moments_add(&w.a, 3.0);
                moments_add(&w.a, 5.0);
                assert_int_equal(t_interval_welch(&w, 0.9, &t), 0);
                expect_bits(t.mean2, mean, "welch_t_ci mean2", line);
            }
            double c[MAXN];
            memcpy(c, x, n * sizeof *x);
            expect_bits(stats_trimmed_mean(c, n, 0), mean, "trimmed_mean", line);
            struct xacc a = {0};
            for (size_t i = 0; i < n; i++)
                xacc_add(&a, x[i], 1);
            expect_bits(xacc_double(&a), fs, "xacc_double", line);
            shuffle(x, n);
        }
        /* Where double-double alone rounds the other way. */
        struct moments m = {0};
        for (size_t i = 0; i < n; i++)
            moments_add(&m, x[i]);
        ties += !same_bits(xdd_double(moments_mean_xdd(&m)), mean) || !same_bits(xdd_double(moments_sum(&m)), fs);
    }
    fclose(f);
    assert_int_equal(cases, 2502);
    /* The data must keep holding the cases the exact decision is for. */
    print_message("%d cases where double-double rounding differs\n", ties);
    assert_true(ties >= 100);
}

static void test_docs_examples(void **state)
{
    (void)state;
    struct moments m = {0};
    moments_add(&m, 1.0);
    moments_add(&m, 1.1102230246251565e-16);
    moments_add(&m, 1e-30);
    assert_true(moments_fsum(&m) == 1.0000000000000002); /* math.fsum */
    struct moments k = {0};
    double v[] = {4.0, 4.440892098500626e-16, 6.223015277861142e-61, 0.0};
    for (int i = 0; i < 4; i++)
        moments_add(&k, v[i]);
    assert_true(moments_mean(&k) == 1.0000000000000002);
    assert_true(moments_fsum(&k) == 4.000000000000001);
}

static void test_percentile(void **state)
{
    (void)state;
    FILE *f = open_data("percentile.txt");
    char head[256];
    assert_non_null(fgets(head, sizeof head, f));
    srand(9);
    int cases = 0;
    char ptok[64];
    while (fscanf(f, "%63s", ptok) == 1) {
        double p = strtod(ptok, NULL);
        size_t n;
        assert_int_equal(fscanf(f, "%zu", &n), 1);
        assert_true(n >= 1 && n <= MAXN);
        double x[MAXN];
        for (size_t i = 0; i < n; i++)
            x[i] = read_double(f);
        double want = read_double(f);
        cases++;
        for (int pass = 0; pass < 2; pass++) {
            double c[MAXN];
            memcpy(c, x, n * sizeof *x);
            expect_bits(stats_percentile(c, n, p), want, "percentile", cases + 1);
            memcpy(c, x, n * sizeof *x);
            if (p == 0 || p == 25 || p == 50 || p == 100)
                expect_bits(stats_quantile7(c, n, p / 100), want, "quantile7", cases + 1);
            shuffle(x, n);
        }
    }
    fclose(f);
    assert_int_equal(cases, 2500);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_examples),
        cmocka_unit_test(test_sums),
        cmocka_unit_test(test_percentile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
