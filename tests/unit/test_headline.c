/* A page's headline (report/headline.c) and its values (report/display.c):
 * each line's row choice, conditions, aggregates, formats and optional
 * segments on small evaluations whose sentences are written out here in
 * full; the fall-through to the next line; the errors of a malformed line;
 * revisions, times and parameters shown short; the terminal's headline,
 * from the rows alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/display.h"
#include "report/headline.h"

static const char *rows_json =
    "[{\"host\":\"ci-a\",\"benchmark\":\"BM_Sort\",\"params\":\"{\\\"n\\\":512}\",\"seq\":61,\"run\":\"ci-a-061\","
    "\"revision\":\"97ad6044c1e2f00ba5e1c2a4b9d58e8a0c0e7f31\",\"change_percent\":9.4,\"kind\":\"regression\","
    "\"last_good_run\":\"ci-a-060\",\"pass\":0},"
    "{\"host\":\"ci-b\",\"benchmark\":\"BM_Find\",\"params\":\"{}\",\"seq\":12,\"run\":\"ci-b-012\","
    "\"revision\":null,\"change_percent\":-20.5,\"kind\":\"improvement\",\"last_good_run\":null,\"pass\":1},"
    "{\"host\":\"ci-a\",\"benchmark\":\"BM_Find\",\"params\":\"{}\",\"seq\":40,\"run\":\"ci-a-040\","
    "\"revision\":null,\"change_percent\":3.25,\"kind\":\"regression\",\"last_good_run\":null,\"pass\":0.0}]";

/* The headline of text over rows (chart rows: chart, or none). */
static char *headline_of(const char *text, const char *rows, const char *chart, const char *params)
{
    struct report_eval ev, cev;
    char *err = NULL, *out = NULL;
    assert_int_equal(report_eval_unrecorded(&ev, "q", params ? params : "{\"plan\":\"nightly\",\"host\":null}", rows,
                                            &err), 0);
    ev.text = strdup(text);
    if (chart)
        assert_int_equal(report_eval_unrecorded(&cev, "c", "{}", chart, &err), 0);
    int rc = report_headline(&ev, chart ? &cev : NULL, "q.sql", &out, &err);
    if (rc)
        fail_msg("report_headline: %s", err);
    report_eval_free(&ev);
    if (chart)
        report_eval_free(&cev);
    return out;
}

static void expect(const char *text, const char *rows, const char *chart, const char *want)
{
    char *got = headline_of(text, rows, chart, NULL);
    if (!want && got)
        fail_msg("expected no headline, got '%s'", got);
    if (want && (!got || strcmp(got, want) != 0))
        fail_msg("headline:\n  got  '%s'\n  want '%s'", got ? got : "(none)", want);
    free(got);
}

static void row_choice(void **state)
{
    (void)state;
    expect("-- name: q\n-- headline[kind=regression, largest |change_percent|]: {benchmark}{params:cell} regressed by "
           "{change_percent:pct} on {host} from run {run}[ ({revision:sha})][, last good {last_good_run}]\nSELECT 1;\n",
           rows_json, NULL,
           "BM_Sort/n=512 regressed by +9.4% on ci-a from run ci-a-061 (97ad6044c1e2), last good ci-a-060");
    /* smallest, and the optional segments left out for nulls */
    expect("-- headline[kind=regression, smallest change_percent]: {benchmark}{params:cell} {change_percent:pct} at "
           "{run}[ ({revision:sha})][, last good {last_good_run}]\nSELECT 1;\n",
           rows_json, NULL, "BM_Find +3.25% at ci-a-040");
    /* largest |x| picks the improvement of -20.5 over +9.4 */
    expect("-- headline[largest |change_percent|]: {run} {change_percent:pct}\nSELECT 1;\n", rows_json, NULL,
           "ci-b-012 -20.5%");
    /* without a choice: the first row; a numeric condition matches 0 and 0.0 */
    expect("-- headline: {run}: {count(pass=0)} of {count():history/histories} fail\nSELECT 1;\n", rows_json, NULL,
           "ci-a-061: 2 of 3 histories fail");
}

