/* benchdb report: an evaluation as an HTML page with SVG charts, or one
 * chart as SVG (src/report/, docs/report.md). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/evaluate.h"
#include "query/saved.h"
#include "report/headline.h"
#include "report/report.h"
#include "util/outfile.h"
#include "util/sha256.h"
#include "util/xalloc.h"

struct report_args {
    struct params params;
    struct query_path path;
    int evaluation;
    const char *output;
    const char *format;
    struct cli_limits limits;
};

static const struct cli_opt report_opts[] = {
    {"evaluation", 0, "ID", "draw evaluation ID (see 'benchdb history')", cli_opt_int,
     offsetof(struct report_args, evaluation), 1, INT_MAX},
    CLI_OPT_PARAM(struct report_args, params, "a parameter of QUERY (repeatable, once per NAME)"),
    {"output", 'o', "FILE", "write to FILE (default: standard output)", cli_opt_string,
     offsetof(struct report_args, output), 0, 0},
    {"format", 'f', "FORMAT", "html (default): the page; svg: the chart alone", cli_opt_string,
     offsetof(struct report_args, format), 0, 0},
    CLI_OPT_QUERIES(struct report_args, path),
    CLI_OPT_LIMITS(struct report_args, limits),
    {0},
};

const struct cli_spec spec_report = {
    .name = "report",
    .store = 1,
    .synopsis = (const char *const[]){"report [OPTIONS] --evaluation ID", "report [OPTIONS] QUERY [--param NAME=VALUE]...",
                                      NULL},
    .about = "Draw a recorded evaluation as one self-contained HTML page: the rule's name,\n"
             "text hash and parameters, the data fingerprint, whether the rule was\n"
             "registered before its plan ran, the command that re-verifies it, the result\n"
             "and SVG charts drawn from the evaluation's recorded rows. The page has no\n"
             "script and fetches nothing. With QUERY, the saved query is run and recorded\n"
             "first (as 'benchdb query' does), then drawn. The chart is chosen by the\n"
             "query's '-- chart:' header line (docs/report.md); a query without one gets\n"
             "its table.\n",
    .opts = report_opts,
    .more = "Examples:\n"
            "  benchdb report placement-rule --param plan=calibration-sim -o report.html\n"
            "  benchdb report --evaluation 3 --format svg -o chart.svg\n",
    .max_args = 1,
};

/* What running and drawing share: the store, the options, the limits. */
struct report_run {
    struct db *db;
    const struct report_args *a;
    struct store_deadline *dl;
    double timeout;
    const struct rowset_limits *lim;
    int standby; /* --evaluation on a hot standby: read-only, nothing recorded */
};

/* A failure of a query's run: the limit that stopped it, or err. who names
 * it ("report NAME", "report: query COMPANION"). */
static void say_failure(const struct report_run *r, const char *who, int stopped, const char *err)
{
    int fired = cli_deadline_passed(r->db, r->dl);
    if (fired || stopped)
        cli_limit_error(who, &r->a->limits, r->timeout, r->lim, fired ? 0 : stopped);
    else
        bd_error("report: %s", err ? err : "out of memory");
}

static void say_companion_failure(const struct report_run *r, const char *from, const char *err)
{
    char *who = bd_strdupf("report: query %s", from);
    say_failure(r, who, 0, err);
    free(who);
}

/* Runs q, checks that its page can be drawn (the chart from its rows, or
 * from its companion's, run now if need be), and only then records it
 * (and the companion): a report that fails records nothing. Sets
 * *eval_id. Returns EXIT_OK, or the exit status with the error printed. */
static int run_and_record(const struct report_run *r, const struct saved_query *q, const struct chart_spec *probe,
                          struct report_companion_run *comp, long long *eval_id)
{
    struct db *db = r->db;
    const struct report_args *a = r->a;
    struct evaluation e;
    struct report_eval mem = {0};
    struct strbuf rows = {0};
    char *err = NULL, fp[65];
    int erc = query_evaluate(db, q, &a->params, EVAL_RECORD_LATER, r->lim, &e, &err), rc = EXIT_FAIL;
    if (erc != EXIT_OK) {
        rc = erc == EXIT_USAGE || erc == EXIT_NO_ROWS ? erc : EXIT_FAIL;
        char *who = bd_strdupf("report %s", q->name);
        say_failure(r, who, e.stopped, err);
        free(who);
        goto out;
    }
    if (evaluation_recordable(&e, &err)) {
        bd_error("report %s: %s", q->name, err);
        goto out;
    }
    if (rowset_json(&e.rows, &rows, 0) || report_eval_unrecorded(&mem, q->name, e.params_json, rows.buf, &err)) {
        bd_error("report %s: out of memory", q->name);
        goto out;
    }
    if (probe->from) {
        /* The companion is found (or run) on the data the query just saw. */
        if (data_fingerprint(db, fp, NULL, &err) == 0)
            mem.fingerprint = xstrdup(fp);
        if (!mem.fingerprint || report_companion(db, &a->path, &mem, probe->from, probe, 1, comp, &err)) {
            say_companion_failure(r, probe->from, err);
            goto out;
        }
    } else if (report_check_chart(probe, &mem, NULL, &err)) {
        bd_error("report: %s", err);
        goto out;
    }
    if (evaluation_record(db, q, &e, &err) || report_companion_record(db, comp, &err)) {
        bd_error("report %s: %s", q->name, err);
        goto out;
    }
    *eval_id = e.id;
    rc = EXIT_OK;
out:
    evaluation_free(&e);
    report_eval_free(&mem);
    sb_free(&rows);
    free(err);
    return rc;
}

