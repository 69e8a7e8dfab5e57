/* The command line's building blocks: one meaning per short option across
 * every command's option table, "did you mean", display rounding of reals,
 * escaping of control characters, typed parameters, and how `sql` binds
 * an untyped value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "fnshared/numfmt.h"
#include "output/output.h"
#include "util/markdown.h"
#include "query/param_type.h"
#include "util/params.h"
#include "util/natural.h"
#include "util/suggest.h"
#include "util/text.h"

/* The one meaning of each short option (cli.h). */
static const char *short_meaning(char c)
{
    switch (c) {
    case 'f': return "format";
    case 'h': return "help";
    case 'n': return "limit";
    case 'o': return "output";
    case 'p': return "param";
    case 'q': return "quiet";
    case 'r': return "replace";
    case 'w': return "write";
    default: return NULL;
    }
}

static void test_short_options(void **state)
{
    (void)state;
    int tables = 0;
    for (const struct command *c = commands; c->name; c++) {
        assert_non_null(c->spec);
        tables++;
        for (const struct cli_opt *o = c->spec->opts; o->name || o->help; o++) {
            if (!o->name)
                continue;
            assert_non_null(o->parse);
            assert_non_null(o->help);
            if (o->short_name) {
                const char *want = short_meaning(o->short_name);
                if (!want || strcmp(want, o->name) != 0)
                    fail_msg("%s: -%c means --%s, not --%s", c->name, o->short_name, want ? want : "(nothing)", o->name);
            }
            for (const struct cli_opt *p = o + 1; p->name || p->help; p++)
                if (p->name && (strcmp(p->name, o->name) == 0 || (o->short_name && p->short_name == o->short_name)))
                    fail_msg("%s: --%s twice", c->name, o->name);
        }
    }
    assert_int_equal(tables, 20); /* every command has its option table */
}

static void test_suggest(void **state)
{
    (void)state;
    assert_int_equal(suggest_distance("kitten", "sitting"), 3);
    assert_int_equal(suggest_distance("qurey", "query"), 1);    /* a swap of neighbours */
    assert_int_equal(suggest_distance("proflie", "profile"), 1);
    assert_int_equal(suggest_distance("", "abc"), 3);
    assert_int_equal(suggest_distance("Format", "format"), 0); /* case ignored */
    const char *opts[] = {"file", "format", "digits", "diff"};
    assert_string_equal(suggest_closest("fromat", opts, 4), "format");
    assert_string_equal(suggest_closest("dig", opts, 4), "digits"); /* a prefix */
    assert_null(suggest_closest("xyz", opts, 4));
    assert_null(suggest_closest("format", opts, 4)); /* the word itself is no suggestion */
    assert_string_equal(suggest_closest("fil", opts, 4), "file");
    char *m = suggest_unknown("saved query", "saved queries", "nope", opts, 2);
    assert_string_equal(m, "no saved query named 'nope'; saved queries: file, format");
    free(m);
    /* The nearest: those holding the word first, then by distance. */
    const char *names[] = {"zeta", "BM_SortString", "roundTrip", "BM_Sort", "sorted"};
    const char *near[3];
    assert_int_equal(suggest_nearest("sort", names, 5, near, 3), 3);
    assert_string_equal(near[0], "sorted");  /* holds it, 2 edits away */
    assert_string_equal(near[1], "BM_Sort"); /* holds it, 3 */
    assert_string_equal(near[2], "BM_SortString");
}

/* Natural order (util/natural.h): digits as numbers, a total order. */
static void test_natural(void **state)
{
    (void)state;
    assert_true(natural_compare("null-2", "null-10") < 0);
    assert_true(natural_compare("null-10", "null-2") > 0);
    assert_true(natural_compare("ci-a-0097", "ci-a-100") < 0);
    assert_true(natural_compare("v2.18.0", "v2.9.0") > 0);
    assert_true(natural_compare("a", "a1") < 0);
    assert_true(natural_compare("7", "07") < 0 && natural_compare("07", "7") > 0); /* equal numbers: by length */
    assert_int_equal(natural_compare("x-1", "x-1"), 0);
    assert_true(natural_compare("B", "a") < 0); /* bytes otherwise */
    assert_true(natural_compare(NULL, "a") < 0);
    const char *v[] = {"null-10", "null-2", "null-1", "null-11", "calibration-sim", "null-3"};
    natural_sort(v, 6);
    const char *want[] = {"calibration-sim", "null-1", "null-2", "null-3", "null-10", "null-11"};
    for (int i = 0; i < 6; i++)
        assert_string_equal(v[i], want[i]);
}

