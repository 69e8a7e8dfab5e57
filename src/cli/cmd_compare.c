/* benchdb compare: the saved query `compare` (queries/compare.sql) with
 * its parameters taken from a benchstat-like command line, printed as
 * benchstat's tables (src/query/compare.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/compare.h"
#include "query/evaluate.h"
#include "query/saved.h"

const char usage_compare[] =
    "usage: benchdb [--db FILE] compare [--plan P] [--by run|source|variant|attr:KEY] A B [OPTIONS]\n"
    "\n"
    "Compare B with the baseline A, cell by cell, as Go's benchstat does: each\n"
    "side's median and the spread of its confidence interval (\"± x%\"), the\n"
    "change of the medians, its Hodges-Lehmann interval, the Mann-Whitney p and\n"
    "a verdict (~ when p > alpha; else slower/faster, or worse/better for\n"
    "other units), then a geomean row. A and B are runs of plan P (default),\n"
    "sources, variants or values of a run attribute (--by). Without --plan the\n"
    "one plan holding both is used. It runs the saved query 'compare' and\n"
    "records the evaluation, like 'benchdb query compare'.\n"
    "\n"
    "  -P, --plan P             the plan (default: the only plan holding A and B)\n"
    "  -b, --by WHAT            run (default), source, variant or attr:KEY\n"
    "  -m, --metric M           only this metric (primary, B/op, ...; default: all)\n"
    "  -s, --sample WHAT        one sample is a value (default), a run's mean or a block's\n"
    "                           mean: value, run or block\n"
    "  -l, --level L            confidence level of the intervals (default 0.95)\n"
    "  -a, --alpha A            significance level (default 0.05)\n"
    "      --method M           p of the U test: benchstat (default), exact or r\n"
    "      --adjust M           adjust p for multiple comparisons: none (default), holm, bh\n"
    "  -t, --threshold PCT      regressed only when slower by more than PCT percent (default 0)\n"
    "      --exact-units U,...  units whose values are exact (benchstat's assume=exact)\n"
    "  -f, --format FORMAT      table (default: benchstat's layout), csv, json or markdown\n"
    "                           (csv, json and markdown give every column of the query)\n"
    "      --gate               exit 3 when a cell regressed, 4 when nothing was compared\n"
    "      --no-record          do not record this evaluation\n"
    "\n"
    "Exit status: 0, 1 runtime failure, 2 usage error; with --gate 3 regressed,\n"
    "4 no rows.\n"
    "\n"
    "Examples:\n"
    "  benchdb compare --plan builds base head\n"
    "  benchdb compare --by variant v2.18.0 HEAD --metric primary --sample run\n";

/* --gate's exit codes, as the shared gate of saved queries has them. */
enum { EXIT_GATE_FAILS = 3, EXIT_GATE_NO_ROWS = 4 };

/* The column of rows named name, or -1. */
static int column_of(const struct rowset *rs, const char *name)
{
    for (int c = 0; c < rs->ncol; c++)
        if (strcmp(rs->names[c], name) == 0)
            return c;
    return -1;
}

/* What the gate says of an evaluation: 0 when the outcome column
 * (no_regression) holds, i.e. is nonzero, in every row; 3 when it does not
 * in some row; 4 without rows (the shared gate's rule, --gate of `query`). */
static int gate_status(const struct saved_query *q, const struct evaluation *ev)
{
    if (ev->rows.nrow == 0)
        return EXIT_GATE_NO_ROWS;
    int c = q->outcome ? column_of(&ev->rows, q->outcome) : -1;
    for (size_t r = 0; c >= 0 && r < ev->rows.nrow; r++)
        if (sqlite3_value_double(rowset_cell(&ev->rows, r, c)) == 0)
            return EXIT_GATE_FAILS;
    return EXIT_OK;
}

static int add_param(struct params *ps, const char *name, const char *value)
{
    char *kv = bd_strdupf("%s=%s", name, value);
    int rc = params_add(ps, kv);
    free(kv);
    return rc;
}

