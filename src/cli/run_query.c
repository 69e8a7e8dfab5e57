/* Running a saved query from the command line and reporting it (cli.h):
 * the path of `benchdb query`, for every command built on it. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "compare/compare.h"
#include "query/evaluate.h"
#include "query/saved.h"
#include "report/headline.h"
#include "util/markdown.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The notes and envelope fields of an evaluation (nothing: why compare's
 * rows compare nothing, or NULL; instead: the verdict line when compare
 * could judge no cell, or NULL; not_recorded: why it is not in the
 * history, or NULL). */
static void describe(const struct cli_query_run *r, const struct evaluation *ev, int gate_rc, const char *nothing,
                     const char *instead, const char *not_recorded, const char *failed, struct out_notes *rep)
{
    const struct saved_query *q = r->q;
    out_field_text(rep, "query", q->name);
    out_field_json(rep, "params", ev->params_json);
    /* The verdict in words, once; else what the rows say, and why there
     * are none when the parameters say. */
    const char *also = failed ? failed : ""; /* compare's: what the harness reported failed */
    if (nothing || instead)
        out_note(rep, "%s%s", nothing ? nothing : instead, also);
    else if (ev->empty_why)
        out_note(rep, "%s%s: %s%s", ev->verdict ? "" : "result: ", ev->outcome, ev->empty_why, also);
    else
        out_note(rep, "%s%s%s", ev->verdict ? "" : "result: ", ev->outcome, also);
    out_field_text(rep, "empty_because", ev->empty_why);
    out_field_text(rep, "verdict", ev->verdict);
    out_field_text(rep, "outcome", ev->outcome);
    out_field_text(rep, "unmet", nothing);
    if (ev->outcome_column >= 0 && ev->rows.nrow && !ev->outcome_text && !nothing)
        out_field_bool(rep, "holds", ev->holding == ev->rows.nrow);
    else
        out_field_json(rep, "holds", NULL);
    /* Whether a rule was fixed before its data matters for a decision: a
     * lookup that happens to judge a plan is not told it is unregistered. */
    if (ev->registration_note && (q->outcome || (ev->registration && strcmp(ev->registration, "unregistered") != 0)))
        out_note(rep, "%s", ev->registration_note);
    out_field_text(rep, "registration", ev->registration);
    if (ev->id) {
        out_note(rep, "recorded as evaluation %lld (see 'benchdb history %s')", ev->id, q->name);
        out_field_int(rep, "evaluation", ev->id);
    } else
        out_field_json(rep, "evaluation", NULL);
    out_field_text(rep, "not_recorded", not_recorded);
    if (r->gate) {
        static const char *const what[] = {
            [EXIT_OK] = "holds in every row", [EXIT_NOT_HELD] = "does not hold in every row",
            [EXIT_NO_ROWS] = "has no rows to hold in"};
        /* Not recorded: the command fails whatever the gate says. */
        if (nothing)
            out_note(rep, "gate: nothing compared (exit %d%s)", gate_rc, not_recorded ? ", but 1: not recorded" : "");
        else if ((gate_rc == EXIT_OK || gate_rc == EXIT_NOT_HELD || gate_rc == EXIT_NO_ROWS) && not_recorded)
            out_note(rep, "gate: %s %s (exit %d, but 1: not recorded)", q->outcome, what[gate_rc], gate_rc);
        else if (gate_rc == EXIT_OK || gate_rc == EXIT_NOT_HELD || gate_rc == EXIT_NO_ROWS)
            out_note(rep, "gate: %s %s (exit %d)", q->outcome, what[gate_rc], gate_rc);
        out_field_int(rep, "exit", not_recorded ? EXIT_FAIL : gate_rc);
    }
}