static void test_digits(void **state)
{
    (void)state;
    static const struct {
        double x;
        int digits;
        const char *want;
    } cases[] = {
        {0.041666666666666664, 4, "0.04167"}, {3.1719999999999997, 4, "3.172"}, {0.8916666666666667, 4, "0.8917"},
        {0.95, 4, "0.95"},                    {0.1, 17, "0.1"},             {3.0, 4, "3.0"},
        {-3.0, 1, "-3.0"},                    {123456789.0, 2, "123456789.0"}, /* whole: never rounded */
        {1234.5678, 4, "1235"},               {1234.5678, 6, "1234.57"},     {99999.99, 4, "100000"},
        {9.99996, 4, "10"},                   {1e-9, 4, "1e-09"},           {-0.00012345678, 3, "-0.000123"},
        {1.2345678901234567e19, 4, "1.235e+19"}, {2.5e20, 4, "2.5e+20"},    {0.041666666666666664, 17, "0.041666666666666664"},
        {1.0 / 3, 1, "0.3"},                  {2.0 / 3, 2, "0.67"},         {-2.0 / 3, 2, "-0.67"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[40];
        numfmt_digits(buf, cases[i].x, cases[i].digits);
        if (strcmp(buf, cases[i].want) != 0)
            fail_msg("%.17g to %d digits: got %s, want %s", cases[i].x, cases[i].digits, buf, cases[i].want);
    }
}

/* Markdown for GitHub: the exact bytes (tests/cli/rel_text_escapes.sh
 * renders them with cmark-gfm). */
static void test_markdown(void **state)
{
    (void)state;
    static const struct {
        const char *in, *want;
        enum md_place where;
    } cases[] = {
        {"plain BM_Sort/1024", "plain BM_Sort/1024", MD_CELL},
        {"x\\|y", "x\\\\\\|y", MD_CELL},
        {"<b>&amp;", "\\<b\\>\\&amp;", MD_CELL},
        {"[l](u) ![i](u)", "\\[l\\](u) !\\[i\\](u)", MD_CELL},
        {"**b** `c` ~s~ $m$", "\\*\\*b\\*\\* \\`c\\` \\~s\\~ \\$m\\$", MD_CELL},
        {"_i_ a_b a__b _", "\\_i\\_ a_b a\\_\\_b \\_", MD_CELL},
        {"@me a@b.c #12 #x @", "@&#8203;me a@&#8203;b.c #&#8203;12 #x @", MD_CELL},
        {"http://x www.y WWW.z w.v", "http\\://x www\\.y WWW\\.z w.v", MD_CELL},
        {"a\nb\033", "a<br>b\\x1b", MD_CELL},
        {"# h", "# h", MD_CELL},
        {"# h", "\\# h", MD_TEXT},
        {"- a", "\\- a", MD_TEXT},
        {"12. a", "12\\. a", MD_TEXT},
        {"3) a", "3\\) a", MD_TEXT},
        {"> q", "\\> q", MD_TEXT},
        {"    code", "&#32;&#32;&#32;&#32;code", MD_TEXT},
        {"1.5 and -2", "1.5 and -2", MD_CELL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = markdown_escape(cases[i].in, cases[i].where);
        if (strcmp(got, cases[i].want) != 0)
            fail_msg("markdown of '%s': got '%s', want '%s'", cases[i].in, got, cases[i].want);
        free(got);
    }
}

static void test_escape(void **state)
{
    (void)state;
    static const struct {
        const char *in, *want;
    } cases[] = {
        {"plain", "plain"},
        {"\033[2J", "\\x1b[2J"},
        {"a\rb\nc\td", "a\\rb\\nc\\td"},
        {"\x7f", "\\x7f"},
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"}, /* UTF-8 kept */
        {"\xc2\x9b" "31m", "\\u009b31m"},             /* C1 CSI */
        {"\xc2\xa0", "\xc2\xa0"},                     /* U+00A0 is no control */
        {"\xff", "\\xff"},                            /* not UTF-8 */
        {"\xc0\x80", "\\xc0\\x80"},                   /* overlong */
        {"\xed\xa0\x80", "\\xed\\xa0\\x80"},          /* a surrogate */
        {"\xe2\x82", "\\xe2\\x82"},                   /* cut short */
        /* the bidirectional controls, which reorder what follows */
        {"a\xe2\x80\xae" "b", "a\\u202eb"},             /* U+202E RIGHT-TO-LEFT OVERRIDE */
        {"\xd8\x9c\xe2\x80\x8e\xe2\x80\x8f", "\\u061c\\u200e\\u200f"},
        {"\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad", "\\u202a\\u202b\\u202c\\u202d"},
        {"\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9", "\\u2066\\u2067\\u2068\\u2069"},
        {"\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xaa\xd8\x9b", "\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xaa\xd8\x9b"}, /* neighbours kept */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = text_escape_controls(cases[i].in);
        assert_string_equal(got, cases[i].want);
        free(got);
    }
    assert_int_equal(text_width("caf\xc3\xa9"), 4);
}

/* Parses spec and checks text against it: 0 accepted, -1 refused. */
static int check_value(const char *spec, const char *text, struct param_value *v, char **why)
{
    struct param_type_spec t;
    char *err = NULL;
    if (param_type_parse(spec, &t, &err))
        fail_msg("'%s' does not parse: %s", spec, err);
    int rc = param_value_parse(&t, text, v, why);
    param_type_free(&t);
    return rc;
}

static void test_param_types(void **state)
{
    (void)state;
    static const char *const round_trip[] = {
        "text", "text naming a plan", "text naming a run", "text naming a host", "text naming an attribute",
        "text naming a side", "text naming sides", "text naming params", "time", "integer", "integer in [1, 100]", "integer in [1, )", "real", "real in (0, 1)", "real in [0, 1]",
        "real in (, 0.5]", "boolean", "choice of forward, reverse",
    };
    for (size_t i = 0; i < sizeof round_trip / sizeof round_trip[0]; i++) {
        struct param_type_spec t;
        assert_int_equal(param_type_parse(round_trip[i], &t, NULL), 0);
        char *d = param_type_describe(&t);
        assert_string_equal(d, round_trip[i]);
        free(d);
        param_type_free(&t);
    }
    static const char *const bad[] = {"number", "text naming a cat", "integer in 1..5", "real in (1, 0)",
                                      "real in (1, 1]", "choice of", "boolean please", "integer in [1, 2] x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct param_type_spec t;
        char *err = NULL;
        if (param_type_parse(bad[i], &t, &err) == 0)
            fail_msg("'%s' parsed", bad[i]);
        free(err);
    }
    struct param_value v;
    char *why = NULL;
    assert_int_equal(check_value("real in (0, 1)", "0.5", &v, &why), 0);
    assert_int_equal(v.sqlite_type, SQLITE_FLOAT);
    assert_true(v.d == 0.5);
    assert_int_equal(check_value("real in (0, 1)", "1", &v, &why), -1);
    assert_string_equal(why, "expected a number in (0, 1)");
    assert_int_equal(check_value("real in [0, 1]", "1", &v, &why), 0);
    assert_int_equal(check_value("real in [0, 1]", "-0.0", &v, &why), 0);
    static const char *const not_real[] = {"abc", "0x10", "nan", "inf", "1e400", " 1", "1 ", "", ".", "1e", "--1"};
    for (size_t i = 0; i < sizeof not_real / sizeof not_real[0]; i++)
        if (check_value("real", not_real[i], &v, &why) == 0)
            fail_msg("real accepted '%s'", not_real[i]);
    assert_int_equal(check_value("integer", "007", &v, &why), 0); /* declared an integer: 7 */
    assert_int_equal(v.sqlite_type, SQLITE_INTEGER);
    assert_int_equal(v.i, 7);
    static const char *const not_int[] = {"2.5", "1e3", "9223372036854775808", "0x1", "+", ""};
    for (size_t i = 0; i < sizeof not_int / sizeof not_int[0]; i++)
        if (check_value("integer", not_int[i], &v, &why) == 0)
            fail_msg("integer accepted '%s'", not_int[i]);
    assert_int_equal(check_value("integer in [1, )", "0", &v, &why), -1);
    assert_string_equal(why, "expected an integer in [1, )");
    assert_int_equal(check_value("boolean", "YES", &v, &why), 0);
    assert_int_equal(v.i, 1);
    assert_int_equal(check_value("boolean", "off", &v, &why), 0);
    assert_int_equal(v.i, 0);
    assert_int_equal(check_value("choice of a, b", "c", &v, &why), -1);
    assert_string_equal(why, "expected one of a, b");
    assert_int_equal(check_value("text", "1.10", &v, &why), 0);
    assert_int_equal(v.sqlite_type, SQLITE_TEXT);
    assert_string_equal(v.s, "1.10");
    free(why);
}

static void test_sql_binding(void **state)
{
    (void)state;
    static const struct {
        const char *value, *type;
    } cases[] = {
        {"42", "integer"},  {"-3", "integer"}, {"0", "integer"},     {"2.5", "real"},  {"-0.5", "real"},
        {"1e-9", "real"},   {"1.5E+3", "real"}, {"007", "text"},     {"1.10", "text"}, {"+3", "text"},
        {"1.", "text"},     {".5", "text"},    {"0x10", "text"},     {"nan", "text"},  {" 5", "text"},
        {"-", "text"},      {"1e400", "text"}, {"99999999999999999999", "text"},       {"abc", "text"},
    };
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT typeof(?)", -1, &st, NULL), SQLITE_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(bind_plain_number_or_text(st, 1, cases[i].value), SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        if (strcmp((const char *)sqlite3_column_text(st, 0), cases[i].type) != 0)
            fail_msg("'%s' bound as %s, want %s", cases[i].value, sqlite3_column_text(st, 0), cases[i].type);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    struct params ps = {0};
    assert_int_equal(params_add(&ps, "a=1"), 0);
    assert_int_equal(params_add(&ps, ":a=2"), -2); /* the same name twice */
    assert_int_equal(params_add(&ps, "novalue"), -1);
    assert_int_equal(params_add(&ps, "=x"), -1);
    assert_string_equal(params_get(&ps, "a"), "1");
    params_free(&ps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_options), cmocka_unit_test(test_suggest), cmocka_unit_test(test_natural),     cmocka_unit_test(test_digits),
        cmocka_unit_test(test_escape), cmocka_unit_test(test_markdown),        cmocka_unit_test(test_param_types), cmocka_unit_test(test_sql_binding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
