/* The verdict history: listing evaluations, and what changed between two. */
#include "query/history.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "query/saved.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A decision: the evaluation of a query whose header has an -- outcome:
 * line (?3 is '%' newline '-- outcome:%'), or a back-test (its composed
 * rule scores a gate). */
#define DECISION(P) "(query_name LIKE 'backtest-%' OR query_text LIKE '-- outcome:%' OR query_text LIKE " P ")"
static const char decision_like[] = "%\n-- outcome:%";

static int count_lookups(struct db *db, long long *n, char **err)
{
    struct db_stmt *st;
    if (db_prepare(db, "SELECT count(*) FROM evaluation WHERE NOT " DECISION("?1"), &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the history: %s", db_errmsg(db));
    int rc = db_bind_text(st, 1, decision_like, -1);
    if (rc == SQLITE_OK && (rc = db_step(st)) == SQLITE_ROW)
        *n = db_column_int64(st, 0);
    db_finalize(st);
    return rc == SQLITE_ROW ? 0 : bd_fail(err, "cannot read the history: %s", db_errmsg(db));
}

/* How many evaluations history_list's statement matches without its
 * limit: those it lists and those the limit leaves out. */
static int count_listed(struct db *db, const char *name, int decisions, long long *n, char **err)
{
    struct db_stmt *st;
    const char *sql = decisions ? "SELECT count(*) FROM evaluation WHERE CAST(?1 AS TEXT) IS NULL AND " DECISION("?2")
                                : "SELECT count(*) FROM evaluation WHERE (CAST(?1 AS TEXT) IS NULL OR query_name = ?1)";
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the history: %s", db_errmsg(db));
    int rc = name ? db_bind_text(st, 1, name, -1) : db_bind_null(st, 1);
    if (rc == SQLITE_OK && decisions)
        rc = db_bind_text(st, 2, decision_like, -1);
    if (rc == SQLITE_OK && (rc = db_step(st)) == SQLITE_ROW)
        *n = db_column_int64(st, 0);
    db_finalize(st);
    return rc == SQLITE_ROW ? 0 : bd_fail(err, "cannot read the history: %s", db_errmsg(db));
}

int history_list(struct db *db, const char *name, long long limit, int decisions, long long *lookups,
                 long long *older, struct rowset *rs, char **err)
{
    struct db_stmt *st;
    decisions = decisions && !name;
    const char *sql =
        decisions ? "SELECT * FROM (SELECT id, evaluated_at, query_name AS query, substr(query_sha256, 1, 12) AS sha256, "
                    "params, outcome, registration FROM evaluation WHERE CAST(?1 AS TEXT) IS NULL AND " DECISION("?3") " "
                    "ORDER BY id DESC LIMIT ?2) AS h ORDER BY id"
                  : "SELECT * FROM (SELECT id, evaluated_at, query_name AS query, substr(query_sha256, 1, 12) AS sha256, "
                    "params, outcome, registration FROM evaluation WHERE (CAST(?1 AS TEXT) IS NULL OR query_name = ?1) "
                    "ORDER BY id DESC LIMIT ?2) AS h ORDER BY id";
    if (lookups)
        *lookups = 0;
    if (decisions && lookups && count_lookups(db, lookups, err))
        return -1;
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the history: %s", db_errmsg(db));
    int rc = name ? db_bind_text(st, 1, name, -1) : db_bind_null(st, 1);
    /* No limit: the largest one both engines take (SQLite reads -1 as
     * none, PostgreSQL refuses it). */
    if (rc == SQLITE_OK)
        rc = db_bind_int64(st, 2, limit < 0 ? INT64_MAX : limit);
    if (rc == SQLITE_OK && decisions)
        rc = db_bind_text(st, 3, decision_like, -1);
    if (rc == SQLITE_OK)
        rc = rowset_collect_db(rs, st);
    if (rc != SQLITE_DONE)
        bd_fail(err, "cannot read the history: %s", db_errmsg(db));
    db_finalize(st);
    if (rc != SQLITE_DONE)
        return -1;
    /* The limit filled: how many earlier ones it left out, said, not dropped */
    long long all = 0;
    if (older)
        *older = 0;
    if (older && limit >= 0 && (long long)rs->nrow == limit) {
        if (count_listed(db, name, decisions, &all, err))
            return -1;
        *older = all - (long long)rs->nrow;
    }
    return 0;
}

void history_names_free(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int history_no_evaluation(struct db *db, long long id, char **err)
{
    struct db_stmt *st;
    long long lo = 0, hi = 0, n = 0;
    if (db_prepare(db, "SELECT min(id), max(id), count(*) FROM evaluation", &st) == SQLITE_OK &&
        db_step(st) == SQLITE_ROW) {
        lo = db_column_int64(st, 0);
        hi = db_column_int64(st, 1);
        n = db_column_int64(st, 2);
    }
    db_finalize(st);
    if (n == 0)
        return bd_fail(err, "no evaluation %lld in the store (it holds none yet)", id);
    if (lo == hi)
        return bd_fail(err, "no evaluation %lld in the store (its one evaluation is %lld)", id, lo);
    return bd_fail(err, "no evaluation %lld in the store (its %lld evaluations are %s%lld to %lld: 'benchdb history "
                        "--all' lists them)",
                   id, n, n < hi - lo + 1 ? "among " : "", lo, hi);
}

int history_names(struct db *db, char ***names, char **err)
{
    struct db_stmt *st;
    *names = NULL;
    if (db_prepare(db, "SELECT DISTINCT query_name FROM evaluation ORDER BY 1", &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the history: %s", db_errmsg(db));
    int n = 0, rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        char **v = xreallocarray(*names, (size_t)(n + 1), sizeof *v);
        if (!v) {
            rc = SQLITE_NOMEM;
            break;
        }
        *names = v;
        v[n++] = xstrdup((const char *)db_column_text(st, 0));
    }
    if (rc != SQLITE_DONE) {
        bd_fail(err, "cannot read the history: %s", rc == SQLITE_NOMEM ? "out of memory" : db_errmsg(db));
        history_names_free(*names, n);
        *names = NULL;
        n = -1;
    }
    db_finalize(st);
    return n;
}

/* ---- one evaluation, as recorded ---- */

struct recorded {
    char *name, *text;
    json_t *params, *rows;
};

static void recorded_free(struct recorded *e)
{
    free(e->name);
    free(e->text);
    json_decref(e->params);
    json_decref(e->rows);
}

static char *column_dup(struct db_stmt *st, int c)
{
    const char *t = (const char *)db_column_text(st, c);
    return xstrdup(t ? t : "");
}

/* Loads evaluation i of d (d->id[i]). */
static int load(struct db *db, struct history_diff *d, int i, struct recorded *e, char **err)
{
    struct db_stmt *st;
    memset(e, 0, sizeof *e);
    if (db_prepare(db, "SELECT query_name, query_sha256, query_text, data_fingerprint, archive_count, params, "
                               "rows, evaluated_at, outcome FROM evaluation WHERE id = ?", &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the history: %s", db_errmsg(db));
    int rc = db_bind_int64(st, 1, d->id[i]);
    if (rc == SQLITE_OK)
        rc = db_step(st);
    if (rc == SQLITE_DONE) {
        db_finalize(st);
        return history_no_evaluation(db, d->id[i], err);
    }
    if (rc != SQLITE_ROW) {
        bd_fail(err, "cannot read the history: %s", db_errmsg(db));
        db_finalize(st);
        return -1;
    }
    e->name = column_dup(st, 0);
    snprintf(d->sha256[i], sizeof d->sha256[i], "%s", (const char *)db_column_text(st, 1));
    e->text = column_dup(st, 2);
    snprintf(d->fingerprint[i], sizeof d->fingerprint[i], "%s", (const char *)db_column_text(st, 3));
    d->archives[i] = db_column_int64(st, 4);
    e->params = json_loads((const char *)db_column_text(st, 5), JSON_DECODE_ANY, NULL);
    e->rows = json_loads((const char *)db_column_text(st, 6), JSON_DECODE_ANY, NULL);
    d->when[i] = column_dup(st, 7);
    d->outcome[i] = column_dup(st, 8);
    db_finalize(st);
    if (!json_is_object(e->params) || !json_is_array(e->rows))
        return bd_fail(err, "evaluation %lld: its recorded parameters or rows are not valid JSON", d->id[i]);
    return 0;
}

/* A JSON value as a short text: numbers in shortest form, strings bare;
 * exact (a real keeps its ".0") when exact, else as people write it (25). */
static char *jtext(json_t *v, int exact)
{
    char buf[40];
    if (!v)
        return xstrdup("(absent)");
    switch (json_typeof(v)) {
    case JSON_NULL: return xstrdup("null");
    case JSON_TRUE: return xstrdup("true");
    case JSON_FALSE: return xstrdup("false");
    case JSON_INTEGER: snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v)); return xstrdup(buf);
    case JSON_REAL:
        if (exact || !isfinite(json_real_value(v)))
            numfmt_real(buf, json_real_value(v));
        else
            numfmt_shortest(buf, sizeof buf, json_real_value(v));
        return xstrdup(buf);
    case JSON_STRING: return xstrdup(json_string_value(v));
    default: return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
    }
}

static char *params_changes(json_t *a, json_t *b)
{
    struct strbuf pd = {0};
    const char *k;
    json_t *v;
    sb_puts(&pd, "");
    json_object_foreach(b, k, v) {
        json_t *old = json_object_get(a, k);
        if (!old || !json_equal(old, v)) {
            char *o = jtext(old, 0), *n = jtext(v, 0);
            if (strcmp(o, n) == 0) { /* 25 and 25.0: the types differ, which only the exact texts show */
                free(o);
                free(n);
                o = jtext(old, 1);
                n = jtext(v, 1);
            }
            sb_printf(&pd, "%s%s: %s -> %s", pd.len ? ", " : "", k, o, n);
            free(o);
            free(n);
        }
    }
    json_object_foreach(a, k, v) {
        if (!json_object_get(b, k))
            sb_printf(&pd, "%s%s: removed", pd.len ? ", " : "", k);
    }
    return xsb_detach(&pd);
}

/* ---- rows matched by key ---- */

struct keyed {
    char **keys;
    int nkeys;
    struct rowset_builder b;
};

static char *row_key(const struct keyed *k, json_t *row)
{
    struct strbuf sb = {0};
    if (!k->nkeys) {
        char *all = json_dumps(row, JSON_COMPACT | JSON_SORT_KEYS);
        sb_puts(&sb, all ? all : "");
        free(all);
    }
    for (int i = 0; i < k->nkeys; i++) {
        char *t = jtext(json_object_get(row, k->keys[i]), 1);
        sb_printf(&sb, "%s%s", i ? "\x1f" : "", t);
        free(t);
    }
    return xsb_detach(&sb);
}

static json_t *find_row(const struct keyed *k, json_t *rows, const char *key)
{
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r) {
        char *rk = row_key(k, r);
        int same = strcmp(rk, key) == 0;
        free(rk);
        if (same)
            return r;
    }
    return NULL;
}

/* A recorded value as its SQLite type: a number stays a number (a table
 * rounds it for display, CSV keeps it whole), the rest as jtext. */
static void rb_json(struct rowset_builder *b, int col, json_t *v)
{
    if (json_is_integer(v))
        rb_int(b, col, (long long)json_integer_value(v));
    else if (json_is_real(v))
        rb_double(b, col, json_real_value(v));
    else {
        char *t = jtext(v, 1);
        rb_text(b, col, t);
        free(t);
    }
}

/* A whole row, as JSON, or "(absent)". */
static void rb_row_text(struct rowset_builder *b, int col, json_t *row)
{
    char *t = row ? json_dumps(row, JSON_COMPACT) : NULL;
    rb_text(b, col, row ? t : "(absent)");
    free(t);
}

/* One difference: the row's keys, the column, its value in each evaluation
 * (for "(row)": the row in each, or NULL where it is absent). */
static void add_difference(struct keyed *k, json_t *row, const char *column, json_t *v1, json_t *v2)
{
    for (int i = 0; i < k->nkeys; i++)
        rb_json(&k->b, i, json_object_get(row, k->keys[i]));
    rb_text(&k->b, k->nkeys, column);
    if (strcmp(column, "(row)") == 0) {
        rb_row_text(&k->b, k->nkeys + 1, v1);
        rb_row_text(&k->b, k->nkeys + 2, v2);
    } else {
        rb_json(&k->b, k->nkeys + 1, v1);
        rb_json(&k->b, k->nkeys + 2, v2);
    }
    rb_row(&k->b);
}

/* The first candidate that is not one of the key columns' names. */
static const char *free_name(const struct keyed *k, const char *a, const char *b)
{
    for (int i = 0; i < k->nkeys; i++)
        if (strcmp(k->keys[i], a) == 0)
            return b;
    return a;
}

static int diff_rows(struct history_diff *d, struct keyed *k, json_t *ra, json_t *rb, char **err)
{
    char id1[32], id2[32], alt1[48], alt2[48];
    snprintf(id1, sizeof id1, "%lld", d->id[0]);
    snprintf(id2, sizeof id2, "%lld", d->id[1]);
    snprintf(alt1, sizeof alt1, "evaluation %lld", d->id[0]);
    snprintf(alt2, sizeof alt2, "evaluation %lld", d->id[1]);
    const char **names = xcalloc((size_t)k->nkeys + 3, sizeof *names);
    if (!names)
        return bd_fail(err, "out of memory");
    for (int i = 0; i < k->nkeys; i++)
        names[i] = k->keys[i];
    names[k->nkeys] = free_name(k, "column", "changed_column");
    names[k->nkeys + 1] = free_name(k, id1, alt1);
    names[k->nkeys + 2] = free_name(k, id2, alt2);
    rowset_builder_start(&k->b, &d->rows, k->nkeys + 3, names);
    free(names);

    size_t i;
    json_t *a;
    /* Rows of the first evaluation: changed or gone. */
    json_array_foreach(ra, i, a) {
        char *key = row_key(k, a);
        json_t *b = find_row(k, rb, key);
        int changed = 0;
        if (!b) {
            add_difference(k, a, "(row)", a, NULL);
            changed = 1;
        } else if (k->nkeys) {
            const char *col;
            json_t *va;
            json_object_foreach(a, col, va) {
                json_t *vb = json_object_get(b, col);
                if (vb && json_equal(va, vb))
                    continue;
                add_difference(k, a, col, va, vb);
                changed = 1;
            }
        }
        d->rows_changed += changed;
        free(key);
    }
    /* Rows only in the second evaluation. */
    json_t *b;
    size_t only_b = 0;
    json_array_foreach(rb, i, b) {
        char *key = row_key(k, b);
        if (!find_row(k, ra, key)) {
            add_difference(k, b, "(row)", NULL, b);
            d->rows_changed++;
            only_b++;
        }
        free(key);
    }
    /* the rows of either: a row gone and one new are two of them ("24 of
     * 12 differ" counted both against the larger side) */
    d->rows_total = json_array_size(ra) + only_b;
    return rowset_builder_finish(&k->b, err);
}

int history_rows_differ(char **keys, int nkeys, json_t *was, json_t *now, size_t *changed, size_t *total,
                        char **summary, int max, char **err)
{
    struct history_diff d;
    memset(&d, 0, sizeof d);
    d.id[0] = 1;
    d.id[1] = 2;
    struct keyed k = {keys, nkeys, {0}};
    *summary = NULL;
    if (diff_rows(&d, &k, was, now, err)) {
        rowset_free(&d.rows);
        return -1;
    }
    *changed = d.rows_changed;
    *total = d.rows_total;
    /* "KEY=V, ...: COLUMN WAS -> NOW" for the first max differences. */
    struct strbuf sb = {0};
    sb_puts(&sb, "");
    for (size_t r = 0; r < d.rows.nrow && (int)r < max; r++) {
        sb_puts(&sb, r ? "; " : "");
        for (int c = 0; c < nkeys; c++) {
            char *v = value_text(rowset_cell(&d.rows, r, c));
            sb_printf(&sb, "%s%s=%s", c ? ", " : "", keys[c], v ? v : "null");
            free(v);
        }
        char *col = value_text(rowset_cell(&d.rows, r, nkeys));
        char *v1 = value_text(rowset_cell(&d.rows, r, nkeys + 1)), *v2 = value_text(rowset_cell(&d.rows, r, nkeys + 2));
        if (col && strcmp(col, "(row)") == 0)
            sb_printf(&sb, "%s%s", nkeys ? ": " : "", v1 && strcmp(v1, "(absent)") != 0 ? "a row no longer there"
                                                                                        : "a row not there before");
        else
            sb_printf(&sb, "%s%s %s -> %s", nkeys ? ": " : "", col ? col : "?", v1 ? v1 : "null", v2 ? v2 : "null");
        free(col);
        free(v1);
        free(v2);
    }
    if (d.rows.nrow > (size_t)max)
        sb_printf(&sb, "; ...");
    *summary = xsb_detach(&sb);
    rowset_free(&d.rows);
    return 0;
}

int history_diff(struct db *db, long long id1, long long id2, struct history_diff *d, char **err)
{
    memset(d, 0, sizeof *d);
    d->id[0] = id1;
    d->id[1] = id2;
    struct recorded e[2];
    memset(e, 0, sizeof e);
    int rc = EXIT_FAIL;
    if (load(db, d, 0, &e[0], err) || load(db, d, 1, &e[1], err))
        goto out;
    if (strcmp(e[0].name, e[1].name) != 0) {
        bd_fail(err, "evaluations %lld and %lld are of different queries (%s, %s); --diff compares one query's "
                     "evaluations", id1, id2, e[0].name, e[1].name);
        goto out;
    }
    d->query = xstrdup(e[1].name);
    d->params_changes = params_changes(e[0].params, e[1].params);
    /* The key columns come from the header of the later evaluation's text. */
    char *perr = NULL;
    struct saved_query *q = saved_query_parse(xstrdup(e[1].text), "recorded query", 0, &perr);
    free(perr);
    struct keyed k = {q ? q->keys : NULL, q ? q->nkeys : 0, {0}};
    if (diff_rows(d, &k, e[0].rows, e[1].rows, err) == 0)
        rc = EXIT_OK;
    saved_query_free(q);
out:
    recorded_free(&e[0]);
    recorded_free(&e[1]);
    return rc;
}

void history_diff_free(struct history_diff *d)
{
    free(d->query);
    free(d->when[0]);
    free(d->when[1]);
    free(d->outcome[0]);
    free(d->outcome[1]);
    free(d->params_changes);
    rowset_free(&d->rows);
    memset(d, 0, sizeof *d);
}