static int one_of(const char *v, const char *const *choices)
{
    for (; *choices; choices++)
        if (strcmp(v, *choices) == 0)
            return 1;
    return 0;
}

/* The options that become a parameter of the saved query as given, once
 * checked: one of choices, or a number in [lo, hi] (open ends where said). */
struct param_option {
    int opt;
    const char *name, *param;
    const char *const *choices;
    double lo, hi;
    int lo_open, hi_open;
    const char *expected;
};

static const char *const samples[] = {"value", "run", "block", NULL};
static const char *const methods[] = {"benchstat", "exact", "r", NULL};
static const char *const adjusts[] = {"none", "holm", "bh", NULL};
static const struct param_option param_options[] = {
    {'m', "--metric", "metric", NULL, 0, 0, 0, 0, NULL},
    {'s', "--sample", "sample", samples, 0, 0, 0, 0, "value, run or block"},
    {'l', "--level", "level", NULL, 0, 1, 1, 1, "a number between 0 and 1"},
    {'a', "--alpha", "alpha", NULL, 0, 1, 0, 0, "a number from 0 to 1"},
    {'M', "--method", "method", methods, 0, 0, 0, 0, "benchstat, exact or r"},
    {'A', "--adjust", "adjust", adjusts, 0, 0, 0, 0, "none, holm or bh"},
    {'t', "--threshold", "threshold", NULL, 0, 1e300, 0, 1, "a number of percent >= 0"},
    {'E', "--exact-units", "exact_units", NULL, 0, 0, 0, 0, NULL},
};

/* Checks and adds the parameter of option c; 0, or EXIT_USAGE after the
 * message; 1 when c is not such an option. */
static int param_option(struct params *ps, int c, const char *arg)
{
    for (size_t i = 0; i < sizeof param_options / sizeof *param_options; i++) {
        const struct param_option *o = &param_options[i];
        if (o->opt != c)
            continue;
        int ok = 1;
        if (o->choices)
            ok = one_of(arg, o->choices);
        else if (o->expected) {
            char *end;
            double v = strtod(arg, &end);
            ok = *arg && !*end && (o->lo_open ? v > o->lo : v >= o->lo) && (o->hi_open ? v < o->hi : v <= o->hi);
        }
        if (!ok)
            return bd_usage_error("compare", "compare: %s '%s': expected %s", o->name, arg, o->expected);
        if (add_param(ps, o->param, arg))
            return bd_usage_error("compare", "compare: out of memory");
        return 0;
    }
    return 1;
}

