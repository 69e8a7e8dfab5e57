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
#include <stddef.h>

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

/* The parser of the options that become a parameter of the query: checks
 * the value by the table above and adds NAME=VALUE to the struct params. */
static int parse_param_option(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    for (size_t i = 0; i < sizeof param_options / sizeof *param_options; i++) {
        const struct param_option *po = &param_options[i];
        if (strcmp(po->name + 2, o->name) != 0)
            continue;
        int ok = 1;
        if (po->choices)
            ok = one_of(arg, po->choices);
        else if (po->expected) {
            char *end;
            double v = strtod(arg, &end);
            ok = *arg && !*end && (po->lo_open ? v > po->lo : v >= po->lo) && (po->hi_open ? v < po->hi : v <= po->hi);
        }
        if (!ok)
            return bd_fail(err, "expected %s", po->expected);
        if (params_get(dst, po->param))
            return bd_fail(err, "given twice");
        if (add_param(dst, po->param, arg))
            return bd_fail(err, "out of memory");
        return 0;
    }
    return bd_fail(err, "not a parameter of compare");
}

static int parse_by(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    static const char *const bys[] = {"run", "source", "variant", NULL};
    struct compare_sides *sides = dst;
    if (strncmp(arg, "attr:", 5) == 0 && arg[5]) {
        sides->key = arg + 5;
        sides->by = "attr";
    } else if (one_of(arg, bys)) {
        sides->by = strcmp(arg, "run") == 0 ? "run" : strcmp(arg, "source") == 0 ? "source" : "variant";
    } else
        return bd_fail(err, "expected run, source, variant or attr:KEY");
    return 0;
}

struct compare_args {
    struct params params;
    struct query_path path;
    struct out_opts out;
    struct cli_limits limits;
    struct compare_sides sides;
    const char *plan;
    int gate, no_record;
};

#define PARAM_OPT(name, meta, help)                                                                                   \
    {name, 0, meta, help, parse_param_option, offsetof(struct compare_args, params), 0, 0}
static const struct cli_opt compare_opts[] = {
    {"plan", 0, "P", "the plan (default: the only plan holding A and B)", cli_opt_string,
     offsetof(struct compare_args, plan), 0, 0},
    {"by", 0, "WHAT", "run (default), source, variant or attr:KEY", parse_by, offsetof(struct compare_args, sides), 0,
     0},
    PARAM_OPT("metric", "M", "only this metric (primary, B/op, ...; default: all)"),
    PARAM_OPT("sample", "WHAT", "one sample is a value (default), a run's mean\nor a block's mean: value, run or block"),
    PARAM_OPT("level", "L", "confidence level of the intervals (default 0.95)"),
    PARAM_OPT("alpha", "A", "significance level (default 0.05)"),
    PARAM_OPT("method", "M", "p of the U test: benchstat (default), exact or r"),
    PARAM_OPT("adjust", "M", "adjust p for multiple comparisons: none\n(default), holm or bh"),
    PARAM_OPT("threshold", "PCT", "regressed only when slower by more than PCT\npercent (default 0)"),
    PARAM_OPT("exact-units", "U,...", "units whose values are exact (benchstat's\nassume=exact)"),
    {"gate", 0, NULL, "exit 3 when a cell regressed, 4 when nothing was\ncompared", cli_opt_flag,
     offsetof(struct compare_args, gate), 0, 0},
    {"no-record", 0, NULL, "do not record this evaluation", cli_opt_flag, offsetof(struct compare_args, no_record), 0,
     0},
    CLI_OUTPUT_OPTIONS(struct compare_args, out),
    CLI_OPT_QUERIES(struct compare_args, path),
    CLI_OPT_LIMITS(struct compare_args, limits),
    {0},
};
#undef PARAM_OPT

const struct cli_spec spec_compare = {
    .name = "compare",
    .store = 1,
    .synopsis = (const char *const[]){"compare [OPTIONS] A B", NULL},
    .about = "Compare B with the baseline A, cell by cell, as Go's benchstat does: each\n"
             "side's median and the spread of its confidence interval (\"± x%\"), the\n"
             "change of the medians, its Hodges-Lehmann interval, the Mann-Whitney p and\n"
             "a verdict (~ when p > alpha; else slower/faster, or worse/better for\n"
             "other units), then a geomean row. A and B are runs of plan P (default),\n"
             "sources, variants or values of a run attribute (--by). Without --plan the\n"
             "one plan holding both is used. It runs the saved query 'compare' and\n"
             "records the evaluation, like 'benchdb query compare'. The table format is\n"
             "benchstat's layout; csv, json and markdown give every column of the query.\n",
    .opts = compare_opts,
    .more = "Exit status: 0, 1 runtime failure, 2 usage error; with --gate 3 when a\n"
            "cell regressed, 4 when nothing was compared.\n"
            "\n"
            "Examples:\n"
            "  benchdb compare --plan builds base head\n"
            "  benchdb compare --by variant v2.18.0 HEAD --metric primary --sample run\n",
    .min_args = 2,
    .max_args = 2,
    .missing = "expected the two sides A and B",
};

