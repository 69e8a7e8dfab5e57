/* benchdb backtest: a gate evaluated as of each past run, scored against a
 * reference (src/query/backtest.c composes and scores; this file is
 * options and output). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/backtest.h"
#include "query/evaluate.h"
#include "query/saved.h"
#include "util/markdown.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct backtest_args {
    struct params params;
    struct query_path path;
    struct out_opts out;
    struct cli_limits limits;
    const char *plan, *host, *since, *reference;
    int within, no_record;
};

static const struct cli_opt backtest_opts[] = {
    CLI_OPT_PARAM(struct backtest_args, params, "a parameter of the gate or the reference\n(repeatable, once per NAME)"),
    {"plan", 0, "P", "only runs of plan P form the histories", cli_opt_string, offsetof(struct backtest_args, plan),
     0, 0},
    {"host", 0, "H", "only host H's histories", cli_opt_string, offsetof(struct backtest_args, host), 0, 0},
    {"since", 0, "TIME", "judge only runs started at or after TIME (a date or\nan RFC 3339 time); earlier runs "
                         "still form the\nbaselines", cli_opt_string, offsetof(struct backtest_args, since), 0, 0},
    {"reference", 0, "QUERY", "injected-steps or regressions (or a saved query\nwith host, benchmark, params, "
                              "metric, variant,\nseq and kind)", cli_opt_string,
     offsetof(struct backtest_args, reference), 0, 0},
    {"within", 0, "N", "an alert up to N runs after a reference regression\n(counting its run) detects it "
                       "(default 5)", cli_opt_int, offsetof(struct backtest_args, within), 1, 1000000},
    {"no-record", 0, NULL, "do not record this evaluation", cli_opt_flag, offsetof(struct backtest_args, no_record),
     0, 0},
    CLI_OUTPUT_OPTIONS(struct backtest_args, out),
    CLI_OPT_QUERIES(struct backtest_args, path),
    CLI_OPT_LIMITS(struct backtest_args, limits),
    {0},
};

const struct cli_spec spec_backtest = {
    .name = "backtest",
    .store = 1,
    .synopsis = (const char *const[]){"backtest [OPTIONS] GATE", NULL},
    .about = "Had GATE (gate-zscore, gate-ttest, gate-percent, or any saved query with a\n"
             "'scope' parameter offering 'every') been in CI, what would it have flagged?\n"
             "GATE judges every past run of every history against the runs before it\n"
             "only; its regression alerts are scored against a reference: the steps\n"
             "'benchdb simulate --history' injected (injected-steps, the default when\n"
             "the store holds any) or the change points of 'regressions'. Prints the\n"
             "total and each history's runs judged (the gate had limits) and runs\n"
             "without limits (a history's first nights) apart, recall, precision,\n"
             "false alarms per 100 runs judged and detection delay, then every alert\n"
             "(run, revision, statistic, limit) and every missed regression. Recorded\n"
             "as an evaluation of the composed query backtest-GATE (see 'benchdb\n"
             "history'), which can be re-run like any other.\n"
             "The summary sentence goes to stderr (or into the --envelope).\n",
    .opts = backtest_opts,
    .more = "Example:\n"
            "  benchdb backtest gate-zscore --since 2026-01-01\n",
    .min_args = 1,
    .max_args = 1,
    .missing = "missing the gate (gate-zscore, gate-ttest, gate-percent, ...)",
};

static int set_param(struct params *ps, const char *name, const char *value)
{
    char *kv = bd_strdupf("%s=%s", name, value);
    int rc = params_add(ps, kv);
    free(kv);
    return rc;
}

/* The options are parameters of the composed query: 0, or -1 with the
 * error printed and *rc its exit status. */
static int set_named(struct backtest_args *a, const struct saved_query *q, const char *gate, const char *since_utc,
                     const char *within, int *rc)
{
    const char *named[][2] = {
        {"plan", a->plan}, {"host", a->host}, {"since", since_utc}, {"within", *within ? within : NULL}};
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        if (!named[k][1])
            continue;
        if (!saved_query_param(q, named[k][0])) {
            *rc = bd_usage_error("backtest", "backtest: --%s: %s has no parameter '%s'", named[k][0], gate,
                                 named[k][0]);
            return -1;
        }
        if (set_param(&a->params, named[k][0], named[k][1])) {
            bd_error("backtest: out of memory");
            *rc = EXIT_FAIL;
            return -1;
        }
    }
    return 0;
}

/* 0 when the gate and the reference given (NULL: the default) are saved
 * queries; else -1 with *rc the usage error's. */
static int known_queries(const struct query_path *qp, const char *gate, const char *reference, int *rc)
{
    for (int k = 0; k < 2; k++) {
        const char *name = k ? reference : gate;
        struct saved_query *q = name ? cli_find_query("backtest", qp, name, rc) : NULL;
        if (name && !q)
            return -1;
        saved_query_free(q);
    }
    return 0;
}

/* The answer before the rows: the sentence (rep's first note) on stderr,
 * or in Markdown a bold first line on stdout, as a comment opens (query's
 * Markdown does the same); the notes follow the rows either way. */
static void lead(const struct out_opts *o, const struct out_notes *rep)
{
    if (o->format != OUT_MARKDOWN || rep->nnotes < 1) {
        out_notes_print_lines(rep, 0, 1, stdout, stderr);
        return;
    }
    struct strbuf sb = {0};
    sb_puts(&sb, "**");
    sb_put_markdown(&sb, rep->notes[0], strlen(rep->notes[0]), MD_TEXT);
    sb_puts(&sb, "**\n\n");
    fputs(xsb_text(&sb), stdout);
    sb_free(&sb);
}

