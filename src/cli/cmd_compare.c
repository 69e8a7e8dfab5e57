/* benchdb compare: on a store, the saved query `compare`
 * (queries/compare.sql) with its parameters taken from a benchstat-like
 * command line; on files, the files read without a store
 * (compare_files.c). Either way printed as benchstat's tables
 * (src/compare). Which one the sides name: docs/queries.md, "compare". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/compare_files.h"
#include "ingest/ingest.h"
#include "query/compare.h"
#include "query/evaluate.h"
#include "query/saved.h"
#include "compare/units.h"
#include "util/natural.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/xalloc.h"
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
    static const char *const bys[] = {"run", "source", "host", "variant", NULL};
    struct compare_sides *sides = dst;
    sides->given = 1;
    if (strncmp(arg, "attr:", 5) == 0 && arg[5]) {
        sides->key = arg + 5;
        sides->by = "attr";
    } else if (one_of(arg, bys)) {
        for (int i = 0; bys[i]; i++)
            if (strcmp(arg, bys[i]) == 0)
                sides->by = bys[i];
    } else
        return bd_fail(err, "expected run, source, host, variant or attr:KEY");
    return 0;
}

/* --ignore KEY, repeatable. */
struct keys {
    const char **v;
    size_t n;
};

static int parse_key(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    struct keys *k = dst;
    if (!*arg)
        return bd_fail(err, "expected a configuration key");
    const char **v = xreallocarray(k->v, k->n + 1, sizeof *v);
    if (!v)
        return bd_fail(err, "out of memory");
    k->v = v;
    k->v[k->n++] = arg;
    return 0;
}

struct compare_args {
    struct params params;
    struct query_path path;
    struct out_opts out;
    struct cli_limits limits;
    struct compare_sides sides;
    struct keys ignore;
    const char *plan;
    int gate, gate_strict, no_record, record, benchstat, only_changed;
};

#define PARAM_OPT(name, meta, help)                                                                                   \
    {name, 0, meta, help, parse_param_option, offsetof(struct compare_args, params), 0, 0}
static const struct cli_opt compare_opts[] = {
    {"plan", 0, "P", "the plan (default: the only plan holding A and B)", cli_opt_string,
     offsetof(struct compare_args, plan), 0, 0},
    {"by", 0, "WHAT", "run (default), source, host, variant or attr:KEY", parse_by, offsetof(struct compare_args, sides), 0,
     0},
    PARAM_OPT("metric", "M", "only this metric (primary, B/op, ..., or its unit as\nstored or shown: ns/op, sec/op; default: all)"),
    PARAM_OPT("sample", "WHAT", "one sample is a value (default), a run's mean\nor a block's mean: value, run or block"),
    PARAM_OPT("level", "L", "confidence level of the intervals (default 0.95)"),
    PARAM_OPT("alpha", "A", "significance level (default 0.05)"),
    PARAM_OPT("method", "M", "p of the U test: benchstat (default), exact or r"),
    PARAM_OPT("adjust", "M", "adjust p for multiple comparisons: none\n(default), holm or bh"),
    PARAM_OPT("threshold", "PCT", "regressed only when slower by more than PCT\npercent (default 0)"),
    PARAM_OPT("exact-units", "U,...", "units whose values are exact (benchstat's\nassume=exact)"),
    {"gate", 0, NULL, "exit 3 when a cell regressed, 4 when nothing was\ncompared", cli_opt_flag,
     offsetof(struct compare_args, gate), 0, 0},
    {"gate-strict", 0, NULL, "--gate, and exit 5 where it would pass without\nhaving judged all of A: a benchmark of A "
     "missing\nfrom B, a failure the harness reported in B, or no\ncell judged (docs/compare.md)", cli_opt_flag,
     offsetof(struct compare_args, gate_strict), 0, 0},
    {"no-record", 0, NULL, "do not record this evaluation", cli_opt_flag, offsetof(struct compare_args, no_record), 0,
     0},
    {"benchstat", 0, NULL, "benchstat's columns only: no change interval and\nverdict after them", cli_opt_flag,
     offsetof(struct compare_args, benchstat), 0, 0},
    {"only-changed", 0, NULL, "only the cells that changed (verdict other than ~):\nin table, csv, json and vertical output",
     cli_opt_flag, offsetof(struct compare_args, only_changed), 0, 0},
    {"ignore", 0, "KEY", "files: leave configuration KEY (a \"key: value\"\nline) out of the tables (repeatable); a key no\nfile has is warned of",
     parse_key, offsetof(struct compare_args, ignore), 0, 0},
    {"record", 0, NULL, "files: load them into the store --db names (plan\n'files') and record the evaluation",
     cli_opt_flag, offsetof(struct compare_args, record), 0, 0},
    /* The output options but --wide (the table is benchstat's: it never
     * turns vertical), and --digits for the one output it rounds. */
    {"format", 'f', "FORMAT", "table (default), vertical, csv, json or markdown", cli_opt_format,
     offsetof(struct compare_args, out.format), 0, 0},
    {"digits", 0, "N", "significant digits of reals in vertical output (1-17,\ndefault 4); the table and markdown show "
     "benchstat's", cli_opt_int, offsetof(struct compare_args, out.digits), 1, OUT_DIGITS_MAX},
    {"envelope", 0, NULL, "with --format json: one object with the rows and the\nnotes (which go to stderr otherwise)",
     cli_opt_flag, offsetof(struct compare_args, out.envelope), 0, 0},
    CLI_OPT_QUERIES(struct compare_args, path),
    CLI_OPT_LIMITS(struct compare_args, limits),
    {0},
};
#undef PARAM_OPT

