/* Unit tests of the exact accumulator (stats/xacc), double-double
 * arithmetic (stats/dd) and the geometric mean's integer logarithm sums:
 * exactness against sums known exactly (128-bit integers), order and
 * removal independence to the bit, merging and copying states as bytes,
 * products beyond the double range, and the generated log table against
 * long double. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/stats.h"

static uint64_t rng = 88172645463325252u;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A double anywhere in the finite range, subnormals included, either sign. */
static double any_double(void)
{
    for (;;) {
        uint64_t u = next();
        double d;
        memcpy(&d, &u, sizeof d);
        if (isfinite(d))
            return d;
    }
}

static int same_xdd(struct xdd a, struct xdd b)
{
    return memcmp(&a.hi, &b.hi, sizeof a.hi) == 0 && memcmp(&a.lo, &b.lo, sizeof a.lo) == 0 && a.e == b.e;
}

/* Sums of m 2^-60, |m| < 2^62, are known exactly as 128-bit integers; the
 * accumulator's hi must be their correct rounding. */
static void test_exact_against_int128(void **state)
{
    (void)state;
#ifdef __SIZEOF_INT128__
    for (int trial = 0; trial < 200; trial++) {
        struct xacc a = {0};
        __extension__ __int128 exact = 0;
        int n = 1 + (int)(next() % 3000);
        for (int i = 0; i < n; i++) {
            int64_t m = (int64_t)(next() >> 2) * (next() % 2 ? 1 : -1);
            m >>= next() % 60; /* magnitudes from 1 to 2^62 */
            double dm = (double)m; /* an integer; rounded above 2^53 */
            exact += (__extension__(__int128)dm);
            xacc_add(&a, ldexp(dm, -60), 1);
        }
        struct xdd v = xacc_value(&a);
        double want = ldexp((double)exact, -60); /* C rounds __int128 to double correctly */
        assert_true(xdd_double(v) == want);
    }
#endif
}

/* Any order, with values added and removed on the way: the same bits. */
static void test_order_and_removal(void **state)
{
    (void)state;
    enum { N = 500 };
    static double x[N], extra[N];
    for (int trial = 0; trial < 40; trial++) {
        for (int i = 0; i < N; i++) {
            x[i] = any_double();
            extra[i] = any_double();
        }
        struct xacc a = {0}, b = {0}, sa = {0}, sb = {0};
        for (int i = 0; i < N; i++) {
            xacc_add(&a, x[i], 1);
            xacc_add_square(&sa, x[i], 1);
        }
        /* reversed, with each extra value taken out again one step later */
        for (int i = N - 1; i >= 0; i--) {
            xacc_add(&b, extra[i], 1);
            xacc_add_square(&sb, extra[i], 1);
            xacc_add(&b, x[i], 1);
            xacc_add_square(&sb, x[i], 1);
            if (i < N - 1) {
                xacc_add(&b, extra[i + 1], -1);
                xacc_add_square(&sb, extra[i + 1], -1);
            }
        }
        xacc_add(&b, extra[0], -1);
        xacc_add_square(&sb, extra[0], -1);
        assert_true(same_xdd(xacc_value(&a), xacc_value(&b)));
        assert_true(same_xdd(xacc_value(&sa), xacc_value(&sb)));
    }
}

/* Halves merged give the whole; a state copied as bytes carries on. */
static void test_merge_and_bytes(void **state)
{
    (void)state;
    for (int trial = 0; trial < 50; trial++) {
        struct xacc whole = {0}, h1 = {0}, h2 = {0};
        int n = 1 + (int)(next() % 5000);
        for (int i = 0; i < n; i++) {
            double d = any_double();
            xacc_add(&whole, d, 1);
            xacc_add(i % 2 ? &h1 : &h2, d, 1);
        }
        unsigned char bytes[sizeof h1];
        memcpy(bytes, &h1, sizeof bytes);
        struct xacc copy;
        memcpy(&copy, bytes, sizeof copy);
        xacc_merge(&copy, &h2);
        assert_true(same_xdd(xacc_value(&copy), xacc_value(&whole)));
        struct geomean_acc g = {0}, g1 = {0}, g2 = {0};
        for (int i = 0; i < 100; i++) {
            double d = fabs(any_double());
            if (d == 0)
                d = 1;
            geomean_add(&g, d);
            geomean_add(i % 2 ? &g1 : &g2, d);
        }
        geomean_merge(&g1, &g2);
        assert_true(memcmp(&g1, &g, sizeof g) == 0);
        struct moments m = {0}, m1 = {0}, m2 = {0};
        for (int i = 0; i < 100; i++) {
            double d = ldexp(any_double(), -600);
            moments_add(&m, d);
            moments_add(i % 2 ? &m1 : &m2, d);
        }
        moments_merge(&m1, &m2);
        assert_true(moments_variance(&m1) == moments_variance(&m));
    }
}