/* Where err says a column is missing (SQLite's "no such column: x",
 * PostgreSQL's 'column "x" does not exist'), or NULL. */
static const char *missing_column(const char *err)
{
    const char *m = strstr(err, "no such column");
    if (m)
        return m;
    m = strstr(err, "column \"");
    const char *end = m ? strstr(m, "\" does not exist") : NULL;
    return end && end - m < 200 ? m : NULL;
}

/* One message for a column missing (m: where err says so): the column, and
 * what each side must return. */
static void say_missing_column(const char *gate, const char *reference, const char *m)
{
    bd_error("backtest: %s or its reference %s lacks a column the back-test reads (%.*s): a gate returns host, "
             "benchmark, params, metric, variant, seq, run, revision, statistic, limit, lower, upper and alert; a "
             "reference host, benchmark, params, metric, variant, seq and kind",
             gate, reference, (int)strcspn(m, "\n"), m);
}

int cmd_backtest(struct cli *cli, int argc, char **argv)
{
    struct backtest_args a = {0};
    out_opts_init(&a.out);
    int first, rc = EXIT_USAGE;
    struct saved_query *q = NULL;
    struct db *db = NULL;
    char *err = NULL, *since_utc = NULL, *sentence = NULL, within[16] = "";
    struct evaluation ev = {0};
    struct out_notes rep = {0};
    struct store_deadline dl = {0};
    struct rowset_limits lim;
    double timeout;
    if (cli_parse(&spec_backtest, argc, argv, &a, &first) || cli_output_ready("backtest", &a.out))
        goto out;
    const char *gate = argv[first];
    if (a.within)
        snprintf(within, sizeof within, "%d", a.within);
    if ((rc = cli_limits_resolve("backtest", &a.limits, &timeout, &lim)) != EXIT_OK)
        goto out;
    /* A name that is no saved query: a usage error naming the nearest,
     * before the store is opened, as query and report refuse it. */
    query_path_add_env(&a.path);
    if (known_queries(&a.path, gate, a.reference, &rc))
        goto out;
    rc = EXIT_FAIL;
    if (cli_connect_limited(cli, a.no_record ? STORE_READ : STORE_WRITE, "backtest", &a.limits, timeout, &dl, &db))
        goto out;
    if (a.since) {
        since_utc = backtest_normalize_time(a.since);
        if (!since_utc) {
            rc = bd_usage_error("backtest", "backtest: --since '%s': expected a date (2026-01-31) or an RFC 3339 time",
                                a.since);
            goto out;
        }
    }
    const char *reference = a.reference ? a.reference : backtest_default_reference(db);
    q = backtest_compose(&a.path, gate, reference, &err);
    if (!q) {
        bd_error("%s", err);
        goto out;
    }
    if (set_named(&a, q, gate, since_utc, within, &rc))
        goto out;
    int erc = query_evaluate(db, q, &a.params, !a.no_record, &lim, &ev, &err);
    if (erc == EXIT_USAGE) {
        char *see = bd_strdupf("queries %s", gate);
        rc = cli_usage_error_see(see, "backtest %s: %s", gate, err);
        free(see);
        goto out;
    }
    if (erc != EXIT_OK) {
        int fired = cli_deadline_passed(db, &dl);
        if (fired || ev.stopped) {
            char *who = bd_strdupf("backtest %s", gate);
            cli_limit_error(who, &a.limits, timeout, &lim, fired ? 0 : ev.stopped);
            free(who);
        } else if (err && missing_column(err))
            say_missing_column(gate, reference, missing_column(err));
        else if (ev.record_failed) /* a reader's role, a store it may not write: said as query says it */
            bd_error("backtest %s: ran, but %s%s (--no-record runs it without recording)", gate, err,
                     ev.record_failed == 2 ? "" : "; run it again to record it");
        else
            bd_error("%s", err);
        rc = erc == EXIT_NO_ROWS ? EXIT_NO_ROWS : EXIT_FAIL;
        goto out;
    }
    sentence = backtest_sentence(&ev.rows, gate);
    out_note(&rep, "%s (reference: %s, within %s runs)", sentence, reference, *within ? within : "5");
    out_field_text(&rep, "summary", sentence);
    out_field_text(&rep, "reference", reference);
    if (ev.id) {
        out_note(&rep, "recorded as evaluation %lld (see 'benchdb history %s')", ev.id, q->name);
        out_field_int(&rep, "evaluation", ev.id);
    } else
        out_field_json(&rep, "evaluation", NULL); /* present always, as in query's */
    /* The sentence first, then the rows, then where it was recorded. */
    if (!a.out.envelope)
        lead(&a.out, &rep);
    if (a.out.envelope ? out_notes_print(&rep, &ev.rows, &a.out, stdout, stderr)
                       : backtest_print(&ev.rows, &a.out, stdout)) {
        cli_output_failed("backtest");
        goto out;
    }
    if (!a.out.envelope)
        out_notes_print_lines(&rep, a.out.format == OUT_MARKDOWN ? 0 : 1, rep.nnotes, stdout, stderr);
    fflush(stdout);
    rc = ferror(stdout) ? EXIT_FAIL : EXIT_OK;
out:
    out_notes_free(&rep);
    evaluation_free(&ev);
    saved_query_free(q);
    db_close(db);
    params_free(&a.params);
    query_path_free(&a.path);
    free(err);
    free(since_utc);
    free(sentence);
    return rc;
}