const struct cli_spec spec_compare = {
    .name = "compare",
    .store = 1,
    .synopsis = (const char *const[]){"compare [OPTIONS] A B [C...]", NULL},
    .about = "Compare B with the baseline A, cell by cell, as Go's benchstat does: each\n"
             "side's median and the spread of its confidence interval (\"± x%\"), the\n"
             "change of the medians and the Mann-Whitney p (~ when p > alpha), a geomean\n"
             "row; then benchdb's own columns: the change's Hodges-Lehmann interval and a\n"
             "verdict (slower/faster, or worse/better for other units).\n"
             "\n"
             "Files: when every side is a file (or -, or FILE1,FILE2 for several, or\n"
             "LABEL=FILE..., or a directory: the harness files below it, such as\n"
             "Criterion.rs's target/criterion), they are compared without a store, as\n"
             "'benchstat A B' compares them: Go benchmark text, or any harness output\n"
             "'ingest' reads.\n"
             "C and more sides are each compared with A. Nothing is stored or recorded\n"
             "unless --record is given with --db.\n"
             "\n"
             "Runs: otherwise A and B are runs of plan P (default), sources (a revision\n"
             "or its first 7+ digits), hosts (every run of each), variants or values of\n"
             "a run attribute (--by); without --plan the one plan holding both is used.\n"
             "It runs the saved query 'compare' and records the evaluation, like\n"
             "'benchdb query compare'. The table format is benchstat's layout; csv and\n"
             "json give every column of the query.\n"
             "\n"
             "The answer first: --format markdown is a comment for a pull request (the\n"
             "counts and the gate's result on its first line, then the changed cells,\n"
             "then every cell folded); in the other formats --only-changed keeps the\n"
             "changed cells only.\n",
    .opts = compare_opts,
    .more = "Exit status: 0, 1 runtime failure, 2 usage error; with --gate 3 when a\n"
            "cell regressed, 4 when nothing was compared; with --gate-strict also 5\n"
            "when no cell regressed but not all of A was judged.\n"
            "\n"
            "Examples:\n"
            "  benchdb compare old.txt new.txt\n"
            "  benchdb compare base.json head.json --format markdown --gate > comment.md\n"
            "  benchdb compare base.json head.json -f markdown --gate-strict > comment.md\n"
            "  benchdb compare base=base_r1.json,base_r2.json head=head_r1.json,head_r2.json\n"
            "  benchdb compare --plan builds base head\n"
            "  benchdb compare --by variant v2.18.0 HEAD --metric primary --sample run\n",
    .min_args = 2,
    .max_args = -1,
    .missing = "expected the two sides A and B",
};

static int add_params(struct params *ps, const char *plan, const struct compare_sides *s)
{
    if (add_param(ps, "plan", plan) || add_param(ps, "a", s->a) || add_param(ps, "b", s->b) ||
        add_param(ps, "by", s->by) || (s->key && add_param(ps, "key", s->key))) {
        bd_error("compare: out of memory");
        return -1;
    }
    return 0;
}

/* --exact-units as the table shows a unit (sec/op) bound as the plan
 * stores it (ns/op), as the files take it. 0, or -1 having said why. */