/* The page of evaluation eval_id, with its chart (from its companion's
 * evaluation: comp's, or found or run and recorded now). Returns the
 * number of marks, or -1 with the error printed. */
static long long draw(const struct report_run *r, long long eval_id, const struct saved_query *q, int svg,
                      struct report_companion_run *comp, struct strbuf *page, char **line)
{
    struct db *db = r->db;
    const struct report_args *a = r->a;
    struct report_eval ev = {0}, cev = {0};
    struct chart_spec spec = {0};
    struct saved_query *parsed = NULL;
    char *err = NULL, *reg = NULL, *verify = NULL;
    long long marks = -1;
    if (report_eval_load(db, eval_id, &ev, &err)) {
        bd_error("report: %s", err);
        goto out;
    }
    char src[160];
    snprintf(src, sizeof src, "evaluation %lld (%s)", ev.id, ev.query_name);
    if (chart_spec_parse(ev.text, src, &spec, &err) < 0) {
        bd_error("report: %s", err);
        goto out;
    }
    parsed = saved_query_parse(xstrdup(ev.text), src, 0, &err);
    free(err);
    err = NULL; /* a recorded text always parsed once; without it the page lacks the descriptions only */
    const struct report_eval *chart_ev = &ev;
    if (spec.from) {
        if ((!comp->id && (report_companion(db, &a->path, &ev, spec.from, &spec, !r->standby, comp, &err) ||
                           report_companion_record(db, comp, &err))) ||
            report_eval_load(db, comp->id, &cev, &err)) {
            if (r->standby) { /* it would be recorded now: not here */
                char *why = bd_strdupf("%s; the server is a hot standby, where nothing is recorded: run this command "
                                       "against the primary",
                                       err ? err : "out of memory");
                free(err);
                err = why;
            }
            say_companion_failure(r, spec.from, err);
            goto out;
        }
        chart_ev = &cev;
    }
    reg = report_registration_text(db, &ev, parsed);
    {
        char *e2 = NULL;
        int unknown = 0;
        struct saved_query *now = q ? NULL : saved_query_find(&a->path, ev.query_name, &unknown, &e2);
        free(e2);
        verify = report_verify_text(&ev, q ? q : now, &a->path);
        saved_query_free(now);
    }
    struct report_page pg = {&ev, chart_ev, &spec, parsed, reg, verify, NULL, NULL, 0};
    marks = svg ? report_svg(page, &pg, &err) : report_html(page, &pg, &err);
    if (marks < 0) {
        bd_error("%s", err);
        goto out;
    }
    struct strbuf sb = {0};
    /* what the page found first, as it opens: its headline, else its outcome line */
    char *found = NULL, *e2 = NULL;
    if (report_headline(&ev, chart_ev, src, &found, &e2) || !found)
        found = ev.outcome ? xstrdup(ev.outcome) : NULL;
    free(e2);
    if (found)
        sb_printf(&sb, "%s\n", found);
    free(found);
    sb_printf(&sb, "report: wrote %s: evaluation %lld of %s", a->output ? a->output : "-", ev.id, ev.query_name);
    if (spec.kind != CHART_TABLE)
        sb_printf(&sb, ", %s chart of %lld mark%s", chart_kind_name(spec.kind), marks, marks == 1 ? "" : "s");
    if (chart_ev != &ev)
        sb_printf(&sb, " from evaluation %lld of %s%s", cev.id, cev.query_name, comp->ran ? " (recorded now)" : "");
    *line = xsb_detach(&sb);
out:
    chart_spec_free(&spec);
    report_eval_free(&ev);
    report_eval_free(&cev);
    saved_query_free(parsed);
    free(err);
    free(reg);
    free(verify);
    return marks;
}

/* Whether the server store is a hot standby: 1, 0, or -1 with the error
 * printed. */
static int on_standby(struct cli *cli)
{
    struct db *db = NULL;
    if (cli_connect_store(cli, STORE_INSPECT, &db))
        return -1;
    int yes = store_is_standby(db);
    db_close(db);
    return yes;
}

/* A recorded evaluation is drawn on a hot standby too, read-only (a
 * companion it needs must be recorded already: on the primary); a query,
 * which report records, is sent to the primary or to --evaluation (the
 * standby's refusal of writers says --no-record, which report has not).
 * 1 on a standby (q NULL), 0 elsewhere, -1 with the error printed. */