int cmd_compare(struct cli *cli, int argc, char **argv)
{
    struct compare_args a = {.sides = {.by = "run"}};
    out_opts_init(&a.out);
    int first, rc = EXIT_USAGE;
    char *plan = NULL, *err = NULL;
    struct saved_query *q = NULL;
    struct db *db = NULL;
    struct evaluation ev = {0};
    struct report rep = {0};
    struct store_deadline dl = {0};
    struct rowset_limits lim;
    double timeout;
    if (cli_parse(&spec_compare, argc, argv, &a, &first) || cli_output_ready("compare", &a.out))
        goto out;
    struct compare_sides sides = a.sides;
    sides.a = argv[first];
    sides.b = argv[first + 1];
    if (strcmp(sides.a, sides.b) == 0) {
        bd_usage_error("compare", "compare: A and B are both '%s'", sides.a);
        goto out;
    }
    if ((rc = cli_limits_resolve("compare", &a.limits, &timeout, &lim)) != EXIT_OK)
        goto out;
    query_path_add_env(&a.path);
    if (!(q = cli_find_query("compare", &a.path, "compare", &rc)))
        goto out;
    rc = EXIT_FAIL;
    if (cli_connect_limited(cli, a.no_record ? STORE_READ : STORE_WRITE, timeout, &dl, &db))
        goto out;
    plan = a.plan ? strdup(a.plan) : NULL;
    int found = compare_find_plan(db, &sides, &plan, &err);
    if (found) {
        bd_error("%s", err);
        rc = found == -1 ? EXIT_USAGE : EXIT_FAIL;
        goto out;
    }
    if (add_param(&a.params, "plan", plan) || add_param(&a.params, "a", sides.a) ||
        add_param(&a.params, "b", sides.b) || add_param(&a.params, "by", sides.by) ||
        (sides.key && add_param(&a.params, "key", sides.key))) {
        bd_error("compare: out of memory");
        goto out;
    }
    int erc = query_evaluate(db, q, &a.params, !a.no_record, &lim, &ev, &err);
    if (erc != EXIT_OK) {
        if (erc == EXIT_USAGE)
            rc = cli_usage_error_see("queries compare", "compare: %s", err);
        else if (cli_deadline_passed(db, &dl) || ev.stopped)
            cli_limit_error("compare", &a.limits, timeout, &lim, ev.stopped);
        else
            bd_error("%s", err);
        if (erc == EXIT_NO_ROWS)
            rc = EXIT_NO_ROWS;
        goto out;
    }
    int gate_rc = EXIT_OK;
    if (a.gate && (gate_rc = evaluation_gate(q, &ev, &err)) == EXIT_FAIL)
        bd_error("%s", err);
    /* The verdict (the query's '-- verdict:' column) and the record go to
     * stderr: stdout stays the table. */
    report_note(&rep, "%s: %s", q->name, ev.verdict ? ev.verdict : ev.outcome);
    report_field_text(&rep, "verdict", ev.verdict);
    if (ev.registration_note && ev.registration && strcmp(ev.registration, "unregistered") != 0)
        report_note(&rep, "%s", ev.registration_note);
    if (ev.id) {
        report_note(&rep, "recorded as evaluation %lld (see 'benchdb history %s')", ev.id, q->name);
        report_field_int(&rep, "evaluation", ev.id);
    }
    if (a.gate)
        report_field_int(&rep, "exit", gate_rc);
    int prc;
    if (a.out.format == OUT_TABLE) {
        const char *level = params_get(&a.params, "level");
        prc = compare_print(&ev.rows, &sides, params_get(&a.params, "adjust"), level ? strtod(level, NULL) : 0.95, 100,
                            stdout) ||
              report_print(&rep, NULL, &a.out, stdout, stderr);
    } else
        prc = report_print(&rep, &ev.rows, &a.out, stdout, stderr);
    if (prc || fflush(stdout) || ferror(stdout)) {
        bd_error("compare: cannot write the output");
        goto out;
    }
    rc = a.gate ? gate_rc : EXIT_OK;
out:
    report_free(&rep);
    evaluation_free(&ev);
    saved_query_free(q);
    db_close(db);
    params_free(&a.params);
    query_path_free(&a.path);
    free(plan);
    free(err);
    return rc;
}