static int exact_units_as_stored(struct db *db, const char *plan, struct params *ps)
{
    char *err = NULL, *stored = NULL;
    for (int i = 0; i < ps->n; i++) {
        if (strcmp(ps->v[i].name, "exact_units") != 0)
            continue;
        if (compare_expand_units(db, plan, ps->v[i].value, &stored, &err)) {
            bd_error("%s", err);
            free(err);
            return -1;
        }
        if (stored) {
            free(ps->v[i].value);
            ps->v[i].value = stored;
        }
    }
    return 0;
}

/* The store's rows without the cells that did not change (--only-changed
 * in CSV, JSON and vertical output): cell rows whose verdict is neither ~
 * nor same. */
static int keep_changed(struct rowset *rs)
{
    int kind = rowset_column(rs, "kind"), verdict = rowset_column(rs, "verdict");
    if (kind < 0 || verdict < 0)
        return 0;
    unsigned char *keep = xcalloc(rs->nrow + 1, 1);
    if (!keep)
        return -1;
    for (size_t r = 0; r < rs->nrow; r++) {
        const char *k = (const char *)sqlite3_value_text(rowset_cell(rs, r, kind));
        const char *v = (const char *)sqlite3_value_text(rowset_cell(rs, r, verdict));
        keep[r] = k && strcmp(k, "cell") == 0 && v && strcmp(v, "~") != 0 && strcmp(v, "same") != 0;
    }
    rowset_keep(rs, keep);
    free(keep);
    return 0;
}

/* --exact-units naming a unit no row has (as stored, or as the table
 * shows it: those were bound as stored before) changes nothing: a warning
 * says so, with the units the rows have, as stored and as shown. */
static void warn_unused_units(const struct rowset *rs, const char *list)
{
    int unit = rowset_column(rs, "unit");
    if (!list || unit < 0 || !rs->nrow)
        return;
    const char *p, *cur = list;
    size_t len;
    while (list_next(&cur, &p, &len)) {
        int found = !len;
        for (size_t r = 0; r < rs->nrow && !found; r++) {
            const char *u = (const char *)sqlite3_value_text(rowset_cell(rs, r, unit));
            found = u && strlen(u) == len && memcmp(u, p, len) == 0;
        }
        if (!found) {
            char **names = xcalloc(2 * rs->nrow + 1, sizeof *names);
            size_t n = 0;
            char shown[256];
            for (size_t r = 0; names && r < rs->nrow; r++) {
                const char *u = (const char *)sqlite3_value_text(rowset_cell(rs, r, unit));
                if (u)
                    cmp_tidy_any(u, shown, sizeof shown);
                const char *uv[2] = {u, u ? shown : NULL};
                for (int k = 0; k < 2; k++) {
                    size_t j = 0;
                    while (uv[k] && j < n && strcmp(names[j], uv[k]) != 0)
                        j++;
                    if (uv[k] && j == n && !(names[n++] = xstrdup(uv[k])))
                        n--;
                }
            }
            natural_sort((const char **)names, n);
            char *name = xstrndup(p, len);
            char *msg = name ? suggest_unknown("unit", "units", name, (const char *const *)names, n) : NULL;
            bd_warning("compare: --exact-units: %s: nothing assumed exact for it", msg ? msg : "no such unit");
            free(msg);
            free(name);
            for (size_t k = 0; k < n; k++)
                free(names[k]);
            free(names);
        }
    }
}

/* How the saved query judged, from its parameters (their defaults where
 * not given). */
static struct compare_judged judged_by(const struct params *ps, int extras)
{
    const char *level = params_get(ps, "level"), *alpha = params_get(ps, "alpha"),
               *threshold = params_get(ps, "threshold");
    return (struct compare_judged){params_get(ps, "adjust"), level ? strtod(level, NULL) : 0.95,
                                   alpha ? strtod(alpha, NULL) : 0.05, threshold ? strtod(threshold, NULL) : 0,
                                   extras};
}

int cli_compare_nothing_compared(const struct rowset *rs, const struct params *given, char **why, char **counts)
{
    *why = NULL;
    *counts = NULL;
    const char *by = params_get(given, "by");
    struct compare_sides sides = {by ? by : "run", params_get(given, "key"), params_get(given, "a"),
                                  params_get(given, "b"), by != NULL};
    struct compare_judged j = judged_by(given, 1);
    struct cmp_model m = {0};
    int rc = sides.a && sides.b ? compare_rows_model(rs, &sides, &j, &m) : 1;
    struct cmp_counts c;
    if (rc == 0 && cmp_count(&m, &c))
        rc = -1;
    else if (rc == 0 && !(*counts = cmp_counts_json(&m, &c)))
        rc = -1;
    else if (rc == 0) {
        int unmet;
        *why = cmp_nothing_judged(&m, &c, &unmet);
        rc = unmet < 0 ? -1 : *why ? (unmet ? 1 : 2) : (*why = cmp_after_verdict(&m, &c)) ? 3 : -1;
    } else if (rc > 0)
        rc = 0; /* not compare's rows: the gate as for any query */
    if (rc <= 0) {
        free(*counts);
        *counts = NULL;
    }
    cmp_model_free(&m);
    return rc;
}