/* Squares and products beyond the double range, exactly. */
static void test_products(void **state)
{
    (void)state;
    struct xacc a = {0};
    xacc_add_square(&a, 0x1p600, 1); /* 2^1200 */
    struct xdd v = xacc_value(&a);
    assert_true(v.hi == 1 && v.lo == 0 && v.e == 1200);
    a = (struct xacc){0};
    xacc_add_square(&a, 0x3p-1074, 1); /* 9 2^-2148 */
    v = xacc_value(&a);
    assert_true(v.hi == 1.125 && v.lo == 0 && v.e == -2145);
    /* (2^500 + 1)^2 = 2^1000 + 2^501 + 1: hi = 1 and the rest, 2^-499 of
     * it, far below what a double-double holds (lo is within 2^-105) */
    struct xacc s = {0}, p = {0};
    xacc_add(&s, 0x1p500, 1);
    xacc_add(&s, 1, 1);
    xacc_add_mul(&p, &s, &s, 1);
    v = xacc_value(&p);
    assert_true(v.hi == 1 && v.e == 1000 && fabs(v.lo) <= 0x1p-105);
    /* k s for k near 2^62, against 128-bit arithmetic */
    struct xacc q = {0};
    xacc_add_mul_int(&q, &s, -INT64_C(4611686018427387903));
    v = xacc_value(&q);
    assert_true(v.hi == -1 && v.e == 562 && v.lo == 0x1p-62);
    /* n sum x^2 - (sum x)^2 for x = 1e9 + {1, 2, 3, 4}: 4 * 5 = 20 */
    struct moments m = {0};
    for (int i = 1; i <= 4; i++)
        moments_add(&m, 1e9 + i);
    moments_sync(&m); /* before reading the sums directly */
    struct xacc d = {0};
    xacc_add_mul_int(&d, &m.s2, m.n);
    xacc_add_mul(&d, &m.s1, &m.s1, -1);
    assert_true(xacc_double(&d) == 20);
    /* sums whose terms cancel exactly leave zero with sign 0 */
    struct xacc z = {0};
    for (int i = 0; i < 3000; i++) {
        double t = any_double();
        xacc_add(&z, t, 1);
        xacc_add(&z, -t, 1);
    }
    assert_int_equal(xacc_sign(&z), 0);
    assert_true(xacc_double(&z) == 0);
}

/* exp, log, log1p in double-double: inverse pairs agree to 2^-100. */
static void test_dd(void **state)
{
    (void)state;
    for (int i = 0; i < 2000; i++) {
        double x = ldexp((double)(next() >> 11) * 0x1p-53 + 0.5, (int)(next() % 2000) - 1000);
        dd l = dd_log(dd_d(x));
        dd back = dd_exp(l);
        if (fabs(l.hi) < 700) {
            /* exp turns log's absolute error, 2^-104 |l|, into a relative one */
            dd err = dd_sub(back, dd_d(x));
            assert_true(fabs(err.hi) <= 0x1p-100 * x * fmax(1, fabs(l.hi)));
        }
        double y = ldexp((double)(next() >> 11) * 0x1p-53, -(int)(next() % 60)); /* (0, 1) */
        dd a = dd_log1p(dd_d(y)), b = dd_expm1(a);
        assert_true(fabs(dd_sub(b, dd_d(y)).hi) <= 0x1p-100 * y);
    }
    /* ln 2 and exp(ln 2) */
    assert_true(fabs(dd_sub(dd_log(dd_d(2)), DD_LN2).hi) < 0x1p-104);
    assert_true(fabs(dd_sub(dd_exp(DD_LN2), dd_d(2)).hi) < 0x1p-103);
}

/* The generated table against long double logarithms (64-bit
 * significands: within a unit or so of 2^-62), and exact cases. */
static void test_geomean_table(void **state)
{
    (void)state;
    /* geomean of one value is the value; of 2^a and 2^b, 2^((a+b)/2) */
    for (int i = 0; i < 20000; i++) {
        double x = fabs(any_double());
        if (x == 0)
            continue;
        struct geomean_acc g = {0};
        geomean_add(&g, x);
        if (x >= 0x1p-1022)
            assert_true(geomean_value(&g) == x);
        else
            assert_true(fabs(geomean_value(&g) - x) <= 0x1p-1074);
    }
    struct geomean_acc g = {0};
    geomean_add(&g, 0x1p-1074);
    geomean_add(&g, 0x1p1000);
    assert_true(geomean_value(&g) == 0x1p-37);
    /* each bin centre c = 1 + (2j + 1)/256 alone: ln(c) 2^62 is the table
     * entry; exp of it must give c back exactly */
    for (int j = 0; j < 128; j++) {
        double c = 1 + (2 * j + 1) / 256.0;
        long double want = logl((long double)c) * 0x1p62L;
        struct geomean_acc h = {0};
        geomean_add(&h, c);
        assert_true(fabsl((long double)h.log_lo - want) <= 2);
        assert_true(geomean_value(&h) == c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_against_int128),
        cmocka_unit_test(test_order_and_removal),
        cmocka_unit_test(test_merge_and_bytes),
        cmocka_unit_test(test_products),
        cmocka_unit_test(test_dd),
        cmocka_unit_test(test_geomean_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
