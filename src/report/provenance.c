/* Where a report's numbers come from: the rule's registration, the
 * companion evaluation a chart draws, the command that re-verifies it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query/evaluate.h"
#include "report/report.h"
#include "util/diag.h"
#include "util/params.h"
#include "util/sha256.h"

static char *text_col(struct db_stmt *st, int i)
{
    const unsigned char *t = db_column_text(st, i);
    return t ? strdup((const char *)t) : NULL;
}

char *report_registration_text(struct db *db, const struct report_eval *ev)
{
    if (!ev->judged_plan)
        return NULL;
    if (!ev->rule_id)
        return bd_strdupf("no registered rule has this text; 'benchdb rule register %s' fixes a rule before the "
                          "data it judges",
                          ev->query_name);
    struct db_stmt *st;
    char *fixed = NULL, *ref = NULL, *start = NULL;
    if (db_prepare(db, "SELECT coalesce(published_at, registered_at), ref FROM rule WHERE id = ?", &st) ==
        SQLITE_OK) {
        db_bind_int64(st, 1, ev->rule_id);
        if (db_step(st) == SQLITE_ROW) {
            fixed = text_col(st, 0);
            ref = text_col(st, 1);
        }
        db_finalize(st);
    }
    if (db_prepare(db, "SELECT min(r.started_at) FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = ?", &st) ==
        SQLITE_OK) {
        db_bind_text(st, 1, ev->judged_plan, -1);
        if (db_step(st) == SQLITE_ROW)
            start = text_col(st, 0);
        db_finalize(st);
    }
    const char *how = !ev->registration                              ? ""
                      : strcmp(ev->registration, "pre-registered") == 0 ? "fixed before the plan began, and run with its own defaults"
                      : strcmp(ev->registration, "retroactive") == 0
                          ? "applied retroactively: fixed after the plan began, or run with other parameters than its defaults"
                          : "the plan records no start time, so whether the rule came first is unknown";
    char *t = bd_strdupf("the rule was fixed at %s%s%s%s; plan %s began %s: %s", fixed ? fixed : "?", ref ? " (" : "",
                         ref ? ref : "", ref ? ")" : "", ev->judged_plan, start ? start : "at no recorded time", how);
    free(fixed);
    free(ref);
    free(start);
    return t;
}

/* The value of a recorded parameter as --param text. */
static char *param_text(const json_t *v)
{
    return json_is_string(v) ? strdup(json_string_value(v)) : json_exact(v);
}

int report_companion(struct db *db, const struct query_path *qp, const struct report_eval *ev, const char *name,
                     long long *id, int *ran, char **err)
{
    *id = 0;
    *ran = 0;
    char *e2 = NULL;
    int unknown = 0;
    struct saved_query *q = saved_query_find(qp, name, &unknown, &e2);
    if (!q) {
        bd_fail(err, "evaluation %lld (%s): chart from=%s: %s", ev->id, ev->query_name, name, e2);
        free(e2);
        return -1;
    }
    struct params ps = {0};
    int rc = -1;
    for (int i = 0; i < q->nparams; i++) {
        json_t *v = json_object_get(ev->params, q->params[i].name);
        if (!v || json_is_null(v))
            continue; /* its default (null binds NULL only through a default) */
        char *t = param_text(v);
        char *arg = bd_strdupf("%s=%s", q->params[i].name, t);
        params_add(&ps, arg);
        free(arg);
        free(t);
    }
    struct resolved_params rsv = {0};
    int bad = evaluation_resolve(q, &ps, &rsv, &e2);
    resolved_params_free(&rsv);
    if (bad) {
        bd_fail(err, "evaluation %lld (%s): chart from=%s: %s", ev->id, ev->query_name, name, e2);
        goto out;
    }
    char sha[65];
    sha256_hex_of(q->text, strlen(q->text), sha);
    /* A recorded evaluation of the same text with the same parameters on the same data. */
    struct db_stmt *st;
    if (db_prepare(db, "SELECT id, params FROM evaluation WHERE query_sha256 = ? AND data_fingerprint = ? "
                       "ORDER BY id DESC",
                   &st) != SQLITE_OK) {
        bd_fail(err, "cannot read the evaluations: %s", db_errmsg(db));
        goto out;
    }
    db_bind_text(st, 1, sha, -1);
    db_bind_text(st, 2, ev->fingerprint, -1);
    while (!*id && db_step(st) == SQLITE_ROW) {
        json_t *rp = json_loads((const char *)db_column_text(st, 1), 0, NULL);
        int same = rp != NULL;
        for (int i = 0; same && i < q->nparams; i++) {
            json_t *want = json_object_get(ev->params, q->params[i].name), *got = json_object_get(rp, q->params[i].name);
            if (want && !json_is_null(want)) {
                same = got && json_equal(want, got);
            } else {
                /* not given: the recorded value must be the default */
                char *gt = got ? (json_is_string(got) ? strdup(json_string_value(got)) : json_exact(got)) : NULL;
                same = gt && q->params[i].has_default && strcmp(gt, q->params[i].def) == 0;
                free(gt);
            }
        }
        json_decref(rp);
        if (same)
            *id = db_column_int64(st, 0);
    }
    db_finalize(st);
    if (*id) {
        rc = 0;
        goto out;
    }
    char fp[65];
    if (data_fingerprint(db, fp, NULL, &e2)) {
        bd_fail(err, "%s", e2);
        goto out;
    }
    if (strcmp(fp, ev->fingerprint) != 0) {
        bd_fail(err, "evaluation %lld (%s) saw data %.12s, the store now holds %.12s, and no evaluation of %s with its "
                     "parameters on that data is recorded: its chart cannot be drawn from the same data",
                ev->id, ev->query_name, ev->fingerprint, fp, name);
        goto out;
    }
    struct evaluation cev;
    int qrc = query_evaluate(db, q, &ps, 1, NULL, &cev, &e2);
    if (qrc != EXIT_OK) {
        bd_fail(err, "chart from=%s: %s", name, e2);
        evaluation_free(&cev);
        goto out;
    }
    *id = cev.id;
    *ran = 1;
    evaluation_free(&cev);
    rc = 0;
out:
    free(e2);
    params_free(&ps);
    saved_query_free(q);
    return rc;
}
