/* src/compare/units.c against golang.org/x/perf benchunit's own tests
 * (golang/perf @ ecd6f900 : benchunit/scale_test.go and tidy_test.go,
 * BSD-3-Clause, tests/data/benchstat/LICENSE.golang-perf): every value
 * Scale is tested on, and the double just below it, print as benchunit
 * prints them; every unit Tidy is tested on tidies to the same unit and
 * factor. Then the unit classes, Go's %v of a float (as benchstat prints
 * a level or a range in its notes), and benchstat's texttab layout of a
 * small table (benchtab's example01 header). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare/texttab.h"
#include "compare/units.h"

static void scale(double x, int binary, const char *want, const char *want_pred)
{
    char got[64];
    cmp_scale_one(x, binary, got, sizeof got);
    if (strcmp(got, want) != 0)
        fail_msg("Scale(%.17g, %s) = %s, want %s", x, binary ? "Binary" : "Decimal", got, want);
    double pred = nextafter(x, 0);
    cmp_scale_one(pred, binary, got, sizeof got);
    if (strcmp(got, want_pred) != 0)
        fail_msg("Scale(%.17g, %s) = %s, want %s", pred, binary ? "Binary" : "Decimal", got, want_pred);
}

static void test_scale_decimal(void **state)
{
    (void)state;
    scale(0, 0, "0.000", "0.000");
    scale(1, 0, "1.000", "1.000");
    scale(-1, 0, "-1.000", "-1.000");
    scale(9999500000000000, 0, "9999.5T", "9999.5T");
    scale(999950000000000, 0, "1000.0T", "999.9T");
    scale(99995000000000, 0, "100.0T", "99.99T");
    scale(9999500000000, 0, "10.00T", "9.999T");
    scale(999950000000, 0, "1.000T", "999.9G");
    scale(99995000000, 0, "100.0G", "99.99G");
    scale(9999500000, 0, "10.00G", "9.999G");
    scale(999950000, 0, "1.000G", "999.9M");
    scale(99995000, 0, "100.0M", "99.99M");
    scale(9999500, 0, "10.00M", "9.999M");
    scale(999950, 0, "1.000M", "999.9k");
    scale(99995, 0, "100.0k", "99.99k");
    scale(9999.5, 0, "10.00k", "9.999k");
    scale(999.95, 0, "1.000k", "999.9");
    scale(99.995, 0, "100.0", "99.99");
    scale(9.9995, 0, "10.00", "9.999");
    scale(.99995, 0, "1.000", "999.9m");
    scale(.099995, 0, "100.0m", "99.99m");
    scale(.0099995, 0, "10.00m", "9.999m");
    scale(.00099995, 0, "1.000m", "999.9µ");
    scale(.000099995, 0, "100.0µ", "99.99µ");
    scale(.0000099995, 0, "10.00µ", "9.999µ");
    scale(.00000099995, 0, "1.000µ", "999.9n");
    scale(.000000099995, 0, "100.0n", "99.99n");
    scale(.0000000099995, 0, "10.00n", "9.999n");
    scale(.00000000099995, 0, "1.000n", "0.9999n");
    scale(nextafter(.000000000099995, 1), 0, "0.1000n", "0.09999n");
    scale(.0000000000099995, 0, "0.01000n", "0.009999n");
    scale(nextafter(.00000000000099995, 1), 0, "0.001000n", "0.0009999n");
    scale(.000000000000099995, 0, "0.0001000n", "0.00009999n");
    scale(.0000000000000099995, 0, "0.00001000n", "0.000009999n");
    scale(nextafter(.00000000000000099995, 1), 0, "0.000001000n", "0.0000009999n");
    scale(-99995000000000, 0, "-100.0T", "-99.99T");
    scale(-.0000000099995, 0, "-10.00n", "-9.999n");
}

static void test_scale_binary(void **state)
{
    (void)state;
    scale(0, 1, "0.000", "0.000");
    scale(1, 1, "1.000", "1.000");
    scale(-1, 1, "-1.000", "-1.000");
    scale(.99995 * (1ull << 50), 1, "1023.9Ti", "1023.9Ti");
    scale(99.995 * (1ull << 40), 1, "100.0Ti", "99.99Ti");
    scale(9.9995 * (1ull << 40), 1, "10.00Ti", "9.999Ti");
    scale(.99995 * (1ull << 40), 1, "1.000Ti", "1023.9Gi");
    scale(99.995 * (1ull << 30), 1, "100.0Gi", "99.99Gi");
    scale(9.9995 * (1ull << 30), 1, "10.00Gi", "9.999Gi");
    scale(.99995 * (1ull << 30), 1, "1.000Gi", "1023.9Mi");
    scale(99.995 * (1ull << 20), 1, "100.0Mi", "99.99Mi");
    scale(9.9995 * (1ull << 20), 1, "10.00Mi", "9.999Mi");
    scale(.99995 * (1ull << 20), 1, "1.000Mi", "1023.9Ki");
    scale(99.995 * (1ull << 10), 1, "100.0Ki", "99.99Ki");
    scale(9.9995 * (1ull << 10), 1, "10.00Ki", "9.999Ki");
    scale(.99995 * (1ull << 10), 1, "1.000Ki", "1023.9");
    scale(99.995, 1, "100.0", "99.99");
    scale(9.9995, 1, "10.00", "9.999");
    scale(.99995, 1, "1.000", "0.9999");
    scale(.099995, 1, "0.1000", "0.09999");
    scale(.0099995, 1, "0.01000", "0.009999");
    scale(.00099995, 1, "0.001000", "0.0009999");
    scale(.000099995, 1, "0.0001000", "0.00009999");
    scale(.0000099995, 1, "0.00001000", "0.000009999");
    scale(.00000099995, 1, "0.000001000", "0.0000009999");
    scale(.00000009995, 1, "0.0000001000", "0.0000000999");
    scale(nextafter(.00000000995, 1), 1, "0.0000000100", "0.0000000099");
    scale(.00000000095, 1, "0.0000000010", "0.0000000009");
    scale(.00000000005, 1, "0.0000000001", "0.0000000000");
    scale(.000000000009, 1, "0.0000000000", "0.0000000000");
}

static void tidy(const char *unit, const char *want, double factor)
{
    char got[64];
    double f = cmp_tidy_unit(unit, got, sizeof got);
    if (strcmp(got, want) != 0 || f != factor)
        fail_msg("Tidy(%s) = %.17g %s, want %.17g %s", unit, f, got, factor, want);
}

static void test_tidy(void **state)
{
    (void)state;
    tidy("ns/op", "sec/op", 1e-9);
    tidy("x-ns/op", "x-sec/op", 1e-9);
    tidy("MB/s", "B/s", 1e6);
    tidy("x-MB/s", "x-B/s", 1e6);
    tidy("B/op", "B/op", 1);
    tidy("x-B/op", "x-B/op", 1);
    tidy("x-allocs/op", "x-allocs/op", 1);
    tidy("op/ns", "op/ns", 1);
    tidy("MB*MB/s", "B*B/s", 1e6 * 1e6);
    tidy("MB/MB", "B/MB", 1e6);
    /* benchdb's tidying of other harnesses' times */
    char got[64];
    assert_true(cmp_tidy_any("us/op", got, sizeof got) == 1e-6 && strcmp(got, "sec/op") == 0);
    assert_true(cmp_tidy_any("ms", got, sizeof got) == 1e-3 && strcmp(got, "sec") == 0);
    assert_true(cmp_tidy_any("ops/s", got, sizeof got) == 1 && strcmp(got, "ops/s") == 0);
    /* throughputs of one kind in one unit, so that they compare */
    assert_true(cmp_tidy_any("ops/ms", got, sizeof got) == 1e3 && strcmp(got, "ops/s") == 0);
    assert_true(cmp_tidy_any("ops/us", got, sizeof got) == 1e6 && strcmp(got, "ops/s") == 0);
    assert_true(cmp_tidy_any("ops/min", got, sizeof got) == 1.0 / 60 && strcmp(got, "ops/s") == 0);
    assert_true(cmp_tidy_any("items/s", got, sizeof got) == 1 && strcmp(got, "items/s") == 0);
}

