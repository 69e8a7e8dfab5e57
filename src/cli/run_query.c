/* Running a saved query from the command line and reporting it (cli.h):
 * the path of `benchdb query`, for every command built on it. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/evaluate.h"
#include "query/saved.h"

/* The notes and envelope fields of an evaluation. */
static void describe(const struct cli_query_run *r, const struct evaluation *ev, int gate_rc, struct report *rep)
{
    const struct saved_query *q = r->q;
    report_field_text(rep, "query", q->name);
    report_field_json(rep, "params", ev->params_json);
    /* The verdict in words, once; else what the rows say. */
    report_note(rep, "%s%s", ev->verdict ? "" : "result: ", ev->outcome);
    report_field_text(rep, "verdict", ev->verdict);
    report_field_text(rep, "outcome", ev->outcome);
    if (ev->outcome_column >= 0 && ev->rows.nrow && !ev->outcome_text)
        report_field_bool(rep, "holds", ev->holding == ev->rows.nrow);
    else
        report_field_json(rep, "holds", NULL);
    if (ev->registration_note)
        report_note(rep, "%s", ev->registration_note);
    report_field_text(rep, "registration", ev->registration);
    if (ev->id) {
        report_note(rep, "recorded as evaluation %lld (see 'benchdb history %s')", ev->id, q->name);
        report_field_int(rep, "evaluation", ev->id);
    } else
        report_field_json(rep, "evaluation", NULL);
    if (r->gate) {
        static const char *const what[] = {
            [EXIT_OK] = "holds in every row", [EXIT_NOT_HELD] = "does not hold in every row",
            [EXIT_NO_ROWS] = "has no rows to hold in"};
        if (gate_rc == EXIT_OK || gate_rc == EXIT_NOT_HELD || gate_rc == EXIT_NO_ROWS)
            report_note(rep, "gate: %s %s (exit %d)", q->outcome, what[gate_rc], gate_rc);
        report_field_int(rep, "exit", gate_rc);
    }
}

/* Needs unmet: the reason, and nothing else. */
static int report_unmet(const struct cli_query_run *r, const char *why)
{
    struct report rep = {0};
    report_note(&rep, "%s", why);
    report_field_text(&rep, "query", r->q->name);
    report_field_text(&rep, "unmet", why);
    report_field_int(&rep, "exit", EXIT_NO_ROWS);
    struct rowset none = {0};
    int rc = report_print(&rep, r->out.envelope ? &none : NULL, &r->out, stdout, stderr);
    report_free(&rep);
    return rc ? EXIT_FAIL : EXIT_NO_ROWS;
}

int cli_query_run(struct cli *cli, const struct cli_query_run *r)
{
    const struct saved_query *q = r->q;
    const char *cmd = r->cmd;
    char *err = NULL;
    char *see = bd_strdupf("queries %s", q->name);
    int rc;
    /* Usage errors before the store is opened or anything runs. */
    struct resolved_params rp = {0};
    rc = evaluation_resolve(q, r->given, &rp, &err);
    resolved_params_free(&rp);
    if (rc == EXIT_OK && r->gate && !q->outcome) {
        rc = cli_usage_error_see(see, "%s %s: --gate: the query has no '-- outcome: COLUMN' header line", cmd, q->name);
        goto done;
    }
    if (rc != EXIT_OK) {
        cli_usage_error_see(see, "%s %s: %s", cmd, q->name, err);
        goto done;
    }

    sqlite3 *db = NULL;
    struct store_deadline dl = {0};
    struct evaluation ev = {0};
    if (cli_open_store(cli, r->record ? STORE_WRITE : STORE_READ, &db)) {
        rc = EXIT_FAIL;
        goto done;
    }
    if (r->timeout > 0)
        store_set_timeout(db, &dl, r->timeout);
    rc = query_evaluate(db, q, r->given, r->record, &ev, &err);
    if (rc == EXIT_USAGE)
        cli_usage_error_see(see, "%s %s: %s", cmd, q->name, err);
    else if (rc == EXIT_NO_ROWS)
        rc = report_unmet(r, err);
    else if (rc != EXIT_OK && dl.fired)
        bd_error("%s %s: stopped after %g s (--timeout)", cmd, q->name, dl.seconds);
    else if (rc != EXIT_OK)
        bd_error("%s", err);
    if (rc == EXIT_OK) {
        int gate_rc = EXIT_OK;
        if (r->gate && (gate_rc = evaluation_gate(q, &ev, &err)) == EXIT_FAIL)
            bd_error("%s", err);
        struct out_opts out = r->out;
        if (!r->all_columns && q->nshow) {
            out.show = q->show;
            out.nshow = q->nshow;
        }
        struct report rep = {0};
        describe(r, &ev, gate_rc, &rep);
        if (report_print(&rep, &ev.rows, &out, stdout, stderr)) {
            bd_error("%s: cannot write the output", cmd);
            gate_rc = EXIT_FAIL;
        }
        report_free(&rep);
        rc = gate_rc;
    }
    evaluation_free(&ev);
    store_close(db);
done:
    free(see);
    free(err);
    return rc;
}