static void fall_through(void **state)
{
    (void)state;
    const char *t = "-- name: q\n"
                    "-- headline[kind=regression]: {benchmark} regressed\n"
                    "-- headline[kind=improvement]: no regression; {benchmark} improved[; {count(kind=improvement):improvement/improvements}]\n"
                    "-- headline: nothing in {chart.distinct(host,benchmark):history/histories} of up to "
                    "{chart.max(seq):run/runs}[ (plan {param(plan)})][ on host {param(host)}]\n"
                    "SELECT 1;\n";
    expect(t, rows_json, NULL, "BM_Sort regressed");
    expect(t, "[{\"benchmark\":\"X\",\"kind\":\"improvement\"}]", NULL, "no regression; X improved; 1 improvement");
    /* the empty result: aggregates over the chart's rows, a null parameter's segment left out */
    expect(t, "[]", "[{\"host\":\"a\",\"benchmark\":\"x\",\"seq\":1},{\"host\":\"a\",\"benchmark\":\"x\",\"seq\":90},"
                    "{\"host\":\"b\",\"benchmark\":\"x\",\"seq\":7}]",
           "nothing in 2 histories of up to 90 runs (plan nightly)");
    /* a column the rows lack fails its line; nothing fills: no headline */
    expect("-- headline: {nosuch} here\nSELECT 1;\n", rows_json, NULL, NULL);
    /* a count of 0 with a noun leaves its optional segment out, and not outside one */
    expect("-- headline: {count(kind=none):miss/misses}[, {count(kind=none):miss/misses}]\nSELECT 1;\n", rows_json,
           NULL, "0 misses");
}

/* The headline of text over rows without a chart (the terminal's). */
static void expect_rows_only(const char *text, const char *rows, const char *want)
{
    struct report_eval ev;
    char *err = NULL, *got = NULL;
    assert_int_equal(report_eval_unrecorded(&ev, "q", "{\"plan\":\"nightly\",\"host\":null}", rows, &err), 0);
    ev.text = strdup(text);
    if (report_headline_rows(&ev, "q.sql", &got, &err))
        fail_msg("report_headline_rows: %s", err);
    report_eval_free(&ev);
    if (!want && got)
        fail_msg("expected no headline, got '%s'", got);
    if (want && (!got || strcmp(got, want) != 0))
        fail_msg("headline from the rows:\n  got  '%s'\n  want '%s'", got ? got : "(none)", want);
    free(got);
}

/* Without the chart's rows a line reading them is passed over (not filled
 * from the query's own rows, which count something else), the next line
 * that the rows fill is the headline, and an empty result has none once a
 * chart's line was passed over. */
static void rows_only(void **state)
{
    (void)state;
    const char *t = "-- name: q\n"
                    "-- headline[kind=regression]: {benchmark} regressed: {count(kind=regression)} in "
                    "{chart.distinct(host,benchmark):history/histories}\n"
                    "-- headline[kind=regression, largest |change_percent|]: {count(kind=regression):regression/regressions} "
                    "in {distinct(host,benchmark,kind=regression):history/histories}; the largest: {benchmark} "
                    "{change_percent:pct}\n"
                    "-- headline:{ chart.count():run/runs} looked at\n"
                    "-- headline: no history[ in plan {param(plan)}]\n"
                    "SELECT 1;\n";
    expect_rows_only(t, rows_json, "2 regressions in 2 histories; the largest: BM_Sort +9.4%");
    /* on a page (a chart at hand) the chart's line comes first, as before */
    expect(t, rows_json, "[{\"host\":\"a\",\"benchmark\":\"x\"}]", "BM_Sort regressed: 2 in 1 history");
    expect_rows_only(t, "[]", NULL);
    expect(t, "[]", "[]", "0 runs looked at");
    /* no line reads a chart: the last line says what an empty result looked at */
    expect_rows_only("-- headline[kind=x]: {benchmark}\n-- headline: no history[ in plan {param(plan)}]\nSELECT 1;\n",
                     "[]", "no history in plan nightly");
}