void cli_compare_failures_read(struct db *db, const struct params *given, struct cmp_failures *failed)
{
    memset(failed, 0, sizeof *failed);
    const char *by = params_get(given, "by");
    struct compare_sides sides = {by ? by : "run", params_get(given, "key"), params_get(given, "a"),
                                  params_get(given, "b"), by != NULL};
    if (!sides.a || !sides.b)
        return;
    char *err = NULL;
    const char *both[2] = {sides.a, sides.b};
    if (compare_read_failures(db, params_get(given, "plan"), sides.by, sides.key, both, 2, failed, &err)) {
        bd_warning("query compare: the failures the harness reported cannot be read: %s", err);
        cmp_failures_free(failed);
    }
    free(err);
}

/* The table in the format asked for, its summary first, and the notes. */
static int print_store(struct compare_args *a, const struct saved_query *q, struct evaluation *ev,
                       const struct compare_sides *sides, struct cmp_failures *failed, int *gate_rc,
                       const char *unrecorded)
{
    struct out_notes rep = {0};
    const char *summary = ev->verdict ? ev->verdict : ev->outcome;
    struct cmp_model m = {0};
    struct compare_judged j = judged_by(&a->params, !a->benchstat);
    warn_unused_units(&ev->rows, params_get(&a->params, "exact_units"));
    int prc = compare_rows_model(&ev->rows, sides, &j, &m);
    m.failures = *failed; /* the model's now, freed with it */
    *failed = (struct cmp_failures){0};
    m.gate_strict = a->gate_strict;
    /* Rows of cells only one side has: nothing was compared (as on files). */
    if (prc == 0 && a->gate && *gate_rc == EXIT_OK && !m.compared)
        *gate_rc = EXIT_NO_ROWS;
    if (prc == 0 && a->gate && *gate_rc == EXIT_OK)
        *gate_rc = compare_gate_strict(&m, *gate_rc);
    if (prc == 0)
        prc = compare_summarize(&m, summary, &rep);
    else
        out_note(&rep, "%s: %s", q->name, summary);
    out_field_text(&rep, "verdict", ev->verdict);
    /* Registration: the rule of an outcome, said when it was registered
     * (an unregistered compare is the ordinary case, not worth a note). */
    if (ev->registration_note && ev->registration && strcmp(ev->registration, "unregistered") != 0)
        out_note(&rep, "%s", ev->registration_note);
    if (ev->id) {
        out_note(&rep, "recorded as evaluation %lld (see 'benchdb history %s')", ev->id, q->name);
        out_field_int(&rep, "evaluation", ev->id);
    } else
        out_field_json(&rep, "evaluation", NULL); /* present always, as in query's */
    /* Not recorded: exit 1, said after the output; no gate's line names another status. */
    if (a->gate)
        out_field_int(&rep, "exit", unrecorded ? EXIT_FAIL : *gate_rc);
    struct out_notes gate = {0}; /* said once the output is written (compare_gate_said) */
    if (a->gate && prc == 0 && !unrecorded)
        compare_gate_note(compare_gate_where(&a->out, &rep, &gate), &m, *gate_rc);
    char *none = prc == 0 && a->only_changed ? compare_none_changed(&m) : NULL;
    if (prc == 0 && a->only_changed)
        cmp_model_only_changed(&m);
    if (prc < 0 || (a->only_changed && keep_changed(&ev->rows)))
        prc = -1;
    else if (prc == 0 && a->out.format == OUT_TABLE)
        prc = compare_print_table(&m, &rep); /* the summary first, as in CSV and JSON */
    else if (prc == 0 && a->out.format == OUT_MARKDOWN)
        prc = cmp_print_comment(&m, stdout) || out_notes_print(&rep, NULL, &a->out, stdout, stderr);
    else {
        rep.leading = 1; /* the summary before the rows */
        prc = out_notes_print(&rep, &ev->rows, &a->out, stdout, stderr);
    }
    if (prc == 0 && a->out.format != OUT_MARKDOWN)
        prc = compare_print_none_changed(none, a->out.format);
    free(none);
    cmp_model_free(&m);
    out_notes_free(&rep);
    int done = compare_output_done(prc != 0);
    if (done == 0 && unrecorded) /* the result shown, then why it was not recorded */
        bd_error("%s", unrecorded);
    else if (done == 0)
        compare_gate_said(&gate);
    out_notes_free(&gate);
    return done;
}