/* The answer in words when the query has no verdict column: its first
 * `-- headline` line the rows fill, as its page opens. A gate's ("the gate
 * fails: 16 of 483 runs judged regressed, ..."), and a lookup's ("1
 * change point in 6 histories; the largest: ..."), passing over the lines
 * that count the rows of a chart drawn from another query, which only the
 * page runs (regressions' own lines count its rows: "2 regressions in 2
 * histories; the largest: ..."). NULL when there is none, or for a verdict
 * (already in words), or when the parameters select nothing. A line that
 * does not parse (an unknown format) is left out with a warning in rep,
 * naming its file and line as 'benchdb report' refuses it. */
static char *answer_headline(const struct saved_query *q, const struct evaluation *ev, struct out_notes *rep)
{
    /* The parameters select no measured value: why (empty_why) is the
     * answer, not what the query would say of an empty result ("no
     * regression" of a store holding nothing to look at). */
    if (ev->verdict || ev->empty_why || !q->text || !strstr(q->text, "-- headline"))
        return NULL;
    struct strbuf rows = {0};
    struct report_eval mem;
    char *out = NULL, *err = NULL;
    if (rowset_json(&ev->rows, &rows, 0) == 0 &&
        report_eval_unrecorded(&mem, q->name, ev->params_json, xsb_text(&rows), &err) == 0) {
        mem.text = xstrdup(q->text);
        char *warning;
        out = report_headline_answer(&mem, q->source ? q->source : q->name, &warning);
        if (warning)
            out_note(rep, "%s", warning);
        free(warning);
        report_eval_free(&mem);
    }
    free(err);
    sb_free(&rows);
    return out;
}

/* Markdown output of a decision or of a lookup with a headline leads with
 * its answer: the verdict in words (or its headline, or what the rows
 * say), bold, then the gate's result. */
static void lead_sentence(const struct cli_query_run *r, const struct evaluation *ev, const char *headline,
                          int gate_rc, const char *nothing, const char *failed, struct out_notes *rep)
{
    if (r->out.format != OUT_MARKDOWN || (!r->q->outcome && !ev->verdict && !headline))
        return;
    struct strbuf sb = {0};
    const char *what = nothing ? nothing : ev->verdict ? ev->verdict : headline ? headline : ev->outcome ? ev->outcome : "";
    sb_puts(&sb, "**");
    sb_put_markdown(&sb, what, strlen(what), MD_TEXT);
    sb_puts(&sb, "**");
    if (r->gate && (gate_rc == EXIT_OK || gate_rc == EXIT_NOT_HELD || gate_rc == EXIT_NO_ROWS))
        sb_printf(&sb, " — gate: %s (exit %d)",
                  gate_rc == EXIT_OK         ? "passes"
                  : gate_rc == EXIT_NOT_HELD ? "fails"
                  : nothing                 ? "nothing compared"
                                             : "no rows to judge",
                  gate_rc);
    if (failed)
        sb_put_markdown(&sb, failed, strlen(failed), MD_TEXT);
    out_lead(rep, xsb_text(&sb));
    sb_free(&sb);
}

/* Needs unmet: the reason, and nothing else. */
static int report_unmet(const struct cli_query_run *r, const char *why)
{
    struct out_notes rep = {0};
    out_note(&rep, "%s", why);
    out_field_text(&rep, "query", r->q->name);
    out_field_text(&rep, "unmet", why);
    out_field_int(&rep, "exit", EXIT_NO_ROWS);
    struct rowset none = {0};
    int rc = out_notes_print(&rep, r->out.envelope ? &none : NULL, &r->out, stdout, stderr);
    out_notes_free(&rep);
    return rc ? EXIT_FAIL : EXIT_NO_ROWS;
}

/* compare's failures past the first line's three, each after the rows as
 * compare says them, and all of them in the envelope ([] when none). */
static void compare_failures_after(int compare_rows, struct cmp_failures *f, struct out_notes *rep)
{
    for (size_t i = 0; f->n > CMP_FAILURES_SHOWN && i < f->n; i++) {
        char *t = cmp_failure_text(&f->v[i]);
        out_note(rep, "the harness reported a failure: %s", t);
        free(t);
    }
    if (compare_rows) {
        char *json = cmp_failures_json(f);
        out_field_json(rep, "failures", json);
        free(json);
    }
    cmp_failures_free(f);
}