int cmd_compare(struct cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {
        {"plan", required_argument, 0, 'P'},     {"by", required_argument, 0, 'b'},
        {"metric", required_argument, 0, 'm'},   {"sample", required_argument, 0, 's'},
        {"level", required_argument, 0, 'l'},    {"alpha", required_argument, 0, 'a'},
        {"method", required_argument, 0, 'M'},   {"adjust", required_argument, 0, 'A'},
        {"threshold", required_argument, 0, 't'}, {"exact-units", required_argument, 0, 'E'},
        {"format", required_argument, 0, 'f'},   {"gate", no_argument, 0, 'g'},
        {"no-record", no_argument, 0, 'n'},      {0, 0, 0, 0},
    };
    static const char *const bys[] = {"run", "source", "variant", NULL};
    struct params ps = {0};
    struct query_path qp = {0};
    struct compare_sides sides = {.by = "run"};
    enum out_format fmt = OUT_TABLE;
    int record = 1, gate = 0, c, rc = EXIT_USAGE;
    char *plan = NULL, *key = NULL, *err = NULL;
    struct saved_query *q = NULL;
    sqlite3 *db = NULL;
    struct evaluation ev = {0};
    cli_getopt_reset();
    while ((c = cli_getopt("compare", argc, argv, "P:b:m:s:l:a:t:f:", opts)) != -1) {
        int prc = param_option(&ps, c, optarg);
        if (prc == EXIT_USAGE)
            goto out;
        if (prc == 0)
            continue;
        switch (c) {
        case 'P':
            free(plan);
            plan = strdup(optarg);
            break;
        case 'b':
            if (strncmp(optarg, "attr:", 5) == 0 && optarg[5]) {
                free(key);
                key = strdup(optarg + 5);
                sides.by = "attr";
            } else if (one_of(optarg, bys)) {
                sides.by = strcmp(optarg, "run") == 0 ? "run" : strcmp(optarg, "source") == 0 ? "source" : "variant";
            } else {
                bd_usage_error("compare", "compare: --by '%s': expected run, source, variant or attr:KEY", optarg);
                goto out;
            }
            break;
        case 'f':
            if (out_format_parse(optarg, &fmt)) {
                bd_usage_error("compare", "compare: --format '%s': expected one of %s", optarg, OUT_FORMAT_NAMES);
                goto out;
            }
            break;
        case 'g': gate = 1; break;
        case 'n': record = 0; break;
        default: goto out;
        }
    }
    if (argc - optind < 2) {
        bd_usage_error("compare", "compare: expected the two sides A and B");
        goto out;
    }
    if (argc - optind > 2) {
        bd_usage_error("compare", "compare: unexpected argument '%s'", argv[optind + 2]);
        goto out;
    }
    sides.a = argv[optind];
    sides.b = argv[optind + 1];
    sides.key = key;
    if (strcmp(sides.a, sides.b) == 0) {
        bd_usage_error("compare", "compare: A and B are both '%s'", sides.a);
        goto out;
    }

    query_path_add_env(&qp);
    q = saved_query_find(&qp, "compare", &err);
    rc = EXIT_FAIL;
    if (!q) {
        bd_error("compare: %s", err);
        goto out;
    }
    if (cli_open_store(cli, record ? STORE_WRITE : STORE_READ, &db))
        goto out;
    int found = compare_find_plan(db, &sides, &plan, &err);
    if (found) {
        bd_error("%s", err);
        rc = found == -1 ? EXIT_USAGE : EXIT_FAIL;
        goto out;
    }
    if (add_param(&ps, "plan", plan) || add_param(&ps, "a", sides.a) || add_param(&ps, "b", sides.b) ||
        add_param(&ps, "by", sides.by) || (key && add_param(&ps, "key", key))) {
        bd_error("compare: out of memory");
        goto out;
    }
    if (evaluation_run(db, q, &ps, record, &ev, &err)) {
        bd_error("%s", err);
        goto out;
    }
    int prc = 1;
    const char *level = params_get(&ps, "level");
    if (fmt == OUT_TABLE)
        prc = compare_print(&ev.rows, &sides, params_get(&ps, "adjust"), level ? strtod(level, NULL) : 0.95, 100,
                            stdout);
    if (prc == 1)
        prc = rowset_print(&ev.rows, fmt, stdout);
    if (prc || fflush(stdout) || ferror(stdout)) {
        bd_error("compare: cannot write the output");
        goto out;
    }
    /* The verdict (the summary column, the query's '-- verdict:') and the
     * record go to stderr: stdout stays the table. */
    int sc = column_of(&ev.rows, "summary");
    if (sc >= 0 && ev.rows.nrow > 0) {
        const unsigned char *t = sqlite3_value_text(rowset_cell(&ev.rows, 0, sc));
        fprintf(stderr, "%s: %s\n", q->name, t ? (const char *)t : "");
    } else {
        fprintf(stderr, "%s: %s\n", q->name, ev.outcome);
    }
    if (ev.registration_note && ev.registration && strcmp(ev.registration, "unregistered") != 0)
        fprintf(stderr, "%s\n", ev.registration_note);
    if (ev.id)
        fprintf(stderr, "recorded as evaluation %lld (see 'benchdb history %s')\n", ev.id, q->name);
    rc = gate ? gate_status(q, &ev) : EXIT_OK;
out:
    evaluation_free(&ev);
    saved_query_free(q);
    store_close(db);
    params_free(&ps);
    query_path_free(&qp);
    free(plan);
    free(key);
    free(err);
    return rc;
}