/* Why a comparison that ran was not recorded, with what to do: a role
 * that may only read the store says so and who writes it (running it
 * again changes nothing there), as ingest says it (store_may_write); else
 * the failure (a busy store, a full disk) and to run it again. */
static char *unrecorded_why(struct db *db, const struct evaluation *ev, const char *err)
{
    char *role = NULL;
    char *why = store_may_write(db, &role) && role
                    ? bd_strdupf("compare: ran, but cannot record the evaluation: %s (--no-record runs it without "
                                 "recording)", role)
                    : bd_strdupf("compare: ran, but %s%s (--no-record runs it without recording)",
                                 err ? err : "cannot record the evaluation",
                                 ev->record_failed == 2 ? "" : "; run it again to record it");
    free(role);
    return why;
}

/* A and B as runs (or sources, variants, attribute values) of a store. */
static int store_compare(struct cli *cli, struct compare_args *a, struct compare_sides sides)
{
    int rc = EXIT_USAGE;
    char *plan = NULL, *err = NULL, *full_a = NULL, *full_b = NULL;
    char *unrecorded = NULL; /* it ran, but was not recorded: shown, then why */
    struct saved_query *q = NULL;
    struct db *db = NULL;
    struct evaluation ev = {0};
    struct cmp_failures failed = {0};
    struct store_deadline dl = {0};
    struct rowset_limits lim;
    double timeout;
    if ((rc = cli_limits_resolve("compare", &a->limits, &timeout, &lim)) != EXIT_OK)
        goto out;
    query_path_add_env(&a->path);
    if (!(q = cli_find_query("compare", &a->path, "compare", &rc)))
        goto out;
    rc = EXIT_FAIL;
    if (cli_connect_limited(cli, a->no_record ? STORE_READ : STORE_WRITE, "compare", &a->limits, timeout, &dl, &db))
        goto out;
    plan = a->plan ? xstrdup(a->plan) : NULL;
    const char *a_given = sides.a, *b_given = sides.b;
    int found = compare_expand_sources(db, &sides, plan, &full_a, &full_b, &err);
    if (!found && (full_a || full_b) && strcmp(sides.a, sides.b) == 0) {
        /* An abbreviation of the other side: one column twice. */
        rc = bd_usage_error("compare", "compare: A and B are both source '%s' (%s abbreviates it)", sides.a,
                            full_a ? a_given : b_given);
        goto out;
    }
    if (!found)
        found = compare_find_plan(db, &sides, &plan, &err);
    if (found) {
        bd_error("%s", err);
        rc = found == -1 ? EXIT_USAGE : EXIT_FAIL;
        goto out;
    }
    if (add_params(&a->params, plan, &sides) || exact_units_as_stored(db, plan, &a->params))
        goto out;
    int erc = query_evaluate(db, q, &a->params, !a->no_record, &lim, &ev, &err);
    if (erc == EXIT_FAIL && ev.record_failed && !ev.stopped && !cli_deadline_passed(db, &dl)) {
        unrecorded = unrecorded_why(db, &ev, err);
        erc = EXIT_OK;
    }
    if (erc != EXIT_OK) {
        if (erc == EXIT_USAGE)
            rc = cli_usage_error_see("queries compare", "compare: %s", err);
        else if (cli_deadline_passed(db, &dl) || ev.stopped)
            cli_limit_error("compare", &a->limits, timeout, &lim, ev.stopped);
        else
            bd_error("%s", err);
        if (erc == EXIT_NO_ROWS)
            rc = EXIT_NO_ROWS;
        goto out;
    }
    int gate_rc = EXIT_OK;
    if (a->gate && (gate_rc = evaluation_gate(q, &ev, &err)) == EXIT_FAIL)
        bd_error("%s", err);
    const char *both[2] = {sides.a, sides.b};
    if (compare_read_failures(db, plan, sides.by, sides.key, both, 2, &failed, &err)) {
        bd_error("compare: %s", err);
        goto out;
    }
    if (print_store(a, q, &ev, &sides, &failed, &gate_rc, unrecorded))
        goto out; /* said */
    rc = unrecorded ? EXIT_FAIL : a->gate ? gate_rc : EXIT_OK;
out:
    free(unrecorded);
    evaluation_free(&ev);
    cmp_failures_free(&failed);
    saved_query_free(q);
    db_close(db);
    free(plan);
    free(full_a);
    free(full_b);
    free(err);
    return rc;
}