/* A decision's rows as a person reads them (a table, records, Markdown):
 * those its outcome does not hold in first (a gate's regressed runs, a
 * rule's failing groups: what --gate fails on), then the rest, each in the
 * query's order, as its page lists them (docs/report.md, "A decision's
 * rows, failing first"). CSV and JSON keep the query's order. *shown
 * borrows ev's values; returns its row order to free (NULL: ev->rows as
 * they are, *shown untouched). */
static void *failing_first(const struct evaluation *ev, enum out_format format, struct rowset *shown)
{
    const struct rowset *rs = &ev->rows;
    int oc = ev->outcome_column;
    if (oc < 0 || ev->holding == rs->nrow || !(format == OUT_TABLE || format == OUT_VERTICAL || format == OUT_MARKDOWN))
        return NULL;
    sqlite3_value **cells = xmalloc((rs->nrow ? rs->nrow : 1) * (size_t)rs->ncol * sizeof *cells);
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t r = 0; r < rs->nrow; r++) {
            sqlite3_value *v = rowset_cell(rs, r, oc);
            int t = sqlite3_value_type(v);
            int holds = (t == SQLITE_INTEGER || t == SQLITE_FLOAT) && sqlite3_value_double(v) != 0; /* as sum_up counts */
            if (holds == pass)
                memcpy(cells + k++ * (size_t)rs->ncol, rs->cells + r * (size_t)rs->ncol, (size_t)rs->ncol * sizeof *cells);
        }
    *shown = *rs;
    shown->cells = cells;
    return cells;
}

/* The rows, verdict and notes of an evaluation that ran (not_recorded:
 * why it is not in the history, or NULL); the gate's exit code
 * (EXIT_FAIL when the output cannot be written). */
static int report_evaluation(const struct cli_query_run *r, struct db *db, const struct evaluation *ev,
                             const char *not_recorded, char **err)
{
    const struct saved_query *q = r->q;
    int gate_rc = EXIT_OK;
    char *nothing = NULL;
    if (r->gate && (gate_rc = evaluation_gate(q, ev, err)) == EXIT_FAIL)
        bd_error("%s", *err);
    /* compare's rows with no cell on both sides: said as `benchdb compare`
     * says it, and with --gate an unmet need (4), as its gate. */
    char *instead = NULL; /* every cell inconclusive: said instead of "no regression" */
    char *counts = NULL; /* compare's envelope member, as `benchdb compare` gives it */
    int k = cli_compare_nothing_compared(&ev->rows, r->given, &nothing, &counts);
    if (k == 2)
        instead = nothing, nothing = NULL;
    if (k == 3) { /* "regressed (5 slower, 15 faster, 16 unchanged)", as compare says it */
        instead = ev->verdict ? bd_strdupf("%s%s", ev->verdict, nothing) : NULL;
        free(nothing);
        nothing = NULL;
    }
    if (k == 1 && r->gate && gate_rc == EXIT_OK)
        gate_rc = EXIT_NO_ROWS;
    struct out_opts out = r->out;
    if (!r->all_columns && q->nshow) {
        out.show = q->show;
        out.nshow = q->nshow;
    }
    struct out_notes rep = {0};
    char *headline = answer_headline(q, ev, &rep);
    /* A gate's or a lookup's answer in words first, then the outcome line
     * as recorded. */
    if (headline && out.format != OUT_MARKDOWN)
        out_note(&rep, "%s", headline);
    struct cmp_failures failures = {0};
    int compare_rows = k > 0; /* the rows are compare's: read once, by cli_compare_nothing_compared */
    if (compare_rows)
        cli_compare_failures_read(db, r->given, &failures);
    struct strbuf clause = {0};
    cmp_failures_clause(&clause, &failures, 0);
    const char *failed = clause.len ? xsb_text(&clause) : NULL;
    describe(r, ev, gate_rc, nothing, instead, not_recorded, failed, &rep);
    out_field_text(&rep, "headline", headline);
    lead_sentence(r, ev, headline, gate_rc, nothing ? nothing : instead, failed, &rep);
    sb_free(&clause);
    compare_failures_after(compare_rows, &failures, &rep);
    if (counts)
        out_field_json(&rep, "counts", counts);
    free(counts);
    free(nothing);
    free(instead);
    /* A decision's answer (describe's first note) before its rows on a
     * terminal and in CSV or JSON; Markdown leads with lead_sentence. */
    if (out.format != OUT_MARKDOWN && (q->outcome || ev->verdict))
        rep.leading = headline ? 2 : 1;
    else if (out.format != OUT_MARKDOWN && headline)
        rep.leading = 1;
    free(headline);
    struct rowset shown = ev->rows;
    void *order = failing_first(ev, out.format, &shown);
    int failed_out = out_notes_print(&rep, &shown, &out, stdout, stderr);
    free(order);
    if (failed_out) {
        cli_output_failed(r->cmd);
        gate_rc = EXIT_FAIL;
    }
    out_notes_free(&rep);
    return gate_rc;
}

