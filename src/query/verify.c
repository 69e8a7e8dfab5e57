/* history --verify: recorded evaluations run again and compared with
 * their records (query/verify.h). */
#include "query/verify.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "query/backtest.h"
#include "query/evaluate.h"
#include "query/history.h"
#include "query/rules.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "version.h"
#include "util/xalloc.h"

/* Differences described per comparison, at most this many rows each. */
enum { ROWS_SHOWN = 3 };

struct record {
    long long id, archives, row_count, rule_id;
    char *name, *sha, *text, *params, *rows, *fingerprint, *version, *schema, *when;
    char *outcome, *judged_plan, *registration; /* the last two may be NULL */
};

static void record_free(struct record *r)
{
    free(r->name);
    free(r->sha);
    free(r->text);
    free(r->params);
    free(r->rows);
    free(r->fingerprint);
    free(r->version);
    free(r->schema);
    free(r->when);
    free(r->outcome);
    free(r->judged_plan);
    free(r->registration);
    memset(r, 0, sizeof *r);
}

static char *col(struct db_stmt *st, int c)
{
    const char *t = (const char *)db_column_text(st, c);
    return t ? xstrdup(t) : NULL;
}

/* 1 loaded, 0 no such evaluation, -1 error. */
static int load(struct db *db, long long id, struct record *r, char **err)
{
    struct db_stmt *st;
    memset(r, 0, sizeof *r);
    if (db_prepare(db, "SELECT query_name, query_sha256, query_text, params, rows, data_fingerprint, "
                       "archive_count, tool_version, schema_sha256, evaluated_at, outcome, row_count, judged_plan, "
                       "registration, coalesce(rule_id, 0) FROM evaluation WHERE id = ?",
                   &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the history: %s", db_errmsg(db));
    db_bind_int64(st, 1, id);
    int rc = db_step(st);
    if (rc == SQLITE_ROW) {
        r->id = id;
        r->name = col(st, 0);
        r->sha = col(st, 1);
        r->text = col(st, 2);
        r->params = col(st, 3);
        r->rows = col(st, 4);
        r->fingerprint = col(st, 5);
        r->archives = db_column_int64(st, 6);
        r->version = col(st, 7);
        r->schema = col(st, 8);
        r->when = col(st, 9);
        r->outcome = col(st, 10);
        r->row_count = db_column_int64(st, 11);
        r->judged_plan = col(st, 12);
        r->registration = col(st, 13);
        r->rule_id = db_column_int64(st, 14);
    } else if (rc != SQLITE_DONE)
        bd_fail(err, "cannot read the history: %s", db_errmsg(db));
    db_finalize(st);
    if (rc == SQLITE_ROW && (!r->name || !r->sha || !r->text || !r->params || !r->rows || !r->fingerprint ||
                             !r->version || !r->when || !r->outcome)) {
        record_free(r);
        return bd_fail(err, "evaluation %lld: out of memory", id);
    }
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* The recorded values as bound (numbers as numbers, text as text, null
 * as NULL); texts point into params. */
static int recorded_values(const struct saved_query *q, json_t *params, struct resolved_params *rp, char **err)
{
    rp->n = q->nparams;
    rp->v = xcalloc((size_t)q->nparams + 1, sizeof *rp->v);
    if (!rp->v)
        return bd_fail(err, "out of memory");
    for (int i = 0; i < q->nparams; i++) {
        json_t *v = json_object_get(params, q->params[i].name);
        struct param_value *out = &rp->v[i];
        if (!v)
            return bd_fail(err, "its record has no value for the parameter %s", q->params[i].name);
        switch (json_typeof(v)) {
        case JSON_NULL: param_value_null(out); break;
        case JSON_INTEGER: out->sqlite_type = SQLITE_INTEGER; out->i = (long long)json_integer_value(v); break;
        case JSON_REAL: out->sqlite_type = SQLITE_FLOAT; out->d = json_real_value(v); break;
        case JSON_TRUE: case JSON_FALSE: out->sqlite_type = SQLITE_INTEGER; out->i = json_is_true(v); break;
        case JSON_STRING: out->sqlite_type = SQLITE_TEXT; out->s = json_string_value(v); break;
        default: return bd_fail(err, "its record's value of %s is not a number, text or null", q->params[i].name);
        }
    }
    return 0;
}

/* The name (or path, for a file) of the gate or reference a back-test's
 * text names in its comment: after `lead`, "NAME (SOURCE, sha256 ...)". */
static char *composed_from(const char *text, const char *lead)
{
    const char *p = strstr(text, lead);
    if (!p)
        return NULL;
    p += strlen(lead);
    const char *open = strstr(p, " ("), *comma = open ? strstr(open, ", sha256 ") : NULL;
    if (!open || !comma || memchr(p, '\n', (size_t)(comma - p)))
        return NULL;
    const char *src = open + 2;
    size_t n = (size_t)(comma - src);
    if (n == strlen("built-in") && strncmp(src, "built-in", n) == 0)
        return xstrndup(p, (size_t)(open - p));
    return xstrndup(src, n);
}

/* The rule's text now: NULL with *why when there is none. */
static char *text_now(const struct query_path *qp, const struct record *r, char **why)
{
    char *err = NULL, *text = NULL;
    struct saved_query *q = NULL;
    if (strncmp(r->name, "backtest-", 9) == 0) {
        char *gate = composed_from(r->text, "-- Composed by 'benchdb backtest' from the saved queries ");
        char *ref = composed_from(r->text, "\n-- and ");
        if (gate && ref)
            q = backtest_compose(qp, gate, ref, &err);
        if (!q)
            *why = bd_strdupf("cannot compose the back-test again: %s", err ? err : "its text names no gate and reference");
        free(gate);
        free(ref);
    } else {
        int unknown = 0;
        q = saved_query_find(qp, r->name, &unknown, &err);
        if (!q)
            *why = unknown ? bd_strdupf("no saved query %s on the query path now (--queries DIR adds a directory)",
                                        r->name)
                           : bd_strdupf("%s", err);
    }
    if (q)
        text = xstrdup(q->text);
    saved_query_free(q);
    free(err);
    return text;
}

/* One comparison's outcome: "same" or what differs; adds to differences. */
static void compare(struct strbuf *diffs, char **slot, int same, const char *what, char *how)
{
    if (same) {
        *slot = how ? how : xstrdup("same");
        return;
    }
    sb_printf(diffs, "%s%s: %s", diffs->len ? "; " : "", what, how);
    *slot = how;
}

struct outcome {
    char *result, *rows, *data, *schema, *text, *version, *outcome, *params, *registration, *summaries;
    struct strbuf diffs;
    long long archives, since; /* data the same: the evaluation's archives, and how many were ingested since */
    int since_only;            /* only its rows (and outcome) differ, with archives ingested since */
};

static void outcome_free(struct outcome *o)
{
    free(o->result);
    free(o->rows);
    free(o->data);
    free(o->schema);
    free(o->text);
    free(o->version);
    free(o->outcome);
    free(o->params);
    free(o->registration);
    free(o->summaries);
    sb_free(&o->diffs);
}

/* What one verify command shares: the store, the query path, and each
 * summary's comparison with its values, made once (on first need). */
struct verify_ctx {
    struct db *db;
    const struct query_path *qp;
    struct summary_state sums[SUMMARY_COUNT];
    int summed[SUMMARY_COUNT];
};

static void compare_rows(const struct saved_query *q, const struct record *r, const struct evaluation *ev,
                         struct outcome *o)
{
    struct strbuf now = {0};
    if (rowset_json(&ev->rows, &now, 0)) {
        compare(&o->diffs, &o->rows, 0, "rows", xstrdup("out of memory"));
        return;
    }
    if (strcmp(now.buf, r->rows) == 0) {
        compare(&o->diffs, &o->rows, 1, "rows", bd_strdupf("same (%zu)", ev->rows.nrow));
        sb_free(&now);
        return;
    }
    json_t *was = json_loads(r->rows, JSON_DECODE_ANY, NULL), *is = json_loads(now.buf, JSON_DECODE_ANY, NULL);
    sb_free(&now);
    size_t changed = 0, total = 0;
    char *summary = NULL, *err = NULL;
    if (!json_is_array(was) || !json_is_array(is))
        compare(&o->diffs, &o->rows, 0, "rows", xstrdup("the recorded rows are not a JSON array"));
    else if (history_rows_differ(q->keys, q->nkeys, was, is, &changed, &total, &summary, ROWS_SHOWN, &err))
        compare(&o->diffs, &o->rows, 0, "rows", err), err = NULL;
    else if (changed == 0)
        compare(&o->diffs, &o->rows, 1, "rows", bd_strdupf("same (%zu)", total));
    else
        compare(&o->diffs, &o->rows, 0, "rows", bd_strdupf("%zu of %zu differ (%s)", changed, total, summary));
    free(summary);
    free(err);
    json_decref(was);
    json_decref(is);
}

/* The outcome line and the row count, as the re-run sums them up: a record
 * whose outcome says "adopted" over rows that say otherwise differs. */
static void compare_outcome(const struct record *r, const struct evaluation *ev, struct outcome *o)
{
    struct strbuf how = {0};
    if (strcmp(r->outcome, ev->outcome) != 0)
        sb_printf(&how, "\"%s\" -> \"%s\"", r->outcome, ev->outcome);
    if (r->row_count != (long long)ev->rows.nrow)
        sb_printf(&how, "%srow_count %lld -> %zu", how.len ? "; " : "", r->row_count, ev->rows.nrow);
    int same = how.len == 0;
    compare(&o->diffs, &o->outcome, same, "outcome", same ? NULL : xsb_detach(&how));
    sb_free(&how);
}

/* The parameters as recorded against the same values bound again and
 * written as recording writes them: a key added, dropped or rewritten by
 * hand differs (the values themselves are what the re-run used). */
static void compare_params(const struct record *r, const struct evaluation *ev, struct outcome *o)
{
    int same = strcmp(r->params, ev->params_json) == 0;
    compare(&o->diffs, &o->params, same, "params",
            same ? NULL : bd_strdupf("recorded %.200s, bound %.200s", r->params, ev->params_json));
}

static int compare_data(struct db *db, const struct record *r, struct outcome *o, char **err)
{
    char now[65], prefix[65];
    long long n = 0;
    int frc = data_fingerprint(db, now, &n, err);
    if (frc == 0 && n > r->archives)
        frc = data_fingerprint_first(db, r->archives, prefix, NULL, err);
    if (frc)
        return -1;
    if (strcmp(now, r->fingerprint) == 0 && n == r->archives) {
        compare(&o->diffs, &o->data, 1, "data", bd_strdupf("same (%lld archives)", n));
        return 0;
    }
    if (strcmp(now, r->fingerprint) == 0) { /* the count recorded beside the fingerprint rewritten */
        compare(&o->diffs, &o->data, 0, "data",
                bd_strdupf("archive_count %lld, but the fingerprint is that of the %lld archives now", r->archives, n));
        return 0;
    }
    /* More archives now: still the same data for this evaluation when its
     * archives are all there unchanged (the first ones it counted). */
    if (n > r->archives && strcmp(prefix, r->fingerprint) == 0) {
        compare(&o->diffs, &o->data, 1, "data",
                bd_strdupf("same (%lld archives; %lld ingested since)", r->archives, n - r->archives));
        o->archives = r->archives;
        o->since = n - r->archives;
    }
    else
        compare(&o->diffs, &o->data, 0, "data",
                bd_strdupf("fingerprint %.12s -> %.12s (%lld -> %lld archives)", r->fingerprint, now, r->archives, n));
    return 0;
}

static int text_eq(const char *a, const char *b) { return a && b ? strcmp(a, b) == 0 : a == b; }

/* "pre-registered (rule 2)", "unregistered", "none" (the query judges no
 * plan), malloc'd. */
static char *registration_words(const char *reg, long long rule_id)
{
    if (!reg)
        return xstrdup("none");
    return rule_id ? bd_strdupf("%s (rule %lld)", reg, rule_id) : xstrdup(reg);
}

/* The plan the evaluation judged and whether its rule was registered before
 * that plan began, judged again now (evaluation_judge): a rule registered
 * after the evaluation (a later second; within the same second either is
 * taken) is one it could not have seen, so then "unregistered" is what the
 * record must say. -1 only when the store cannot be read. */
static int compare_registration(struct db *db, const struct saved_query *q, const struct resolved_params *rp,
                                const struct record *r, struct evaluation *ev, struct outcome *o, char **err)
{
    if (evaluation_judge(db, q, rp, ev, err))
        return -1;
    long long rule = ev->rule_id;
    const char *reg = ev->registration;
    int either = 0;
    if (rule) {
        char at[TIME_TEXT_MAX];
        int found = rule_registered_at(db, rule, at, err), later = found == 1 ? time_precedes(db, r->when, at, err) : 0;
        if (found < 0 || later < 0)
            return -1;
        either = later && strncmp(r->when, at, 19) == 0;
        if (later && !either)
            rule = 0, reg = "unregistered";
    }
    int same = text_eq(r->judged_plan, ev->judged_plan) &&
               ((text_eq(r->registration, reg) && r->rule_id == rule) ||
                (either && text_eq(r->registration, "unregistered") && r->rule_id == 0));
    char *how = NULL;
    if (!text_eq(r->judged_plan, ev->judged_plan))
        how = bd_strdupf("judged plan %s -> %s", r->judged_plan ? r->judged_plan : "(none)",
                         ev->judged_plan ? ev->judged_plan : "(none)");
    else if (!same) {
        char *was = registration_words(r->registration, r->rule_id), *now = registration_words(reg, rule);
        how = bd_strdupf("%s -> %s", was, now);
        free(was);
        free(now);
    }
    compare(&o->diffs, &o->registration, same, "registration", how);
    return 0;
}

/* The summaries the evaluation's statement read (its schema hash's set:
 * series, block_score_data, run_cell_data, history_point_data), each
 * compared with what it summarises, once per command: a re-run reads the
 * summaries, so one left stale by a direct write (a value changed in
 * sample alone) would give the recorded rows again over values that say
 * otherwise. -1 only when the store cannot be read. */
static int compare_summaries(struct verify_ctx *c, const struct evaluation *ev, struct outcome *o, char **err)
{
    struct strbuf bad = {0}, read = {0};
    for (int k = 0; k < SUMMARY_COUNT; k++) {
        const char *table = store_summary_table(k);
        int in = 0;
        for (size_t i = 0; i < ev->read_set.n && !in; i++)
            in = strcmp(ev->read_set.names[i], table) == 0;
        if (!in)
            continue;
        if (!c->summed[k] && store_summary_compare(c->db, k, &c->sums[k], NULL, NULL, err)) {
            sb_free(&bad);
            sb_free(&read);
            return -1;
        }
        c->summed[k] = 1;
        const struct summary_state *st = &c->sums[k];
        sb_printf(&read, "%s%s", read.len ? ", " : "", table);
        if (st->bad)
            sb_printf(&bad, "%s%s: %lld of %lld differ from %s (%s)", bad.len ? "; " : "", table, st->bad, st->rows,
                      store_summary_source(k), st->first);
    }
    if (bad.len)
        sb_puts(&bad, ": the re-run read them, not the values ('benchdb check' names them, docs/schema.md rebuilds "
                      "them)");
    int same = bad.len == 0;
    char *how = !same      ? xsb_detach(&bad)
                : read.len ? bd_strdupf("match their values (%s)", xsb_text(&read))
                           : xstrdup("none read");
    compare(&o->diffs, &o->summaries, same, "summaries", how);
    sb_free(&bad);
    sb_free(&read);
    return 0;
}

/* The time limit of one re-run (a re-run opens its own transaction; each
 * sets the limit again). */
static int limit_start(struct db *db, struct store_deadline *dl, double timeout, char **err)
{
    if (store_deadline_start(db, dl, timeout) != SQLITE_OK)
        return bd_fail(err, "cannot set the time limit: %s", db_errmsg(db));
    return 0;
}

/* The rule's text: the saved query of its name now against the recorded
 * text, and the recorded SHA-256 against the recorded text's. */
static void compare_text(const struct query_path *qp, const struct record *r, struct outcome *o)
{
    char rec[65];
    sha256_hex_of(r->text, strlen(r->text), rec);
    if (strcmp(rec, r->sha) != 0) {
        compare(&o->diffs, &o->text, 0, "rule text",
                bd_strdupf("the recorded sha256 %.12s is not the recorded text's (%.12s)", r->sha, rec));
        return;
    }
    char *why_text = NULL, *now = text_now(qp, r, &why_text);
    if (!now)
        compare(&o->diffs, &o->text, 0, "rule text", why_text), why_text = NULL;
    else if (strcmp(now, r->text) == 0)
        compare(&o->diffs, &o->text, 1, "rule text", NULL);
    else {
        char sha[65];
        sha256_hex_of(now, strlen(now), sha);
        compare(&o->diffs, &o->text, 0, "rule text", bd_strdupf("sha256 %.12s -> %.12s", r->sha, sha));
    }
    free(now);
    free(why_text);
}

/* Every part of a record against its re-run ev. -1 only when the store
 * cannot be read. */
static int compare_all(struct verify_ctx *c, const struct saved_query *q, const struct resolved_params *rp,
                       const struct record *r, struct evaluation *ev, struct outcome *o, char **err)
{
    size_t at = o->diffs.len;
    compare_rows(q, r, ev, o);
    int moved = o->diffs.len != at; /* rows, then the outcome they sum up to */
    at = o->diffs.len;
    if (compare_data(c->db, r, o, err))
        return -1;
    if (!r->schema)
        compare(&o->diffs, &o->schema, 0, "schema", xstrdup("not recorded (evaluated before benchdb recorded it)"));
    else
        compare(&o->diffs, &o->schema, strcmp(r->schema, ev->schema_sha256) == 0, "schema",
                strcmp(r->schema, ev->schema_sha256) == 0 ? NULL
                                                           : bd_strdupf("sha256 %.12s -> %.12s", r->schema, ev->schema_sha256));
    compare_text(c->qp, r, o);
    int same = strcmp(r->version, BENCHDB_VERSION) == 0;
    compare(&o->diffs, &o->version, same, "version", same ? NULL : bd_strdupf("%s -> %s", r->version, BENCHDB_VERSION));
    int other = o->diffs.len != at; /* data, schema, text or version */
    at = o->diffs.len;
    compare_outcome(r, ev, o);
    moved |= o->diffs.len != at;
    at = o->diffs.len;
    compare_params(r, ev, o);
    if (compare_registration(c->db, q, rp, r, ev, o, err) || compare_summaries(c, ev, o, err))
        return -1;
    other |= o->diffs.len != at;
    /* Only the rows moved, its archives all there unchanged and more
     * ingested since: what a query of the latest runs (a gate's
     * scope=latest) gives as the data grows, or an edit of the record; the
     * fact said beside the rows (the data part is the same, and not among
     * the differences), neither cause claimed. */
    if (moved && !other && o->since) {
        sb_printf(&o->diffs, "; %lld archive%s ingested since (its %lld unchanged)", o->since,
                  o->since == 1 ? "" : "s", o->archives);
        o->since_only = 1;
    }
    o->result = xstrdup(o->diffs.len ? "differs" : "identical");
    return 0;
}

/* One evaluation: its row of the result. -1 only when the store cannot
 * be read. */
static int verify_one(struct verify_ctx *c, const struct record *r, double timeout, const struct rowset_limits *lim,
                      struct rowset_builder *b, struct verify_counts *counts, char **err)
{
    struct db *db = c->db;
    struct outcome o = {0};
    sb_puts(&o.diffs, "");
    char *why = NULL, *perr = NULL;
    struct resolved_params rp = {0};
    struct evaluation ev = {0};
    json_t *params = json_loads(r->params, JSON_DECODE_ANY, NULL);
    struct saved_query *q = saved_query_parse(xstrdup(r->text), "recorded query", 0, &perr);
    if (!q)
        why = bd_strdupf("its recorded text does not parse: %s", perr);
    else if (!json_is_object(params))
        why = xstrdup("its recorded parameters are not a JSON object");
    else if (recorded_values(q, params, &rp, &perr))
        why = xstrdup(perr);
    else {
        struct store_deadline dl = {0};
        if (limit_start(db, &dl, timeout, &perr) || evaluation_rerun(db, q, &rp, lim, &ev, &perr))
            why = store_deadline_passed(db, &dl)
                      ? bd_strdupf("stopped after %g s (--timeout SECONDS raises the limit)", timeout)
                      : xstrdup(perr ? perr : "out of memory");
        store_deadline_clear(db);
    }
    int rc = 0;
    if (why) {
        o.result = bd_strdupf("cannot re-run: %s", why);
        sb_puts(&o.diffs, why);
    } else
        rc = compare_all(c, q, &rp, r, &ev, &o, err);
    counts->since_only += !why && o.since_only;
    if (o.diffs.len || why)
        counts->differ++;
    else
        counts->identical++;
    if (sb_failed(&o.diffs)) /* a difference dropped from the list: memory ran out */
        xalloc_die();
    const char *cells[] = {r->name, r->when, o.result, o.diffs.buf, o.rows, o.data, o.schema, o.text, o.version,
                           o.outcome, o.params, o.registration, o.summaries};
    rb_int(b, 0, r->id);
    for (int k = 0; k < (int)(sizeof cells / sizeof cells[0]); k++)
        rb_text(b, k + 1, cells[k]);
    rb_row(b);
    outcome_free(&o);
    evaluation_free(&ev);
    resolved_params_free(&rp);
    saved_query_free(q);
    json_decref(params);
    free(why);
    free(perr);
    return rc;
}

/* Every evaluation's id, in order. */
static int all_ids(struct db *db, long long **ids, int *n, char **err)
{
    struct db_stmt *st;
    *ids = NULL;
    *n = 0;
    if (db_prepare(db, "SELECT id FROM evaluation ORDER BY id", &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the history: %s", db_errmsg(db));
    int rc, cap = 0;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            long long *v = xreallocarray(*ids, (size_t)cap, sizeof *v);
            if (!v) {
                rc = SQLITE_NOMEM;
                break;
            }
            *ids = v;
        }
        (*ids)[(*n)++] = db_column_int64(st, 0);
    }
    if (rc != SQLITE_DONE)
        bd_fail(err, "cannot read the history: %s", rc == SQLITE_NOMEM ? "out of memory" : db_errmsg(db));
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int history_verify(struct db *db, const struct query_path *qp, const long long *ids, int nids, int all, double timeout,
                   const struct rowset_limits *lim, struct rowset *out, struct verify_counts *counts, char **err)
{
    static const char *const names[] = {"id",      "query",   "evaluated_at", "result",       "differences",
                                        "rows",    "data",    "schema",       "text",         "version",
                                        "outcome", "params",  "registration", "summaries"};
    enum { NCOL = sizeof names / sizeof names[0] };
    struct verify_ctx c = {.db = db, .qp = qp};
    long long *every = NULL;
    memset(counts, 0, sizeof *counts);
    if (all) {
        if (all_ids(db, &every, &nids, err))
            return -1;
        ids = every;
    }
    /* Every id must name an evaluation before any is run. */
    struct record r;
    int rc = 0;
    for (int i = 0; i < nids && !rc && !all; i++) {
        int found = load(db, ids[i], &r, err);
        record_free(&r);
        if (found == 0)
            rc = history_no_evaluation(db, ids[i], err);
        else if (found < 0)
            rc = -1;
    }
    struct rowset_builder b;
    rowset_builder_start(&b, out, NCOL, names);
    for (int i = 0; i < nids && !rc; i++) {
        int found = load(db, ids[i], &r, err);
        if (found < 0 && db_lost(db)) { /* lost between two: this one is the first not tried */
            free(*err);
            *err = NULL;
            counts->lost = 1;
            counts->not_tried = nids - i;
            counts->first_not_tried = ids[i];
            record_free(&r);
            break;
        }
        if (found < 0)
            rc = -1;
        else if (found > 0)
            rc = verify_one(&c, &r, timeout, lim, &b, counts, err);
        record_free(&r);
        /* lost while this one ran (its row says why): the rest would each
         * fail "no connection to the server"; not tried, said once */
        if (found > 0 && db_lost(db)) {
            if (rc) { /* what failed is the connection, which the caller says once */
                free(*err);
                *err = NULL;
                rc = 0;
            }
            counts->lost = 1;
            counts->not_tried = nids - i - 1;
            counts->first_not_tried = i + 1 < nids ? ids[i + 1] : 0;
            break;
        }
    }
    free(every);
    char *berr = NULL;
    if (rowset_builder_finish(&b, &berr) && !rc) {
        bd_fail(err, "%s", berr);
        rc = -1;
    }
    free(berr);
    return rc;
}
