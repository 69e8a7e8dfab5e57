/* Evaluating a saved query: bind, run read-only, sum up, judge whether the
 * rule was fixed before the plan, record in the verdict history. */
#include "query/evaluate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store.h"
#include "util/diag.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "version.h"

int evaluation_check_params(const struct saved_query *q, const struct params *given, char **err)
{
    for (int i = 0; i < given->n; i++) {
        const struct saved_param *sp = saved_query_param(q, given->v[i].name);
        if (!sp)
            return bd_fail(err, "query %s has no parameter '%s'", q->name, given->v[i].name);
        int ok = sp->nchoices == 0;
        for (int k = 0; k < sp->nchoices; k++)
            ok |= strcmp(sp->choices[k], given->v[i].value) == 0;
        if (!ok) {
            struct strbuf sb = {0};
            for (int k = 0; k < sp->nchoices; k++)
                sb_printf(&sb, "%s%s", k ? ", " : "", sp->choices[k]);
            bd_fail(err, "query %s: --param %s=%s: expected one of %s", q->name, sp->name, given->v[i].value, sb.buf);
            sb_free(&sb);
            return -1;
        }
    }
    for (int i = 0; i < q->nparams; i++)
        if (!q->params[i].has_default && !params_get(given, q->params[i].name))
            return bd_fail(err, "query %s needs the parameter '%s' (--param %s=VALUE)", q->name, q->params[i].name,
                           q->params[i].name);
    return 0;
}

static const char *effective(const struct saved_query *q, const struct params *given, int i, int *is_null)
{
    const char *v = params_get(given, q->params[i].name);
    *is_null = 0;
    if (v)
        return v;
    if (q->params[i].def && strcmp(q->params[i].def, "null") == 0) {
        *is_null = 1;
        return NULL;
    }
    return q->params[i].def;
}

int data_fingerprint(sqlite3 *db, char out[65], long long *count)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT sha256 FROM archive ORDER BY sha256", -1, &st, NULL) != SQLITE_OK)
        return -1;
    struct sha256 h;
    sha256_init(&h);
    long long n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        sha256_update(&h, sqlite3_column_text(st, 0), (size_t)sqlite3_column_bytes(st, 0));
        sha256_update(&h, "\n", 1);
        n++;
    }
    sqlite3_finalize(st);
    unsigned char d[32];
    sha256_final(&h, d);
    sha256_hex(d, out);
    if (count)
        *count = n;
    return 0;
}

/* Whether a registered rule with this text was fixed before the judged
 * plan's earliest run started. */