int cli_query_run(struct cli *cli, const struct cli_query_run *r)
{
    const struct saved_query *q = r->q;
    const char *cmd = r->cmd;
    char *err = NULL;
    char *see = bd_strdupf("queries %s", q->name);
    char *who = bd_strdupf("%s %s", cmd, q->name);
    double timeout;
    struct rowset_limits lim;
    int rc;
    /* Usage errors before the store is opened or anything runs. */
    struct resolved_params rp = {0};
    rc = evaluation_resolve(q, r->given, &rp, &err);
    resolved_params_free(&rp);
    if (rc == EXIT_OK && r->gate && !q->outcome) {
        rc = cli_usage_error_see(see, "%s: --gate: the query has no '-- outcome: COLUMN' header line", who);
        goto done;
    }
    if (rc != EXIT_OK) {
        cli_usage_error_see(see, "%s: %s", who, err);
        goto done;
    }
    if ((rc = cli_limits_resolve(cmd, &r->limits, &timeout, &lim)) != EXIT_OK)
        goto done;

    struct db *db = NULL;
    struct store_deadline dl = {0};
    struct evaluation ev = {0};
    if (cli_connect_limited(cli, r->record ? STORE_WRITE : STORE_READ, cmd, &r->limits, timeout, &dl, &db)) {
        rc = EXIT_FAIL;
        goto done;
    }
    rc = query_evaluate(db, q, r->given, r->record, &lim, &ev, &err);
    if (rc == EXIT_USAGE)
        cli_usage_error_see(see, "%s: %s", who, err);
    else if (rc == EXIT_NO_ROWS)
        rc = report_unmet(r, err);
    else if (rc == EXIT_OK)
        rc = report_evaluation(r, db, &ev, NULL, &err);
    else if (ev.record_failed) {
        /* It ran: the result stands and is shown, then why it is not in
         * the history, and the exit status says something failed. */
        char *why = err;
        err = NULL;
        report_evaluation(r, db, &ev, why, &err);
        if (ev.record_failed == 2) /* its result: running it again changes nothing */
            bd_error("%s: ran, but %s (--no-record runs it without recording)", who, why);
        else
            bd_error("%s: ran, but %s; run it again to record it (--no-record runs it without recording)", who, why);
        free(why);
        rc = EXIT_FAIL;
    } else if (cli_deadline_passed(db, &dl))
        cli_limit_error(who, &r->limits, timeout, &lim, 0);
    else if (ev.stopped)
        cli_limit_error(who, &r->limits, timeout, &lim, ev.stopped);
    else
        bd_error("%s", err);
    evaluation_free(&ev);
    db_close(db);
done:
    free(see);
    free(who);
    free(err);
    return rc;
}