static int standby_allows(struct cli *cli, const struct saved_query *q)
{
    int standby = on_standby(cli); /* 0 on a store file */
    if (standby == 1 && q) {
        bd_error("report %s: the server is a hot standby (a read-only replica in recovery), where the evaluation "
                 "report draws cannot be recorded: run it against the primary, or draw an evaluation recorded there "
                 "with 'benchdb report --evaluation ID' ('benchdb history' lists them)",
                 q->name);
        return -1;
    }
    return standby;
}

/* The options' combinations; -1 after a usage error. */
static int usage_checked(const struct report_args *a, int has_query, int *svg)
{
    const char *problem = NULL;
    if (a->format && strcmp(a->format, "svg") != 0 && strcmp(a->format, "html") != 0) {
        bd_usage_error("report", "report: --format '%s': expected html or svg", a->format);
        return -1;
    }
    *svg = a->format && strcmp(a->format, "svg") == 0;
    if (a->evaluation && has_query)
        problem = "give either --evaluation ID or a query, not both";
    else if (!a->evaluation && !has_query)
        problem = "missing --evaluation ID or the saved query's name";
    else if (a->evaluation && a->params.n)
        problem = "--param goes with a query; an evaluation has its parameters";
    else if (a->output && !*a->output)
        problem = "--output: the file name is empty";
    if (problem)
        bd_usage_error("report", "report: %s", problem);
    return problem ? -1 : 0;
}

int cmd_report(struct cli *cli, int argc, char **argv)
{
    struct report_args a = {0};
    int first, svg = 0, rc = EXIT_USAGE, opened = 0;
    struct store_deadline dl = {0};
    struct db *db = NULL;
    char *err = NULL, *line = NULL;
    struct saved_query *q = NULL;
    struct chart_spec probe = {0};
    struct report_companion_run comp = {0};
    struct outfile o;
    struct strbuf page = {0};
    long long eval_id = 0;
    double timeout = 0;
    struct rowset_limits lim = {0};
    if (cli_parse(&spec_report, argc, argv, &a, &first) || usage_checked(&a, first < argc, &svg))
        goto out;
    eval_id = a.evaluation;
    const char *out_path = a.output && strcmp(a.output, "-") != 0 ? a.output : NULL; /* "-": standard output */
    query_path_add_env(&a.path);
    if (!eval_id) {
        if (!(q = cli_find_query("report", &a.path, argv[first], &rc)))
            goto out;
        struct resolved_params rsv = {0};
        int bad = evaluation_resolve(q, &a.params, &rsv, &err);
        resolved_params_free(&rsv);
        if (bad) {
            char *see = bd_strdupf("queries %s", q->name);
            rc = cli_usage_error_see(see, "report %s: %s", q->name, err);
            free(see);
            goto out;
        }
        /* What the query's text alone says cannot be drawn (a malformed
         * chart line, --format svg of a table, a companion that is not
         * there) is said before anything is run or recorded. */
        rc = EXIT_FAIL;
        if (chart_spec_parse(q->text, q->source, &probe, &err) < 0 || report_headline_check(q->text, q->source, &err) ||
            (svg && report_svg_possible(&probe, q->name, &err))) {
            bd_error("%s%s", strncmp(err, "report: ", 8) == 0 ? "" : "report: ", err);
            goto out;
        }
    }
    if ((rc = cli_limits_resolve("report", &a.limits, &timeout, &lim)) != EXIT_OK)
        goto out;
    rc = EXIT_FAIL;
    int standby = standby_allows(cli, q);
    if (standby < 0 || cli_connect_limited(cli, standby ? STORE_READ : STORE_WRITE, "report", &a.limits, timeout, &dl, &db))
        goto out;
    /* The output is opened before anything is recorded: a name that cannot
     * be written fails the command first. */
    if (outfile_open(&o, out_path ? out_path : "-", &err)) {
        bd_error("report: %s", err);
        goto out;
    }
    opened = 1;
    struct report_run run = {db, &a, &dl, timeout, &lim, standby};
    if (q && (rc = run_and_record(&run, q, &probe, &comp, &eval_id)) != EXIT_OK)
        goto out;
    rc = EXIT_FAIL;
    if (draw(&run, eval_id, q, svg, &comp, &page, &line) < 0)
        goto out;
    if (outfile_put(&o, xsb_text(&page), page.len, &err)) {
        bd_error("report: %s", err);
        goto out; /* aborted there: the temporary removed */
    }
    opened = 0;
    if (outfile_commit(&o, &err)) {
        bd_error("report: %s", err);
        goto out;
    }
    if (out_path) /* the page's answer, then what was written */
        fprintf(stderr, "%s\n", line);
    rc = EXIT_OK;
out:
    if (opened)
        outfile_abort(&o);
    sb_free(&page);
    chart_spec_free(&probe);
    report_companion_free(&comp);
    saved_query_free(q);
    db_close(db);
    params_free(&a.params);
    query_path_free(&a.path);
    free(err);
    free(line);
    return rc;
}
