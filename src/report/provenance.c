/* Where a report's numbers come from: the rule's registration, the
 * companion evaluation a chart draws, the command that re-verifies it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query/evaluate.h"
#include "report/display.h"
#include "report/report.h"
#include "util/diag.h"
#include "util/params.h"
#include "util/sha256.h"
#include "util/xalloc.h"

static char *text_col(struct db_stmt *st, int i)
{
    const unsigned char *t = db_column_text(st, i);
    return t ? xstrdup((const char *)t) : NULL;
}

/* Why a retroactive evaluation is one, when its record says which: the
 * rule fixed after the plan began (fixed and start instants), else run
 * with other parameters than its defaults, named (q: its recorded text's
 * query; the judged plan's parameter aside); malloc'd. */
static char *retroactive_why(const struct report_eval *ev, const struct saved_query *q, const char *fixed,
                             const char *start)
{
    double f, b;
    int known = fixed && start && display_time_parse(fixed, &f) && display_time_parse(start, &b);
    if (known && f >= b)
        return xstrdup("applied retroactively: fixed after the plan began");
    char *given = q ? report_params_given(ev, q, q->judges) : NULL;
    char *t = known && given ? bd_strdupf("applied retroactively: fixed before the plan began, but run with other "
                                          "parameters than its defaults (%s)", given)
                             : xstrdup("applied retroactively: fixed after the plan began, or run with other "
                                       "parameters than its defaults");
    free(given);
    return t;
}

char *report_registration_text(struct db *db, const struct report_eval *ev, const struct saved_query *q)
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
    int retro = ev->registration && strcmp(ev->registration, "retroactive") == 0;
    char *why = retro ? retroactive_why(ev, q, fixed, start) : NULL;
    const char *how = !ev->registration                              ? ""
                      : strcmp(ev->registration, "pre-registered") == 0 ? "fixed before the plan began, and run with its own defaults"
                      : retro ? why
                              : "the plan records no start time, so whether the rule came first is unknown";
    /* Without a start time, said once: "plan p began at no recorded time:
     * the plan records no start time" said it twice. */
    int unknown = !start && !retro && *how;
    char *t = bd_strdupf("the rule was fixed at %s%s%s%s; plan %s %s%s%s%s", fixed ? fixed : "?", ref ? " (" : "",
                         ref ? ref : "", ref ? ")" : "", ev->judged_plan, start ? "began " : "records no start time",
                         start ? start : "", unknown ? ", so whether the rule came first is unknown" : *how ? ": " : "",
                         unknown ? "" : how);
    free(why);
    free(fixed);
    free(ref);
    free(start);
    return t;
}