/* The options as the comparison of files takes them. */
static int files_options(struct compare_args *a, struct compare_files_opts *o)
{
    cmp_options_init(&o->cmp);
    const char *v;
    if (params_get(&a->params, "sample"))
        return bd_usage_error("compare", "compare: --sample: files give every value; one per run or block needs "
                                         "runs of a store (ingest the files and give --plan)");
    /* The saved query's options: files run none, so they would do nothing. */
    const char *store_only = a->path.n ? "--queries" : cli_limits_given(&a->limits);
    if (store_only)
        return bd_usage_error("compare", "compare: %s applies to the saved query 'compare' on a store; files are "
                                         "compared without one (--record --db FILE compares them there)",
                              store_only);
    o->cmp.metric = params_get(&a->params, "metric");
    o->cmp.exact_units = params_get(&a->params, "exact_units");
    if ((v = params_get(&a->params, "level")))
        o->cmp.level = strtod(v, NULL);
    if ((v = params_get(&a->params, "alpha")))
        o->cmp.alpha = strtod(v, NULL);
    if ((v = params_get(&a->params, "threshold")))
        o->cmp.threshold = strtod(v, NULL);
    if ((v = params_get(&a->params, "method")))
        o->cmp.method = strcmp(v, "r") == 0 ? MW_R : strcmp(v, "exact") == 0 ? MW_EXACT : MW_BENCHSTAT;
    if ((v = params_get(&a->params, "adjust")))
        o->cmp.adjust = strcmp(v, "holm") == 0 ? CMP_ADJUST_HOLM : strcmp(v, "bh") == 0 ? CMP_ADJUST_BH
                                                                                      : CMP_ADJUST_NONE;
    o->cmp.extras = !a->benchstat;
    o->ignore = a->ignore.v;
    o->nignore = a->ignore.n;
    o->out = a->out;
    o->gate = a->gate;
    o->gate_strict = a->gate_strict;
    o->only_changed = a->only_changed;
    return EXIT_OK;
}

enum store_at { STORE_NONE, STORE_FILE, STORE_ELSEWHERE };

/* Where the store --db names is: no file at its path, a file, or elsewhere
 * (a server, or not a regular file). */
static enum store_at store_at(const struct cli *cli)
{
    struct stat st;
    /* Engine branch: only a store file is looked into; a server is not
     * reached for a comparison of files. */
    if (db_is_server_name(cli->db_path))
        return STORE_ELSEWHERE;
    if (stat(cli->db_path, &st) != 0)
        return STORE_NONE;
    return S_ISREG(st.st_mode) ? STORE_FILE : STORE_ELSEWHERE;
}

/* A side that names a file and a run of the store (one that exists) is
 * ambiguous: say so, naming both. Runs of plan "files" (--record's) are
 * those files. */
static int ambiguous(struct cli *cli, const struct compare_side *sides, int n)
{
    if (store_at(cli) != STORE_FILE)
        return 0;
    sqlite3 *db = NULL;
    char *err = NULL;
    if (store_open(cli->db_path, STORE_READ, &db, &err)) {
        free(err);
        return 0;
    }
    sqlite3_stmt *st1 = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(db, "SELECT p.name FROM run r JOIN plan p ON p.id = r.plan_id "
                               "WHERE r.name = ?1 AND p.name <> 'files' ORDER BY p.name LIMIT 1", -1, &st1, NULL) == SQLITE_OK)
        for (int i = 0; rc == 0 && i < n; i++) {
            if (strchr(sides[i].arg, '/') || strcmp(sides[i].arg, "-") == 0)
                continue;
            sqlite3_bind_text(st1, 1, sides[i].arg, -1, SQLITE_STATIC);
            if (sqlite3_step(st1) == SQLITE_ROW)
                rc = bd_usage_error("compare", "compare: '%s' is both a file and a run of plan %s in %s: give --plan "
                                               "%s to compare the runs, or ./%s to compare the files",
                                    sides[i].arg, (const char *)sqlite3_column_text(st1, 0), cli->db_path,
                                    (const char *)sqlite3_column_text(st1, 0), sides[i].arg);
            sqlite3_reset(st1);
        }
    sqlite3_finalize(st1);
    store_close(db);
    return rc;
}

