/* numfmt_shortest (src/fnshared/numfmt.c) against the definition it
 * replaces: the first of "%.15g", "%.16g", "%.17g" whose text reads back as
 * the same double, with glibc's printf and strtod. Byte-identical text on
 * random bit patterns, on random magnitudes in and around the exact path's
 * range, on short decimals and their neighbours, on exact ties at 15 and 16
 * digits, on whole numbers, on values that round up to the next power of ten, and on the
 * boundaries (powers of two and ten, the range edges, subnormals, zeros,
 * infinities, NaN), each with both signs. Under the sanitizers a quarter
 * of each random sample (docs/testing.md): every boundary and the whole
 * numbers up to 100,000 still, and about 400,000 random doubles. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fnshared/numfmt.h"

static void reference(char *buf, size_t size, double x)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
}

static long checked, failures;

static void check1(double x)
{
    char want[40], got[40];
    reference(want, sizeof want, x);
    memset(got, 'X', sizeof got);
    numfmt_shortest(got, sizeof got, x);
    checked++;
    if (strcmp(want, got) != 0 && failures++ < 20)
        print_error("%a: want %s, got %s\n", x, want, got);
}

/* x, -x and both neighbours of each. */
static void check(double x)
{
    double v[3] = {x, nextafter(x, INFINITY), nextafter(x, -INFINITY)};
    for (int i = 0; i < 3; i++) {
        check1(v[i]);
        check1(-v[i]);
    }
}

/* n random cases, a quarter of them in the sanitized build (ten times slower:
 * enough for memory errors and undefined behaviour on every path; the plain
 * pass compares them all). */
static int cases(int n)
{
    static int part;
    if (!part) {
        const char *s = getenv("BENCHDB_SANITIZED");
        part = s && strcmp(s, "1") == 0 ? 4 : 1;
    }
    return n / part;
}

static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double from_bits(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

static void finish(void)
{
    print_message("%ld doubles compared, %ld differ\n", checked, failures);
    long f = failures;
    checked = failures = 0;
    assert_int_equal(f, 0);
}

static void test_random_bits(void **state)
{
    (void)state;
    for (int i = 0; i < cases(60000); i++)
        check(from_bits(next()));
    finish();
}

/* Log-uniform over 1e-9 .. 1e18: the exact path's range 1e-6 .. 1e15 and
 * beyond each end. */
static void test_random_magnitudes(void **state)
{
    (void)state;
    for (int i = 0; i < cases(60000); i++) {
        double u = (double)(next() >> 11) * 0x1p-53;
        check(pow(10, -9 + 27 * u));
    }
    /* The numbers statistics produce: estimates, bounds, p-values near 0.5. */
    for (int i = 0; i < cases(20000); i++)
        check((double)(next() >> 11) * 0x1p-53 - 0.5);
    finish();
}

/* Decimals of 1 to 17 significant digits, read with strtod: the ones that
 * print short, and their neighbours, which do not. */
static void test_short_decimals(void **state)
{
    (void)state;
    char text[64];
    for (int i = 0; i < cases(40000); i++) {
        int digits = 1 + (int)(next() % 17), exp10 = -10 + (int)(next() % 30);
        uint64_t d = next() % 100000000000000000u;
        snprintf(text, sizeof text, "%llue%d", (unsigned long long)(d % (uint64_t)pow(10, digits)),
                 exp10 - digits);
        check(strtod(text, NULL));
    }
    finish();
}

/* Dyadic values whose exact decimal expansion ends one or two digits past
 * 15 or 16 significant digits with a 5: printf rounds the tie to even. */
static void test_ties(void **state)
{
    (void)state;
    static const double quarters[] = {0.5, 0.25, 0.75, 0.125, 0.375, 0.625, 0.875, 0.0625};
    for (int i = 0; i < cases(20000); i++) {
        double whole = (double)(next() % 1000000000000000u);
        for (size_t j = 0; j < sizeof quarters / sizeof *quarters; j++)
            check1(whole + quarters[j]), check1(-(whole + quarters[j]));
        /* The same digits scaled down: x 2^-k keeps the expansion finite. */
        check1(ldexp(whole + 0.5, -(int)(next() % 60)));
    }
    finish();
}

/* Whole numbers (a harness detail's iteration counts and deviations):
 * small ones, random ones of every magnitude up to and past 1e15, and the
 * boundaries. */
static void test_whole_numbers(void **state)
{
    (void)state;
    for (int i = 0; i <= 100000; i++)
        check1(i), check1(-i);
    for (int i = 0; i < cases(40000); i++) {
        double u = (double)(next() >> 11) * 0x1p-53;
        check(trunc(pow(10, 17 * u)));
    }
    static const double edges[] = {1e15 - 1, 1e15, 1e15 + 1, 1e15 + 2, 999999999999999.0, 0x1p49, 0x1p50};
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
        check(edges[i]);
    finish();
    /* numfmt_real: ".0" after a whole number's digits, and the length it returns */
    static const struct {
        double x;
        const char *text;
    } reals[] = {{3, "3.0"}, {-120, "-120.0"}, {999999999999999.0, "999999999999999.0"}, {1e15, "1e+15"},
                 {0.5, "0.5"}, {0, "0.0"}, {-0.0, "-0.0"}, {1e-7, "1e-07"}, {NAN, "nan"}, {-INFINITY, "-inf"}};
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++) {
        char buf[32];
        size_t n = numfmt_real(buf, reals[i].x);
        assert_string_equal(buf, reals[i].text);
        assert_int_equal(n, strlen(reals[i].text));
    }
}

static void test_edges(void **state)
{
    (void)state;
    for (int e = -1074; e <= 1023; e++)
        check(ldexp(1, e));
    for (int e = -330; e <= 310; e++) {
        char text[32];
        snprintf(text, sizeof text, "1e%d", e);
        double p = strtod(text, NULL);
        check(p);
        /* Just below a power of ten: rounds up to it at 15 or 16 digits. */
        for (int k = 1; k < 200; k += 7)
            check(p * (1 - k * 0x1p-53));
        check(9.5 * p), check(9.99999999999999 * p), check(9.999999999999999 * p);
    }
    static const double special[] = {0.0,
                                     5e-324,
                                     2.2250738585072009e-308,
                                     2.2250738585072014e-308,
                                     1.7976931348623157e308,
                                     1e-6,
                                     9.999999999999999e-7,
                                     1e15,
                                     999999999999999.9,
                                     999999999999999.4,
                                     0x1p53,
                                     0x1p52,
                                     0x1p-20,
                                     0x1p-19,
                                     0.1,
                                     0.2,
                                     0.3,
                                     1.0 / 3,
                                     2.0 / 3,
                                     0.95,
                                     0.975,
                                     8,
                                     100,
                                     123456789012345.25,
                                     1234567890123456.5,
                                     -3,
                                     0.04243492229665505,
                                     -6.042434922296655};
    for (size_t i = 0; i < sizeof special / sizeof *special; i++)
        check(special[i]);
    check1(INFINITY), check1(-INFINITY), check1(NAN);
    finish();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_bits),
        cmocka_unit_test(test_random_magnitudes),
        cmocka_unit_test(test_short_decimals),
        cmocka_unit_test(test_ties),
        cmocka_unit_test(test_whole_numbers),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
