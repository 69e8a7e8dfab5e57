/* A summary's bytes (stats/moments_bytes.h): the same multiset gives the
 * same bytes in any order and after removals; bytes read back give every
 * interval the rows give, bit for bit; and reading is safe and canonical
 * on anything else: every truncation and every single-bit change of real
 * summaries is refused or is itself a summary whose bytes read back
 * unchanged (so no two byte strings stand for one state), and intervals
 * from whatever is accepted run (under the sanitizers too).
 *
 * Data: 1,000 sets as in test_order_free (log ratios; offsets of 1e9 with
 * spreads of 1e-3; magnitudes from subnormal to 1e300 of both signs; ties
 * and zeros; values that cancel; values near 1e-300 and 1e300). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/moments_bytes.h"
#include "stats/stats.h"

#define DATASETS 1000
#define MAXN 48

static uint64_t rng = 0x2545f4914f6cdd1du;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double uniform(void) { return (double)(next() >> 11) * 0x1p-53; }

static double normal(void)
{
    double u = uniform(), v = uniform();
    return sqrt(-2 * log(u + 0x1p-60)) * cos(2 * M_PI * v);
}

static int make_data(double *x, int *g, int set)
{
    int n = set % 7 == 0 ? 1 + set % 3 : 2 + (int)(next() % (MAXN - 1));
    int kind = set % 2 ? 1 + (int)(next() % 5) : 0;
    double sd = 0.001 + 0.1 * uniform(), shift = 0.02 * normal();
    for (int i = 0; i < n; i++) {
        switch (kind) {
        case 0: x[i] = shift * (i % 2) + sd * normal(); break;
        case 1: x[i] = 1e9 + 1e-3 * normal(); break;
        case 2: x[i] = ldexp(uniform() + 0.5, (int)(next() % 2097) - 1074) * (next() % 2 ? 1 : -1); break;
        case 3: x[i] = (double)(int)(next() % 4) * 0.25 - 0.25; break;
        case 4: x[i] = i % 2 ? -x[i - 1] : 1e16 * normal(); break;
        default: x[i] = (next() % 2 ? 1e-300 : 1e300) * (1 + 1e-6 * normal());
        }
        g[i] = (int)(next() % 2);
    }
    return n;
}

static size_t bytes_of(const double *x, const int *g, int n, int which, unsigned char *out)
{
    struct moments m;
    memset(&m, 0, sizeof m);
    for (int i = 0; i < n; i++)
        if (which < 0 || g[i] == which)
            moments_add(&m, x[i]);
    return moments_to_bytes(&m, out);
}

/* Interval fields as bytes, so that NaN compares equal to NaN. */
static int same_interval(const struct t_interval *a, const struct t_interval *b)
{
    const double da[] = {a->estimate, a->lo, a->hi, a->se, a->df, a->t, a->p, a->mean1, a->mean2};
    const double db[] = {b->estimate, b->lo, b->hi, b->se, b->df, b->t, b->p, b->mean1, b->mean2};
    return memcmp(da, db, sizeof da) == 0 && a->n1 == b->n1 && a->n2 == b->n2;
}