/* --record: the files loaded into the store as runs of plan "files", then
 * compared there as runs, the evaluation recorded. */
static int record_files(struct cli *cli, struct compare_args *a, struct compare_side *sides, int n)
{
    if (!cli->db_named)
        return bd_usage_error("compare", "compare: --record stores the files: name the store with --db (or "
                                         "$BENCHDB)");
    if (n != 2)
        return bd_usage_error("compare", "compare: --record compares two sides");
    if (a->no_record)
        return bd_usage_error("compare", "compare: --record with --no-record: one records the comparison, the "
                                         "other not (give one)");
    /* Stored, a Go file's configuration lines are its run's attributes
     * (pkg aside: a cell's params), which a comparison of runs does not
     * split on: what --ignore asks of files, --record does without it. */
    if (a->ignore.n)
        return bd_usage_error("compare", "compare: --record with --ignore: stored, the files' runs are compared "
                                         "cell by cell whatever their configuration lines (pkg aside, a cell's "
                                         "params there): give --record without --ignore");
    struct db *db = NULL;
    char *err = NULL;
    struct ingest_options io = INGEST_OPTIONS_DEFAULT;
    io.notices = INGEST_NOTICES_QUIET;
    struct ingester *g = NULL;
    int rc = EXIT_OK;
    if (cli_connect_store(cli, STORE_WRITE, &db))
        return EXIT_FAIL;
    if (!(g = ingester_open(db, &io, NULL, &err))) {
        bd_error("compare: %s", err);
        rc = EXIT_FAIL;
    }
    for (int s = 0; rc == EXIT_OK && s < n; s++) {
        struct ingest_file *files = xcalloc(sides[s].npaths, sizeof *files);
        char **names = xcalloc(sides[s].npaths, sizeof *names);
        for (size_t i = 0; files && names && i < sides[s].npaths; i++) {
            names[i] = compare_file_name(i, sides[s].paths[i]);
            files[i] = (struct ingest_file){sides[s].paths[i], names[i]};
        }
        struct ingest_run run = {.plan = "files", .run = sides[s].label, .host = "local", .variant = "default",
                                 .block = 1,
                                 .stored_hint = "; compare --record keeps a run per label: give the side another "
                                                "(LABEL=FILE), or remove the run first (benchdb delete --run "
                                                "files/LABEL)"};
        if (!files || !names || ingester_files(g, &run, files, sides[s].npaths, sides[s].arg) == INGEST_FAILED)
            rc = EXIT_FAIL;
        for (size_t i = 0; names && i < sides[s].npaths; i++)
            free(names[i]);
        free(files);
        free(names);
    }
    ingester_close(g);
    db_close(db);
    free(err);
    if (rc != EXIT_OK)
        return rc;
    a->plan = "files";
    struct compare_sides cs = {.by = "run", .a = sides[0].label, .b = sides[1].label};
    return store_compare(cli, a, cs);
}

/* Files or runs: every side a file (or -) and no --plan or --by: files. */
static int files_or_store(struct cli *cli, struct compare_args *a, char **args, int n)
{
    struct compare_side *sides = xcalloc((size_t)n, sizeof *sides);
    if (!sides) {
        bd_error("compare: out of memory");
        return EXIT_FAIL;
    }
    int files = 0, rc = EXIT_OK, not_file = -1;
    for (int i = 0; rc == EXIT_OK && i < n; i++) {
        int f = compare_side_parse(args[i], &sides[i]);
        if (f < 0) {
            bd_error("compare: out of memory");
            rc = EXIT_FAIL;
        }
        files += f > 0;
        if (f == 0 && not_file < 0)
            not_file = i;
        /* Files (not standard input) may be labelled apart. */
        const char *how = f > 0 && strcmp(sides[i].label, "-") != 0
                              ? " (the sides' columns need two names: label them, as in old=FILE new=FILE)"
                              : "";
        for (int k = 0; f >= 0 && rc == EXIT_OK && k < i; k++)
            if (strcmp(sides[k].label, sides[i].label) == 0)
                rc = bd_usage_error("compare", "compare: two sides are both '%s'%s", sides[i].label, how);
    }
    if (rc == EXIT_OK && files > 0 && files < n)
        rc = bd_usage_error("compare", "compare: '%s' is not a file (either every side is a file, or every side a "
                                       "run of a store)", args[not_file]);
    struct compare_files_opts o;
    for (int i = 0; rc == EXIT_OK && files == n && i < n; i++) {
        const char *f1, *f2;
        if (compare_side_expand(&sides[i]))
            rc = EXIT_FAIL;
        else if (compare_side_twice(&sides[i], &f1, &f2))
            rc = bd_usage_error("compare", "compare: side '%s' names one file twice (%s%s%s): its values would "
                                           "count twice", sides[i].label, f1, strcmp(f1, f2) ? " and " : "",
                                strcmp(f1, f2) ? f2 : ", twice");
    }
    if (rc == EXIT_OK && files == 0 && store_at(cli) == STORE_NONE)
        /* No file and no store: a mistyped file name, not a run. */
        rc = bd_usage_error("compare", "compare: '%s' is no file, and there is no store (%s) whose runs it could "
                                       "name: give harness files, or --db STORE to compare runs",
                            args[0], cli_store_name(cli));
    else if (rc == EXIT_OK && files == 0) {
        if (n > 2)
            rc = bd_usage_error("compare", "compare: more than two sides: on files only (runs of a store compare "
                                           "two at a time)");
        else {
            struct compare_sides cs = a->sides;
            cs.a = args[0];
            cs.b = args[1];
            rc = store_compare(cli, a, cs);
        }
    } else if (rc == EXIT_OK && a->record)
        rc = record_files(cli, a, sides, n);
    else if (rc == EXIT_OK && (rc = files_options(a, &o)) == EXIT_OK && (rc = ambiguous(cli, sides, n)) == EXIT_OK)
        rc = compare_files_run(&o, sides, n);
    for (int i = 0; i < n; i++)
        compare_side_free(&sides[i]);
    free(sides);
    return rc;
}