/* A word as the shell reads it back: bare when safe, else single-quoted. */
static void shell_word(struct strbuf *sb, const char *s)
{
    int safe = *s != 0;
    for (const char *p = s; *p; p++)
        safe &= (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                strchr("_./:=,+-@%", *p) != NULL;
    if (safe) {
        sb_puts(sb, s);
        return;
    }
    sb_putc(sb, '\'');
    for (const char *p = s; *p; p++)
        sb_puts(sb, *p == '\'' ? "'\\''" : (char[2]){*p, 0});
    sb_putc(sb, '\'');
}

/* benchdb query NAME with the parameters that differ from the defaults,
 * then history --diff; or how to recover the recorded text when the saved
 * query of that name now reads otherwise. */
char *report_verify_text(const struct report_eval *ev, const struct saved_query *now, const struct query_path *qp)
{
    struct strbuf sb = {0};
    char sha[65] = "";
    if (now)
        sha256_hex_of(now->text, strlen(now->text), sha);
    if (now && strcmp(sha, ev->sha256) == 0) {
        sb_puts(&sb, "benchdb query ");
        shell_word(&sb, ev->query_name);
        if (!now->builtin)
            for (int i = 0; i < qp->n; i++) {
                sb_puts(&sb, " --queries ");
                shell_word(&sb, qp->entries[i]);
            }
    } else {
        sb_printf(&sb, "benchdb sql \"SELECT query_text FROM evaluation WHERE id = %lld\" --format csv  "
                       "# the recorded text, saved as rule.sql\nbenchdb query rule.sql",
                  ev->id);
    }
    const char *k;
    json_t *v;
    json_object_foreach(ev->params, k, v) {
        const struct saved_param *sp = now ? saved_query_param(now, k) : NULL;
        /* a real parameter's 25.0 as people write it: its type binds 25 as 25.0 again */
        char *t = sp && sp->type.type == PARAM_REAL ? evaldata_param(v)
                  : json_is_string(v)               ? xstrdup(json_string_value(v))
                                                    : evaldata_exact(v);
        double x, y;
        char *end = NULL;
        /* a number recorded as 0.0 is the default written 0 */
        int same_number = sp && sp->has_default && !json_is_string(v) && evaldata_num(v, &x) &&
                          (y = strtod(sp->def, &end), end != sp->def && !*end && x == y);
        if (!t || !sp || !sp->has_default || (strcmp(sp->def, t) != 0 && !same_number)) {
            struct strbuf a = {0};
            sb_printf(&a, "%s=%s", k, t);
            sb_puts(&sb, " --param ");
            shell_word(&sb, xsb_text(&a));
            sb_free(&a);
        }
        free(t);
    }
    sb_printf(&sb, "\nbenchdb history --diff %lld NEW_ID   # NEW_ID: the evaluation the query records; same text, "
                   "parameters and data fingerprint give the same rows",
              ev->id);
    return xsb_detach(&sb);
}

/* The value of a recorded parameter as --param text. */
static char *param_text(const json_t *v)
{
    return json_is_string(v) ? xstrdup(json_string_value(v)) : evaldata_exact(v);
}

/* The value a companion's parameter `name` takes: from `with` (the chart's
 * with=NAME=VALUE,... overrides, as text), else ev's recorded one (a new
 * reference; NULL: its default). */
static json_t *companion_value(const struct report_eval *ev, const char *with, const char *name)
{
    size_t nl = strlen(name);
    for (const char *p = with; p && *p;) {
        size_t n = strcspn(p, ",");
        if (n > nl && strncmp(p, name, nl) == 0 && p[nl] == '=')
            return json_stringn(p + nl + 1, n - nl - 1);
        p += n + (p[n] == ',');
    }
    json_t *v = json_object_get(ev->params, name);
    return v && !json_is_null(v) ? json_incref(v) : NULL;
}

/* The companion query and the parameters it takes from ev (and with),
 * resolved; *want: those parameters as an object (NULL: its default).
 * Returns the query (*ps filled), or NULL with *err set. */
static struct saved_query *companion_params(const struct query_path *qp, const struct report_eval *ev, const char *name,
                                            const char *with, struct params *ps, json_t **want, char **err)
{
    char *e2 = NULL, *who = ev->id ? bd_strdupf("evaluation %lld (%s)", ev->id, ev->query_name)
                                   : bd_strdupf("query %s", ev->query_name);
    int unknown = 0, oom = !who || !(*want = json_object());
    struct saved_query *q = oom ? NULL : saved_query_find(qp, name, &unknown, &e2);
    if (!q) {
        if (oom)
            bd_fail(err, "out of memory");
        else
            bd_fail(err, "%s: chart from=%s: %s", who, name, e2);
        free(e2);
        free(who);
        return NULL;
    }
    for (int i = 0; i < q->nparams && !oom; i++) {
        json_t *v = companion_value(ev, with, q->params[i].name);
        if (!v)
            continue; /* its default (null binds NULL only through a default) */
        char *t = param_text(v);
        if (t && q->params[i].has_default && strcmp(q->params[i].def, t) == 0) {
            /* its default: bound as such, and not looked up in the store
             * (metric=primary on a store without values is no error) */
            free(t);
            json_decref(v);
            continue;
        }
        char *arg = t ? bd_strdupf("%s=%s", q->params[i].name, t) : NULL;
        oom = !arg || params_add(ps, arg) || json_object_set(*want, q->params[i].name, v);
        free(arg);
        free(t);
        json_decref(v);
    }
    struct resolved_params rsv = {0};
    int bad = oom ? -1 : evaluation_resolve(q, ps, &rsv, &e2);
    resolved_params_free(&rsv);
    if (bad) {
        if (oom)
            bd_fail(err, "out of memory");
        else
            bd_fail(err, "%s: chart from=%s: %s", who, name, e2);
        saved_query_free(q);
        params_free(ps);
        q = NULL;
    }
    free(e2);
    free(who);
    return q;
}

int report_companion_check(const struct query_path *qp, const struct report_eval *ev, const char *name,
                           const char *with, char **err)
{
    struct params ps = {0};
    json_t *want = NULL;
    struct saved_query *q = companion_params(qp, ev, name, with, &ps, &want, err);
    saved_query_free(q);
    params_free(&ps);
    json_decref(want);
    return q ? 0 : -1;
}

/* The latest evaluation of q (by_name: of any text of q's name, another
 * than sha; else of sha, q's text now) recorded on ev's data with the
 * parameters want: 0 with *id (0: none), or -1 with *err. */
static int find_recorded(struct db *db, const struct saved_query *q, const json_t *want, const struct report_eval *ev,
                         const char *sha, int by_name, long long *id, char **err)
{
    struct db_stmt *st;
    *id = 0;
    if (db_prepare(db,
                   by_name ? "SELECT id, params FROM evaluation WHERE query_name = ? AND query_sha256 <> ? "
                             "AND data_fingerprint = ? ORDER BY id DESC"
                           : "SELECT id, params FROM evaluation WHERE query_sha256 = ? AND data_fingerprint = ? "
                             "ORDER BY id DESC",
                   &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the evaluations: %s", db_errmsg(db));
    int k = 1;
    if (by_name)
        db_bind_text(st, k++, q->name, -1);
    db_bind_text(st, k++, sha, -1);
    db_bind_text(st, k, ev->fingerprint, -1);
    while (!*id && db_step(st) == SQLITE_ROW) {
        json_t *rp = json_loads((const char *)db_column_text(st, 1), 0, NULL);
        int same = rp != NULL;
        for (int i = 0; same && i < q->nparams; i++) {
            json_t *w = json_object_get(want, q->params[i].name), *got = json_object_get(rp, q->params[i].name);
            if (w && json_is_string(w) && got && !json_is_string(got)) {
                /* a with= value is text: the recorded one as text */
                char *gt = evaldata_exact(got);
                same = gt && strcmp(gt, json_string_value(w)) == 0;
                free(gt);
            } else if (w) {
                same = got && json_equal(w, got);
            } else {
                /* not given: the recorded value must be the default */
                char *gt = got ? (json_is_string(got) ? xstrdup(json_string_value(got)) : evaldata_exact(got)) : NULL;
                same = gt && q->params[i].has_default && strcmp(gt, q->params[i].def) == 0;
                free(gt);
            }
        }
        json_decref(rp);
        if (same)
            *id = db_column_int64(st, 0);
    }
    db_finalize(st);
    return 0;
}

int report_companion(struct db *db, const struct query_path *qp, const struct report_eval *ev, const char *name,
                     const struct chart_spec *spec, int may_run, struct report_companion_run *c, char **err)
{
    memset(c, 0, sizeof *c);
    char *e2 = NULL;
    struct params ps = {0};
    int rc = -1;
    json_t *want = NULL;
    struct saved_query *q = companion_params(qp, ev, name, spec->with, &ps, &want, err);
    if (!q) {
        json_decref(want);
        return -1;
    }
    char sha[65], fp[65];
    sha256_hex_of(q->text, strlen(q->text), sha);
    /* A recorded evaluation of the same text with the same parameters on the same data. */
    if (find_recorded(db, q, want, ev, sha, 0, &c->id, err))
        goto out;
    if (c->id) {
        rc = 0;
        goto out;
    }
    /* Else, when it cannot be run now on ev's data (a site draws what is
     * recorded; the store holds other data now), one recorded on that
     * data by an earlier text of the query (benchdb since upgraded, or the
     * file edited): what ev's page was drawn from. */
    int same_data = 0;
    if (may_run) {
        if (data_fingerprint(db, fp, NULL, &e2)) {
            bd_fail(err, "%s", e2);
            goto out;
        }
        same_data = strcmp(fp, ev->fingerprint) == 0;
    }
    if (!same_data) {
        if (find_recorded(db, q, want, ev, sha, 1, &c->id, err))
            goto out;
        if (c->id) {
            rc = 0;
            goto out;
        }
    }
    /* What the chart draws: the companion with the evaluation's
     * parameters, and with= in front ("gate-zscore with scope=every"). */
    char drawn[512];
    snprintf(drawn, sizeof drawn, "%s with %s%sthe evaluation's parameters", name, spec->with ? spec->with : "",
             spec->with ? " and " : "");
    if (!may_run) {
        bd_fail(err, "evaluation %lld (%s): its chart draws %s, and no such evaluation on the data it saw is recorded "
                     "('benchdb report --evaluation %lld' runs and records it)",
                ev->id, ev->query_name, drawn, ev->id);
        goto out;
    }
    if (!same_data) {
        bd_fail(err, "evaluation %lld (%s) saw data %.12s, the store now holds %.12s, and no evaluation of %s on that "
                     "data is recorded: its chart cannot be drawn from the same data",
                ev->id, ev->query_name, ev->fingerprint, fp, drawn);
        goto out;
    }
    /* Run now, and checked that the chart can be drawn from its rows
     * before anything is recorded (report_companion_record). */
    int qrc = query_evaluate(db, q, &ps, EVAL_RECORD_LATER, NULL, &c->ev, &e2);
    struct strbuf rows = {0};
    struct report_eval mem = {0};
    struct chart_spec own = *spec;
    own.from = NULL;
    if (qrc != EXIT_OK)
        bd_fail(err, "chart from=%s: %s", name, e2);
    else if (rowset_json(&c->ev.rows, &rows, 0))
        bd_fail(err, "out of memory");
    else if (report_eval_unrecorded(&mem, q->name, c->ev.params_json, rows.buf, err) == 0 &&
             report_check_chart(&own, &mem, ev, err) == 0) {
        c->q = q;
        q = NULL;
        rc = 0;
    }
    sb_free(&rows);
    report_eval_free(&mem);
    if (rc)
        evaluation_free(&c->ev);
out:
    free(e2);
    params_free(&ps);
    saved_query_free(q);
    json_decref(want);
    return rc;
}

int report_companion_record(struct db *db, struct report_companion_run *c, char **err)
{
    if (c->id || !c->q)
        return 0;
    char *e2 = NULL;
    if (evaluation_record(db, c->q, &c->ev, &e2)) {
        bd_fail(err, "chart from=%s: %s", c->q->name, e2);
        free(e2);
        return -1;
    }
    c->id = c->ev.id;
    c->ran = 1;
    return 0;
}

void report_companion_free(struct report_companion_run *c)
{
    evaluation_free(&c->ev);
    saved_query_free(c->q);
    memset(c, 0, sizeof *c);
}