static void test_class(void **state)
{
    (void)state;
    assert_true(cmp_unit_binary("B/op"));
    assert_true(cmp_unit_binary("MB/s"));
    assert_true(cmp_unit_binary("bytes"));
    assert_true(cmp_unit_binary("x-B/op"));
    assert_false(cmp_unit_binary("sec/op"));
    assert_false(cmp_unit_binary("op/B"));
    assert_true(cmp_unit_binary("text-bytes")); /* "-" separates tokens, as "*" does */
}

/* Go's %v: shortest digits, an exponent below 1e-4 and from 1e6. */
static void test_go_float(void **state)
{
    (void)state;
    static const struct {
        double x;
        const char *want;
    } cases[] = {
        {0.95, "0.95"}, {0.05, "0.05"}, {100, "100"}, {101, "101"}, {999999, "999999"},
        {1234567, "1.234567e+06"}, {3.2218e8, "3.2218e+08"}, {0.0001, "0.0001"}, {1e-05, "1e-05"},
        {1.7180000000000001e-06, "1.7180000000000001e-06"}, {-2.5, "-2.5"}, {0, "0"}, {1e21, "1e+21"},
        {123456.7, "123456.7"}, {0.1 + 0.2, "0.30000000000000004"},
    };
    char got[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cmp_go_float(cases[i].x, got, sizeof got);
        if (strcmp(got, cases[i].want) != 0)
            fail_msg("%%v of %.17g = %s, want %s", cases[i].x, got, cases[i].want);
    }
}

/* A header as benchstat's ToText lays it out: a centred label spanning
 * three columns, widened by a wider value under it. */
static void test_texttab(void **state)
{
    (void)state;
    struct arena a = {0};
    struct texttab t;
    tt_init(&t, &a);
    tt_row(&t);
    tt_col(&t, 1);
    tt_span(&t, 3, "old.txt", TT_CENTER, " │ ");
    tt_col(&t, 4);
    tt_cell(&t, "", TT_LEFT, " │");
    tt_row(&t);
    tt_cell(&t, "Encode/format=json-48", TT_LEFT, NULL);
    tt_col(&t, 1);
    tt_cell(&t, "1.718µ", TT_RIGHT, NULL);
    tt_cell(&t, "1%", TT_RIGHT, " ± ");
    tt_set_shrink(&t, 2);
    tt_set_shrink(&t, 3);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(tt_format(&t, f), 0);
    fclose(f);
    assert_string_equal(buf, "                      │   old.txt   │\n"
                             "Encode/format=json-48   1.718µ ± 1%\n");
    free(buf);
    tt_free(&t);
    arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_decimal), cmocka_unit_test(test_scale_binary), cmocka_unit_test(test_tidy),
        cmocka_unit_test(test_class),         cmocka_unit_test(test_go_float),     cmocka_unit_test(test_texttab),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