int cmd_compare(struct cli *cli, int argc, char **argv)
{
    struct compare_args a = {.sides = {.by = "run"}};
    out_opts_init(&a.out);
    a.out.digits = 0; /* not given (--digits takes 1 to 17) */
    int first, rc = EXIT_USAGE;
    if (cli_parse(&spec_compare, argc, argv, &a, &first) || cli_output_ready("compare", &a.out))
        goto out;
    if (a.out.digits && (a.out.format == OUT_TABLE || a.out.format == OUT_MARKDOWN)) {
        rc = bd_usage_error("compare", "compare: --digits: the %s shows benchstat's digits (each value to at least 3 "
                                       "significant digits); --digits rounds --format vertical",
                            a.out.format == OUT_TABLE ? "table" : "markdown comment");
        goto out;
    }
    if (!a.out.digits)
        a.out.digits = OUT_DIGITS_DEFAULT;
    if (a.gate_strict) /* the stricter gate is a gate */
        a.gate = 1;
    /* The comment lists the changed cells already, and its first line
     * counts every cell (the unchanged, removed and added too) and folds
     * all of them below: --only-changed is for the other formats. */
    if (a.out.format == OUT_MARKDOWN)
        a.only_changed = 0;
    int n = argc - first;
    if (a.plan || a.sides.given) {
        /* --plan or --by: runs of a store, two of them. */
        if (n > 2 || a.record || a.ignore.n) {
            rc = n > 2 ? bd_usage_error("compare", "compare: runs of a store are compared two at a time, got %d "
                                                   "(name two runs, or give files)", n)
                 : a.record ? bd_usage_error("compare", "compare: --record on runs of a store: their comparison "
                                                        "is recorded already (--no-record leaves it out)")
                            : bd_usage_error("compare", "compare: --ignore on runs of a store: a configuration key "
                                                        "is a file's line, and a store's runs are compared cell by "
                                                        "cell whatever their attributes");
            goto out;
        }
        struct compare_sides cs = a.sides;
        cs.a = argv[first];
        cs.b = argv[first + 1];
        struct stat sa, sb;
        if (store_at(cli) == STORE_NONE && stat(cs.a, &sa) == 0 && stat(cs.b, &sb) == 0)
            /* Two files, and no store whose runs they could name. */
            rc = bd_usage_error("compare", "compare: %s: '%s' and '%s' are files, which compare without it (and "
                                           "there is no store %s whose runs they could name)",
                                a.plan ? "--plan" : "--by", cs.a, cs.b, cli_store_name(cli));
        else if (strcmp(cs.a, cs.b) == 0)
            rc = bd_usage_error("compare", "compare: A and B are both '%s'", cs.a);
        else
            rc = store_compare(cli, &a, cs);
    } else
        rc = files_or_store(cli, &a, argv + first, n);
out:
    params_free(&a.params);
    query_path_free(&a.path);
    free(a.ignore.v);
    return rc;
}
