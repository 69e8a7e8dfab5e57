/* The pieces of benchdb report that are plain functions: significant-digit
 * rounding against printf's own rounding, the chart line's parser and its
 * errors, text widths and cutting, axis ticks whose labels never overlap,
 * SVG coordinates and escaping. (The pages themselves: tests/cli/report_*.sh.) */
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
#include "report/chart_spec.h"
#include "report/display.h"
#include "report/svg.h"

static void fmt_sig_cases(void **state)
{
    (void)state;
    static const struct { double x; int d; const char *want; } cases[] = {
        {0.8916666666666667, 4, "0.8917"}, {0.041666666666666664, 4, "0.04167"}, {0.05, 4, "0.05"},
        {120, 4, "120"}, {1, 4, "1"}, {1.0001, 4, "1"}, {0.99996, 4, "1"}, {99999, 4, "100000"},
        {1234567.8, 4, "1235000"}, {12.3456, 4, "12.35"}, {-0.5, 4, "-0.5"}, {0, 4, "0"}, {-0.0, 4, "0"},
        {1.234e-5, 4, "1.234e-05"}, {0.0001, 4, "0.0001"}, {2.5e15, 4, "2.5e+15"}, {3.14159, 1, "3"},
        {0.95, 4, "0.95"}, {1.05, 4, "1.05"}, {8.27e-05, 4, "8.27e-05"}, {-7.917, 3, "-7.92"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[48];
        numfmt_sig(buf, cases[i].x, cases[i].d);
        if (strcmp(buf, cases[i].want) != 0)
            fail_msg("numfmt_sig(%.17g, %d) = %s, expected %s", cases[i].x, cases[i].d, buf, cases[i].want);
    }
    char buf[48];
    numfmt_sig(buf, NAN, 4);
    assert_string_equal(buf, "nan");
    numfmt_sig(buf, -INFINITY, 4);
    assert_string_equal(buf, "-inf");
}

/* On random values: the text reads back as printf's own rounding to d
 * significant digits ("%.*e"), has no trailing zeros, and has an exponent
 * exactly when that rounded value is outside [1e-4, 1e15). */
static void fmt_sig_random(void **state)
{
    (void)state;
    uint64_t s = 88172645463325252ull;
    for (int i = 0; i < 200000; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double x = ldexp((double)(s >> 11), -53) * pow(10, (double)(s % 25) - 8) * ((s >> 5) & 1 ? -1 : 1);
        int d = 1 + (int)((s >> 8) % 6);
        char got[48], ref[64];
        numfmt_sig(got, x, d);
        snprintf(ref, sizeof ref, "%.*e", d - 1, x);
        double want = strtod(ref, NULL), back = strtod(got, NULL);
        if (back != want && !(want == 0 && back == 0))
            fail_msg("numfmt_sig(%.17g, %d) = %s, reads %.17g; printf rounds to %s", x, d, got, back, ref);
        int has_e = strchr(got, 'e') != NULL, big = want != 0 && (fabs(want) < 1e-4 || fabs(want) >= 1e15);
        if (has_e != big)
            fail_msg("numfmt_sig(%.17g, %d) = %s: exponent %s", x, d, got, big ? "expected" : "not expected");
        if (!has_e && strchr(got, '.') && (got[strlen(got) - 1] == '0' || got[strlen(got) - 1] == '.'))
            fail_msg("numfmt_sig(%.17g, %d) = %s: trailing zeros", x, d, got);
    }
}

static void spec_ok(void **state)
{
    (void)state;
    const char *text = "-- name: q\n"
                       "-- param: plan  the plan\n"
                       "--\n"
                       "-- chart: forest group=run_group colour=kind label=benchmark,params estimate=e lo=l hi=h "
                       "band=band_lo,1.05 log sort=none above=slower title=\"Every comparison, per group\"\n"
                       "SELECT 1;\n"
                       "-- chart: this line is after the header and is not read\n";
    struct chart_spec s;
    char *err = NULL;
    assert_int_equal(chart_spec_parse(text, "q.sql", &s, &err), 1);
    assert_int_equal(s.kind, CHART_FOREST);
    assert_int_equal(s.line, 4);
    assert_int_equal(s.ngroup, 1);
    assert_string_equal(s.group[0], "run_group");
    assert_int_equal(s.nlabel, 2);
    assert_string_equal(s.label[1], "params");
    assert_string_equal(s.colour, "kind");
    assert_string_equal(s.band[0], "band_lo");
    assert_string_equal(s.band[1], "1.05");
    assert_int_equal(s.log, 1);
    assert_int_equal(s.sort, SORT_NONE);
    assert_string_equal(s.above, "slower");
    assert_null(s.below);
    assert_string_equal(s.title, "Every comparison, per group");
    chart_spec_free(&s);
    assert_int_equal(chart_spec_parse("-- name: q\nSELECT 1;\n", "q.sql", &s, &err), 0);
    assert_int_equal(s.kind, CHART_TABLE);
    chart_spec_free(&s);
    assert_int_equal(chart_spec_parse("-- chart: series y=v color=c\n", "q.sql", &s, &err), 1);
    assert_string_equal(s.colour, "c");
    assert_null(s.x);
    chart_spec_free(&s);
}

static void spec_errors(void **state)
{
    (void)state;
    static const struct { const char *line, *want; } cases[] = {
        {"-- chart:", "q.sql:2: chart: expected a kind (forest, series, strip, bar or table)"},
        {"-- chart: pie", "q.sql:2: chart: expected a kind (forest, series, strip, bar or table), got 'pie'"},
        {"-- chart: table log", "q.sql:2: chart: 'log' is not an option of a table chart (expected one of title)"},
        {"-- chart: bar label=a", "q.sql:2: chart: a bar chart needs value=COLUMN"},
        {"-- chart: bar label=a value=v value=w", "q.sql:2: chart: value: given twice"},
        {"-- chart: bar label=a value=v estimate=e", "q.sql:2: chart: 'estimate' is not an option of a bar chart"},
        {"-- chart: bar label=a value=v log=yes", "q.sql:2: chart: log: expected no value, got 'yes'"},
        {"-- chart: bar label=a value", "q.sql:2: chart: value: expected value=VALUE"},
        {"-- chart: bar label=a value=v band=1", "q.sql:2: chart: band: expected two values LO,HI"},
        {"-- chart: bar label=a,,b value=v", "q.sql:2: chart: label: expected up to 6 comma-separated column names"},
        {"-- chart: bar label=a,b,c,d,e,f,g value=v", "q.sql:2: chart: label: expected up to 6"},
        {"-- chart: forest label=a estimate=e lo=l hi=h sort=value", "q.sql:2: chart: sort: expected none or estimate"},
        {"-- chart: series y=v change=c", "q.sql:2: chart: change and alert need x=COLUMN"},
        {"-- chart: strip label=a value=v title=\"x y", "q.sql:2: chart: title: the quoted value has no closing"},
        {"-- chart: table\n-- chart: table", "q.sql:3: chart: the header has a second chart line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "-- name: q\n%s\nSELECT 1;\n", cases[i].line);
        struct chart_spec s;
        char *err = NULL;
        if (chart_spec_parse(text, "q.sql", &s, &err) != -1)
            fail_msg("'%s' parsed", cases[i].line);
        if (strncmp(err, cases[i].want, strlen(cases[i].want)) != 0)
            fail_msg("'%s': error '%s', expected '%s...'", cases[i].line, err, cases[i].want);
        free(err);
    }
}

static void text_widths(void **state)
{
    (void)state;
    assert_int_equal(text_cols("abc"), 3);
    assert_int_equal(text_cols("\xc3\xa9t\xc3\xa9"), 3);           /* été */
    assert_int_equal(text_cols("\xe6\x97\xa5\xe6\x9c\xac"), 4);    /* 日本: wide */
    assert_int_equal(text_cols("\xe2\x80\x94"), 1);                /* — */
    char *t = text_fit("abcdef", 4);
    assert_string_equal(t, "abc\xe2\x80\xa6");
    assert_int_equal(text_cols(t), 4);
    free(t);
    t = text_fit("abcd", 4);
    assert_string_equal(t, "abcd");
    free(t);
    t = text_fit("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 4); /* 日本語 → 日… (a wide character is not split) */
    assert_string_equal(t, "\xe6\x97\xa5\xe2\x80\xa6");
    free(t);
}

/* Random ranges, linear and log, horizontal and vertical: ticks ascend,
 * lie in the range, and their labels (at CHAR_W a character) leave a gap. */
static void axis_ticks_apart(void **state)
{
    (void)state;
    uint64_t s = 2463534242ull;
    for (int i = 0; i < 20000; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        int lg = (int)(s & 1), vertical = (int)((s >> 1) & 1);
        double a = ldexp((double)(s >> 20), -44) * pow(10, (double)((s >> 3) % 9) - 4);
        double b = a * (1 + ldexp((double)((s >> 12) & 0xffff), -8));
        if (!lg && (s >> 2) & 1)
            a = -a;
        struct axis ax;
        axis_fit(&ax, a, b, lg);
        double len = 60 + (double)((s >> 30) % 900);
        ax.p0 = vertical ? len : 10;
        ax.p1 = vertical ? 10 : 10 + len;
        axis_ticks(&ax, vertical);
        assert_true(ax.nt >= 1 || len < 100);
        for (int k = 0; k < ax.nt; k++) {
            assert_true(ax.ticks[k] >= ax.lo && ax.ticks[k] <= ax.hi);
            if (k == 0)
                continue;
            assert_true(ax.ticks[k] > ax.ticks[k - 1]);
            char l0[48], l1[48];
            numfmt_sig(l0, ax.ticks[k - 1], REPORT_DIGITS);
            numfmt_sig(l1, ax.ticks[k], REPORT_DIGITS);
            assert_string_not_equal(l0, l1);
            double gap = fabs(axis_pos(&ax, ax.ticks[k]) - axis_pos(&ax, ax.ticks[k - 1]));
            double need = vertical ? LINE_H : (text_cols(l0) + text_cols(l1)) * CHAR_W / 2 + 6;
            if (gap < need)
                fail_msg("ticks %s and %s %g px apart, need %g (range %g..%g, log %d)", l0, l1, gap, need, a, b, lg);
        }
    }
}

static void svg_numbers_and_escapes(void **state)
{
    (void)state;
    static const struct { double x; const char *want; } cases[] = {
        {0, "0"}, {1, "1"}, {1.25, "1.3"}, {-1.25, "-1.3"}, {12.04, "12"}, {-0.04, "0"}, {959.96, "960"},
        {0.1, "0.1"}, {-3.7, "-3.7"}, {NAN, "0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct strbuf sb = {0};
        svg_num(&sb, cases[i].x);
        if (strcmp(sb.buf, cases[i].want) != 0)
            fail_msg("svg_num(%g) = %s, expected %s", cases[i].x, sb.buf, cases[i].want);
        sb_free(&sb);
    }
    struct strbuf sb = {0};
    svg_esc(&sb, "a<b & \"c\" 'd'>\x01\xc3\xa9");
    assert_string_equal(sb.buf, "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt; \xc3\xa9");
    sb_free(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fmt_sig_cases),  cmocka_unit_test(fmt_sig_random), cmocka_unit_test(spec_ok),
        cmocka_unit_test(spec_errors),    cmocka_unit_test(text_widths),    cmocka_unit_test(axis_ticks_apart),
        cmocka_unit_test(svg_numbers_and_escapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