static void formats(void **state)
{
    (void)state;
    const char *rows = "[{\"x\":0.8333333333333334,\"y\":-4.11534,\"t\":\"2025-12-17T02:10:03.250+01:00\","
                       "\"v\":\"a|b\",\"w\":\"b\",\"z\":-7.2149}]";
    expect("-- headline: {x:share} {y:abs} {y:%} {y:pct} {z:3} {t:date} {t:time} {t} \\[{v}\\]\nSELECT 1;\n", rows,
           NULL, "83.3% 4.115 -4.12% -4.12% -7.21 2025-12-17 2025-12-17 01:10 2025-12-17 01:10:03 [a|b]");
    /* alternatives with | and text compared as text */
    expect("-- headline[w=a|b]: {count(w=a|b, x>0.8, x<=1)} {count(v=a|b)} {count(w!=b)}\nSELECT 1;\n", rows, NULL,
           "1 0 0");
    /* a variant's name, nothing for the variant of runs that have none */
    const char *variants = "[{\"b\":\"Mix\",\"variant\":\"default\"},{\"b\":\"Cat\",\"variant\":\"-O3\"}]";
    expect("-- headline[b=Mix]: {b}[ ({variant:variant})]!\nSELECT 1;\n", variants, NULL, "Mix!");
    expect("-- headline[b=Cat]: {b}[ ({variant:variant})]!\nSELECT 1;\n", variants, NULL, "Cat (-O3)!");
    /* a 0 shown as % or share in an optional segment leaves it out ("a
     * change of at least 0%" said nothing); a parameter in % as given */
    const char *t = "-- headline: p <= {param(p)}[, at least {param(m):share}][, by more than {param(th):%}]; "
                    "{param(th):%}\nSELECT 1;\n";
    const char *cases[][2] = {
        {"{\"p\":0.001,\"m\":0.0,\"th\":0.0}", "p <= 0.001; 0%"},
        {"{\"p\":0.001,\"m\":0.05,\"th\":12.345}", "p <= 0.001, at least 5%, by more than 12.345%; 12.345%"},
        {"{\"p\":0.001,\"m\":0,\"th\":5}", "p <= 0.001, by more than 5%; 5%"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = headline_of(t, "[]", NULL, cases[i][0]);
        if (!got || strcmp(got, cases[i][1]) != 0)
            fail_msg("headline of %s:\n  got  '%s'\n  want '%s'", cases[i][0], got ? got : "(none)", cases[i][1]);
        free(got);
    }
}

/* distinct(..., no COND): a group counts only when none of its rows holds
 * COND; compare's benchmarks counted as compare counts them, each by its
 * most telling metric (faster in time but worse in memory: worse). */
static void distinct_none(void **state)
{
    (void)state;
    const char *rows = "[{\"b\":\"Mix\",\"m\":\"ns\",\"v\":\"faster\"},{\"b\":\"Mix\",\"m\":\"B\",\"v\":\"worse\"},"
                       "{\"b\":\"Fast\",\"m\":\"ns\",\"v\":\"faster\"},{\"b\":\"Fast\",\"m\":\"B\",\"v\":\"~\"},"
                       "{\"b\":\"Same\",\"m\":\"ns\",\"v\":\"~\"},{\"b\":\"Same\",\"m\":\"B\",\"v\":\"~\"}]";
    expect("-- headline: {distinct(b,v=slower|worse)} of {distinct(b):benchmark/benchmarks} slower or worse, "
           "{distinct(b,v=faster|better,no v=slower|worse)} faster, {distinct(b,v=~,no v!=~)} unchanged; "
           "{count(v=faster)} cells faster\nSELECT 1;\n",
           rows, NULL, "1 of 3 benchmarks slower or worse, 1 faster, 1 unchanged; 2 cells faster");
    /* several: a group is left out when one of them holds in one of its rows */
    expect("-- headline: {distinct(b,no v=worse,no m=B)} {distinct(b,m=ns,no v=worse)}\nSELECT 1;\n", rows, NULL,
           "0 2");
}

static void check_errors(const char *text, const char *want)
{
    char *err = NULL;
    if (report_headline_check(text, "f.sql", &err) == 0)
        fail_msg("expected an error for %s", text);
    if (!strstr(err, want))
        fail_msg("error '%s' lacks '%s'", err, want);
    free(err);
}

static void errors(void **state)
{
    (void)state;
    char *err = NULL;
    assert_int_equal(report_headline_check("-- name: q\n-- headline[a=1, largest b]: {a:pct} [x {b}]\nSELECT 1;\n",
                                           "f.sql", &err), 0);
    check_errors("-- name: q\n-- headline: {a:pc}\nSELECT 1;\n", "f.sql:2: headline: {a:pc}: unknown format 'pc'");
    check_errors("-- name: q\n\n-- headline: {a\nSELECT 1;\n", "f.sql:3: headline: '{' without its '}'");
    check_errors("-- headline: a]\n", "f.sql:1: headline: ']' without its opening bracket");
    check_errors("-- headline[a]: x\n", "'a': expected a condition COLUMN=VALUE or largest COLUMN");
    check_errors("-- headline: {cnt(a=1)}\n", "'cnt(...)': expected count, distinct, max, min, sum or param");
    check_errors("-- headline: {max(a,b)}\n", "max(a,b): expected one column, then conditions");
    check_errors("-- headline: \n", "the template is empty");
    check_errors("-- headline: {count(no a=1)}\n", "'no a=1': 'no' is distinct()'s");
    check_errors("-- headline: {max(a,no b=1)}\n", "max(a,no b=1): 'no' is distinct()'s");
    check_errors("-- headline[no a=1]: x\n", "'no a=1': 'no' is distinct()'s");
    check_errors("-- headline x\n-- headline; y\n-- headline[k=1] z\n", "expected 'headline: TEMPLATE'");
}

static void display(void **state)
{
    (void)state;
    struct {
        const char *json, *shown, *full;
    } cases[] = {
        {"\"97ad6044c1e2f00ba5e1c2a4b9d58e8a0c0e7f31\"", "97ad6044c1e2", "97ad6044c1e2f00ba5e1c2a4b9d58e8a0c0e7f31"},
        {"\"2026-01-19T02:03:34.000+00:00\"", "2026-01-19 02:03:34", "2026-01-19T02:03:34.000+00:00"},
        {"\"2026-01-19T02:03:34Z\"", "2026-01-19 02:03:34", "2026-01-19T02:03:34Z"},
        {"\"2026-01-19T23:30:00-02:00\"", "2026-01-20 01:30:00", "2026-01-19T23:30:00-02:00"},
        {"\"{\\\"format\\\":\\\"binary\\\",\\\"n\\\":3}\"", "format=binary, n=3", "{\"format\":\"binary\",\"n\":3}"},
        {"\"{}\"", "", "{}"},
        {"\"abc\"", "abc", NULL},
        {"\"97ad6044c1e2\"", "97ad6044c1e2", NULL},
        {"0.8916666666666667", "0.8917", NULL},
        {"null", "", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *v = json_loads(cases[i].json, JSON_DECODE_ANY, NULL);
        char *full = NULL, *shown = display_value(v, 4, &full);
        if (strcmp(shown, cases[i].shown) != 0 || (cases[i].full ? !full || strcmp(full, cases[i].full) : full != NULL))
            fail_msg("display_value(%s) = '%s' (title '%s')", cases[i].json, shown, full ? full : "none");
        free(shown);
        free(full);
        json_decref(v);
    }
    char *p = display_params_path("{\"format\":\"binary\",\"workload\":\"small\"}");
    assert_string_equal(p, "/format=binary/workload=small");
    free(p);
    p = display_params_path("{}");
    assert_string_equal(p, "");
    free(p);
    /* go-bench's procs and pkg as Go writes them, not as levels of the name */
    p = display_params_path("{\"pkg\":\"hash/crc32\",\"procs\":8}");
    assert_string_equal(p, "-8 pkg=hash/crc32");
    free(p);
    p = display_params_path("{\"n\":10,\"procs\":4}");
    assert_string_equal(p, "/n=10-4");
    free(p);
    p = display_params_path("{\"procs\":\"many\"}");
    assert_string_equal(p, "/procs=many");
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(row_choice), cmocka_unit_test(fall_through), cmocka_unit_test(formats),
        cmocka_unit_test(errors),     cmocka_unit_test(display),      cmocka_unit_test(rows_only),
        cmocka_unit_test(distinct_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