static void judge_registration(sqlite3 *db, const struct saved_query *q, const char *sha, const char *plan,
                               int defaults_only, const char *changed, struct evaluation *ev, long long *rule_id)
{
    sqlite3_stmt *st;
    *rule_id = 0;
    if (sqlite3_prepare_v2(db, "SELECT id, coalesce(published_at, registered_at), ref FROM rule WHERE sha256 = ?", -1,
                           &st, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
    char fixed[64] = "", ref[256] = "";
    if (sqlite3_step(st) == SQLITE_ROW) {
        *rule_id = sqlite3_column_int64(st, 0);
        snprintf(fixed, sizeof fixed, "%s", (const char *)sqlite3_column_text(st, 1));
        if (sqlite3_column_type(st, 2) != SQLITE_NULL)
            snprintf(ref, sizeof ref, " (%s)", (const char *)sqlite3_column_text(st, 2));
    }
    sqlite3_finalize(st);
    if (!*rule_id) {
        ev->registration = strdup("unregistered");
        ev->registration_note = bd_strdupf("rule %s (sha256 %.12s) is not registered: 'benchdb rule register' fixes a rule before its data",
                                           q->name, sha);
        return;
    }
    char start[64] = "";
    if (sqlite3_prepare_v2(db, "SELECT min(r.started_at) FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = ?",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, plan, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
            snprintf(start, sizeof start, "%s", (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    /* RFC 3339 times in UTC compare as text once normalised by julianday. */
    int before = 0, known = *start != 0;
    if (known && sqlite3_prepare_v2(db, "SELECT julianday(?) < julianday(?)", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, fixed, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, start, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW)
            before = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    if (!known) {
        ev->registration = strdup("registered");
        ev->registration_note = bd_strdupf("rule %s (sha256 %.12s) was fixed at %s%s; plan %s records no start time, so "
                                           "whether that preceded it is unknown",
                                           q->name, sha, fixed, ref, plan);
    } else if (!before) {
        ev->registration = strdup("retroactive");
        ev->registration_note = bd_strdupf("rule %s (sha256 %.12s) was fixed at %s%s, after plan %s began (%s): applied "
                                           "retroactively",
                                           q->name, sha, fixed, ref, plan, start);
    } else if (!defaults_only) {
        ev->registration = strdup("retroactive");
        ev->registration_note = bd_strdupf("rule %s (sha256 %.12s) was fixed at %s%s, before plan %s began (%s), but with "
                                           "other parameters (%s): applied retroactively",
                                           q->name, sha, fixed, ref, plan, start, changed);
    } else {
        ev->registration = strdup("pre-registered");
        ev->registration_note = bd_strdupf("rule %s (sha256 %.12s) was fixed at %s%s, before plan %s began (%s): "
                                           "pre-registered",
                                           q->name, sha, fixed, ref, plan, start);
    }
}

/* The guard refused the query, when prepared or (a pragma_*() function) as
 * it ran. */
static int refused(sqlite3 *db, const struct saved_query *q, char **err)
{
    return bd_fail(err, "query %s (%s): is not read-only; a saved query may only read the store (%s)", q->name,
                   q->source, store_guard_refusal() ? store_guard_refusal() : sqlite3_errmsg(db));
}

int evaluation_run(sqlite3 *db, const struct saved_query *q, const struct params *given, int record,
                   struct evaluation *ev, char **err)
{
    memset(ev, 0, sizeof *ev);
    if (evaluation_check_params(q, given, err))
        return -1;
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    /* A saved query may come from anywhere: prepare it under the guard. */
    store_guard_readonly(db, 1);
    int prc = sqlite3_prepare_v2(db, q->sql, -1, &st, &tail);
    if (prc != SQLITE_OK) {
        store_guard_readonly(db, 0);
        if ((sqlite3_errcode(db) & 0xff) == SQLITE_AUTH)
            return refused(db, q, err);
        return bd_fail(err, "query %s (%s): %s", q->name, q->source, sqlite3_errmsg(db));
    }
    if (!st) {
        store_guard_readonly(db, 0);
        return bd_fail(err, "query %s (%s): holds no SQL statement", q->name, q->source);
    }
    if (!sql_is_blank(tail)) {
        sqlite3_finalize(st);
        store_guard_readonly(db, 0);
        return bd_fail(err, "query %s (%s): holds more than one statement; a saved query is one statement", q->name,
                       q->source);
    }
    if (!sqlite3_stmt_readonly(st)) {
        sqlite3_finalize(st);
        store_guard_readonly(db, 0);
        return bd_fail(err, "query %s (%s): is not read-only; a saved query may only read the store", q->name,
                       q->source);
    }

    /* Effective parameters, bound by name; recorded as JSON. */
    struct strbuf pj = {0};
    sb_putc(&pj, '{');
    int defaults_only = 1;
    struct strbuf changed = {0};
    const char *plan = NULL;
    for (int i = 0; i < q->nparams; i++) {
        int is_null;
        const char *v = effective(q, given, i, &is_null);
        if (i)
            sb_puts(&pj, ", ");
        json_put_string(&pj, q->params[i].name, strlen(q->params[i].name));
        sb_puts(&pj, ": ");
        if (q->judges && strcmp(q->judges, q->params[i].name) == 0)
            plan = v;
        else if (params_get(given, q->params[i].name) &&
                 (!q->params[i].has_default || strcmp(v, q->params[i].def) != 0)) {
            defaults_only = 0;
            sb_printf(&changed, "%s%s=%s", changed.len ? ", " : "", q->params[i].name, v);
        }
        /* Record each value as it binds: a number as a number, else text. */
        sqlite3_stmt *tmp;
        if (is_null) {
            sb_puts(&pj, "null");
        } else if (sqlite3_prepare_v2(db, "SELECT ?", -1, &tmp, NULL) == SQLITE_OK) {
            bind_param_value(tmp, 1, v);
            sqlite3_step(tmp);
            json_put_value(&pj, sqlite3_column_value(tmp, 0));
            sqlite3_finalize(tmp);
        }
    }
    sb_putc(&pj, '}');
    ev->params_json = sb_detach(&pj);

    for (int i = 1; i <= sqlite3_bind_parameter_count(st); i++) {
        const char *name = sqlite3_bind_parameter_name(st, i);
        if (!name) {
            sqlite3_finalize(st);
            store_guard_readonly(db, 0);
            sb_free(&changed);
            return bd_fail(err, "query %s (%s): uses a positional parameter '?'; use named parameters (:name)",
                           q->name, q->source);
        }
        int k;
        for (k = 0; k < q->nparams; k++)
            if (strcmp(q->params[k].name, name + 1) == 0)
                break;
        if (k == q->nparams) {
            /* name belongs to the statement: report before finalizing. */
            bd_fail(err, "query %s (%s): uses %s, which its header does not declare (-- param: %s ...)", q->name,
                    q->source, name, name + 1);
            sqlite3_finalize(st);
            store_guard_readonly(db, 0);
            sb_free(&changed);
            return -1;
        }
        int is_null;
        const char *v = effective(q, given, k, &is_null);
        if (is_null)
            sqlite3_bind_null(st, i);
        else
            bind_param_value(st, i, v);
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = rowset_collect(&ev->rows, st);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    sqlite3_finalize(st);
    store_guard_readonly(db, 0);
    ev->ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (rc != SQLITE_DONE) {
        sb_free(&changed);
        /* A table-valued pragma_*() meets the guard as it runs. */
        if ((sqlite3_errcode(db) & 0xff) == SQLITE_AUTH)
            return refused(db, q, err);
        if ((sqlite3_errcode(db) & 0xff) == SQLITE_CORRUPT)
            return bd_fail(err, "query %s: the store is damaged (%s): " STORE_DAMAGED_ADVICE, q->name,
                           sqlite3_errmsg(db));
        /* Bad JSON stored around the schema's CHECKs: check names the row. */
        int json = strcmp(sqlite3_errmsg(db), "malformed JSON") == 0;
        return bd_fail(err, "query %s: %s%s", q->name, sqlite3_errmsg(db),
                       json ? " (a value in the store is not valid JSON: 'benchdb check' names its row)" : "");
    }

    /* The one-line outcome. */
    int oc = -1;
    for (int c = 0; q->outcome && c < ev->rows.ncol; c++)
        if (strcmp(ev->rows.names[c], q->outcome) == 0)
            oc = c;
    if (oc >= 0 && ev->rows.nrow > 0)
        ev->outcome = value_text(rowset_cell(&ev->rows, 0, oc));
    else
        ev->outcome = bd_strdupf("%zu row%s", ev->rows.nrow, ev->rows.nrow == 1 ? "" : "s");

    char sha[65];
    sha256_hex_of(q->text, strlen(q->text), sha);
    long long rule_id = 0;
    if (q->judges && plan)
        judge_registration(db, q, sha, plan, defaults_only, changed.buf ? changed.buf : "", ev, &rule_id);
    sb_free(&changed);

    if (!record)
        return 0;
    char fp[65], when[TIME_TEXT_MAX];
    long long narch = 0;
    if (data_fingerprint(db, fp, &narch))
        return bd_fail(err, "cannot compute the data fingerprint: %s", sqlite3_errmsg(db));
    time_now_rfc3339(when, 1);
    /* The record must commit on its own (then SQLITE_DONE from its step
     * means committed): inside a transaction something left open, it would
     * be rolled back at close after being reported. */
    if (!sqlite3_get_autocommit(db))
        return bd_fail(err, "cannot record the evaluation: a transaction is open on the store; nothing was recorded");
    struct strbuf rows = {0};
    rowset_json(&ev->rows, &rows);
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO evaluation(query_name, query_sha256, query_text, params, rows, row_count, "
                           "outcome, evaluated_at, duration_ms, tool_version, data_fingerprint, archive_count, "
                           "judged_plan, registration, rule_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK) {
        sb_free(&rows);
        return bd_fail(err, "cannot record the evaluation: %s", sqlite3_errmsg(db));
    }
    sqlite3_bind_text(st, 1, q->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, sha, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, q->text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, ev->params_json, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, rows.buf, (int)rows.len, SQLITE_STATIC);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)ev->rows.nrow);
    sqlite3_bind_text(st, 7, ev->outcome, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, when, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 9, ev->ms);
    sqlite3_bind_text(st, 10, BENCHDB_VERSION, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 11, fp, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 12, narch);
    if (plan)
        sqlite3_bind_text(st, 13, plan, -1, SQLITE_STATIC);
    if (ev->registration)
        sqlite3_bind_text(st, 14, ev->registration, -1, SQLITE_STATIC);
    if (rule_id)
        sqlite3_bind_int64(st, 15, rule_id);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    sb_free(&rows);
    if (rc != SQLITE_DONE)
        return bd_fail(err, "cannot record the evaluation: %s", sqlite3_errmsg(db));
    ev->id = sqlite3_last_insert_rowid(db);
    return 0;
}

void evaluation_free(struct evaluation *ev)
{
    rowset_free(&ev->rows);
    free(ev->params_json);
    free(ev->outcome);
    free(ev->registration);
    free(ev->registration_note);
    memset(ev, 0, sizeof *ev);
}
