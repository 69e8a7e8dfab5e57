/* mann_whitney(x, first, 'exact') up to its size limit: two samples of 188,
 * 40 against 1,200, 10 against 4,900 (the most additions behind a count),
 * with and without ties, within 1e-14 of the exact p
 * (tests/data/mw_exact/gen_mw_exact.py: exact integer counts), p from 0.96
 * down to 1.6e-14 (doubles alone were 3e-14 off at 20 against 2,400).
 * Each of those takes about half a second; the sanitizer build runs the
 * 60-and-60 cases only (counts past 2^53 there too). */
// ctest: slow cost=8
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

static void test_mw_exact_limit(void **state)
{
    (void)state;
    const char *san = getenv("BENCHDB_SANITIZED");
    size_t max_n = san && strcmp(san, "1") == 0 ? 120 : 100000;
    FILE *f = fopen(TEST_SRC_DIR "/tests/data/mw_exact/mw_exact.txt", "r");
    assert_non_null(f);
    char head[256];
    assert_non_null(fgets(head, sizeof head, f));
    int n1, n2, cases = 0, run = 0;
    double want, worst = 0;
    while (fscanf(f, "%d %d %lf", &n1, &n2, &want) == 3) {
        size_t n = (size_t)(n1 + n2);
        struct mw_obs *obs = malloc(n * sizeof *obs);
        assert_non_null(obs);
        for (size_t i = 0; i < n; i++) {
            long v;
            assert_int_equal(fscanf(f, "%ld", &v), 1);
            obs[i] = (struct mw_obs){.x = (double)v, .first = i < (size_t)n1};
        }
        cases++;
        if (n <= max_n) {
            struct mw_result r;
            assert_int_equal(stats_mann_whitney_method(obs, n, MW_EXACT, &r), 0);
            assert_true(r.exact);
            double rel = fabs(r.p - want) / want;
            worst = fmax(worst, rel);
            if (!(rel <= 1e-14)) {
                print_error("%d and %d: p %.17g, want %.17g (%.3g relative)\n", n1, n2, r.p, want, rel);
                fail();
            }
            run++;
        }
        free(obs);
    }
    fclose(f);
    print_message("%d of %d cases, largest relative error %.3g\n", run, cases, worst);
    assert_int_equal(cases, 22);
    assert_true(run >= 8);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mw_exact_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