static void test_order_and_round_trip(void **state)
{
    (void)state;
    double x[MAXN];
    int g[MAXN], perm[MAXN];
    unsigned char b1[MOMENTS_BYTES_MAX], b2[MOMENTS_BYTES_MAX], b3[MOMENTS_BYTES_MAX];
    for (int set = 0; set < DATASETS; set++) {
        int n = make_data(x, g, set);
        size_t n1 = bytes_of(x, g, n, -1, b1);
        /* Shuffled: the same bytes. */
        for (int i = 0; i < n; i++)
            perm[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(next() % (uint64_t)(i + 1)), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        double y[MAXN];
        int h[MAXN];
        for (int i = 0; i < n; i++)
            y[i] = x[perm[i]], h[i] = g[perm[i]];
        size_t n2 = bytes_of(y, h, n, -1, b2);
        if (n1 != n2 || memcmp(b1, b2, n1) != 0)
            fail_msg("data set %d: the bytes depend on the order", set);
        /* Values added and removed again: the bytes of never adding them. */
        struct moments m;
        memset(&m, 0, sizeof m);
        for (int i = 0; i < n; i++)
            moments_add(&m, x[i]);
        double big = isfinite(x[0] * 1e300) ? x[0] * 1e300 : 1e300;
        for (int k = 0; k < 3; k++)
            moments_add(&m, big + k);
        for (int k = 0; k < 3; k++)
            moments_remove(&m, big + k);
        size_t n3 = moments_to_bytes(&m, b3);
        if (n1 != n3 || memcmp(b1, b3, n1) != 0)
            fail_msg("data set %d: removal did not restore the bytes", set);
        /* Read back: the same bytes again, and every interval of the rows. */
        struct two_sample direct, read;
        memset(&direct, 0, sizeof direct);
        for (int i = 0; i < n; i++)
            two_sample_add(&direct, x[i], g[i]);
        unsigned char ba[MOMENTS_BYTES_MAX], bb[MOMENTS_BYTES_MAX];
        size_t la = bytes_of(x, g, n, 1, ba), lb = bytes_of(x, g, n, 0, bb);
        assert_int_equal(moments_from_bytes(ba, la, &read.a), 0);
        assert_int_equal(moments_from_bytes(bb, lb, &read.b), 0);
        size_t lr = moments_to_bytes(&read.a, b3);
        assert_true(lr == la && memcmp(b3, ba, la) == 0);
        for (int k = 0; k < 3; k++) {
            double level = k == 0 ? 0.95 : k == 1 ? 0.5 : 0.999;
            struct t_interval t1, t2;
            memset(&t1, 0, sizeof t1);
            memset(&t2, 0, sizeof t2);
            int r1 = t_interval_pooled(&direct, level, &t1), r2 = t_interval_pooled(&read, level, &t2);
            if (r1 != r2 || (r1 == 0 && !same_interval(&t1, &t2)))
                fail_msg("data set %d, level %g: the pooled interval differs", set, level);
            memset(&t1, 0, sizeof t1);
            memset(&t2, 0, sizeof t2);
            r1 = t_interval_welch(&direct, level, &t1);
            r2 = t_interval_welch(&read, level, &t2);
            if (r1 != r2 || (r1 == 0 && !same_interval(&t1, &t2)))
                fail_msg("data set %d, level %g: the Welch interval differs", set, level);
            memset(&t1, 0, sizeof t1);
            memset(&t2, 0, sizeof t2);
            r1 = t_interval_one(&direct.a, level, &t1);
            r2 = t_interval_one(&read.a, level, &t2);
            if (r1 != r2 || (r1 == 0 && !same_interval(&t1, &t2)))
                fail_msg("data set %d, level %g: the one-sample interval differs", set, level);
        }
    }
}

/* Every truncation and single-bit change of a summary: refused, or a
 * summary whose bytes read back as they are. */
static void test_damaged_bytes(void **state)
{
    (void)state;
    double x[MAXN];
    int g[MAXN];
    long accepted = 0, refused = 0;
    for (int set = 0; set < 60; set++) {
        int n = make_data(x, g, set);
        unsigned char b[MOMENTS_BYTES_MAX], c[MOMENTS_BYTES_MAX], back[MOMENTS_BYTES_MAX];
        size_t len = bytes_of(x, g, n, -1, b);
        struct moments m, other;
        for (size_t cut = 0; cut < len; cut++) {
            assert_int_equal(moments_from_bytes(b, cut, &m), -1);
            refused++;
        }
        for (size_t i = 0; i < len; i++)
            for (int bit = 0; bit < 8; bit++) {
                memcpy(c, b, len);
                c[i] ^= (unsigned char)(1u << bit);
                if (moments_from_bytes(c, len, &m)) {
                    refused++;
                    continue;
                }
                accepted++;
                size_t lb = moments_to_bytes(&m, back);
                if (lb != len || memcmp(back, c, len) != 0)
                    fail_msg("data set %d, byte %zu bit %d: accepted bytes that do not read back", set, i, bit);
                /* Whatever is accepted can be used. */
                struct two_sample s;
                memset(&s, 0, sizeof s);
                s.a = m;
                assert_int_equal(moments_from_bytes(b, len, &other), 0);
                s.b = other;
                struct t_interval t;
                (void)t_interval_pooled(&s, 0.95, &t);
                (void)t_interval_welch(&s, 0.95, &t);
                (void)t_interval_one(&m, 0.95, &t);
            }
    }
    print_message("damaged summaries: %ld refused, %ld read as other summaries\n", refused, accepted);
    assert_true(refused > 0 && accepted > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_round_trip),
        cmocka_unit_test(test_damaged_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
