/* Reading a recorded evaluation back for a report. */
#include "report/evaldata.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "query/history.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

static char *col_dup(struct db_stmt *st, int i)
{
    const unsigned char *t = db_column_text(st, i);
    return t ? xstrdup((const char *)t) : NULL;
}

/* JSON text as recorded. An evaluation recorded before benchdb refused
 * text that is not UTF-8 (evaluation_recordable) may hold such bytes, which
 * jansson refuses: they are drawn as U+FFFD, with a warning; a NUL byte
 * (\u0000) is read as it is. */
static json_t *load_recorded(const char *text, long long id, const char *what)
{
    json_error_t je;
    size_t n = strlen(text), bad = 0;
    if (utf8_invalid_at(text, n) == n)
        return json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    char *fixed = utf8_replaced(text, n, &bad);
    json_t *v = fixed ? json_loads(fixed, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je) : NULL;
    free(fixed);
    if (v)
        bd_warning("evaluation %lld: its recorded %s hold %zu byte%s that %s not UTF-8 (recorded by an earlier "
                   "benchdb): drawn as U+FFFD", id, what, bad, bad == 1 ? "" : "s", bad == 1 ? "is" : "are");
    return v;
}

/* The parameters and rows, parsed, and the first row's column names. */
static int take_json(struct report_eval *ev, const char *params, const char *rows)
{
    ev->params = params ? load_recorded(params, ev->id, "parameters") : NULL;
    ev->rows = ev->params && rows ? load_recorded(rows, ev->id, "rows") : NULL;
    if (!ev->params || !json_is_object(ev->params) || !ev->rows || !json_is_array(ev->rows))
        return -1;
    json_t *first = json_array_get(ev->rows, 0);
    if (first) {
        if (!(ev->cols = xcalloc(json_object_size(first) + 1, sizeof *ev->cols)))
            return -1;
        const char *k;
        json_t *v;
        json_object_foreach(first, k, v) ev->cols[ev->ncol++] = k;
    }
    return 0;
}

int report_eval_load(struct db *db, long long id, struct report_eval *ev, char **err)
{
    memset(ev, 0, sizeof *ev);
    struct db_stmt *st;
    if (db_prepare(db,
                           "SELECT query_name, query_sha256, query_text, outcome, evaluated_at, tool_version, "
                           "data_fingerprint, judged_plan, registration, archive_count, coalesce(rule_id, 0), "
                           "row_count, params, rows FROM evaluation WHERE id = ?",
                           &st) != SQLITE_OK)
        return bd_fail(err, "cannot read evaluation %lld: %s", id, db_errmsg(db));
    db_bind_int64(st, 1, id);
    int rc = db_step(st);
    if (rc != SQLITE_ROW) {
        db_finalize(st);
        if (rc == SQLITE_DONE)
            return history_no_evaluation(db, id, err);
        return bd_fail(err, "cannot read evaluation %lld: %s", id, db_errmsg(db));
    }
    ev->id = id;
    ev->query_name = col_dup(st, 0);
    ev->sha256 = col_dup(st, 1);
    ev->text = col_dup(st, 2);
    ev->outcome = col_dup(st, 3);
    ev->evaluated_at = col_dup(st, 4);
    ev->tool_version = col_dup(st, 5);
    ev->fingerprint = col_dup(st, 6);
    ev->judged_plan = col_dup(st, 7);
    ev->registration = col_dup(st, 8);
    ev->archive_count = db_column_int64(st, 9);
    ev->rule_id = db_column_int64(st, 10);
    ev->row_count = db_column_int64(st, 11);
    int bad = take_json(ev, (const char *)db_column_text(st, 12), (const char *)db_column_text(st, 13));
    db_finalize(st);
    if (bad) {
        report_eval_free(ev);
        return bd_fail(err, "evaluation %lld: its recorded parameters or rows are not the JSON benchdb writes", id);
    }
    return 0;
}

int report_eval_unrecorded(struct report_eval *ev, const char *name, const char *params, const char *rows, char **err)
{
    memset(ev, 0, sizeof *ev);
    if (!(ev->query_name = xstrdup(name)) || take_json(ev, params, rows)) {
        report_eval_free(ev);
        return bd_fail(err, "out of memory");
    }
    return 0;
}

int report_eval_take(struct report_eval *ev, const char *name, json_t *params, json_t *rows)
{
    memset(ev, 0, sizeof *ev);
    ev->params = params;
    ev->rows = rows;
    ev->query_name = xstrdup(name);
    json_t *first = json_array_get(rows, 0);
    if (!params || !rows || !ev->query_name || !json_is_object(params) || !json_is_array(rows) ||
        (first && !(ev->cols = xcalloc(json_object_size(first) + 1, sizeof *ev->cols)))) {
        report_eval_free(ev);
        return -1;
    }
    const char *k;
    json_t *v;
    if (first)
        json_object_foreach(first, k, v) ev->cols[ev->ncol++] = k;
    return 0;
}

void report_eval_free(struct report_eval *ev)
{
    free(ev->query_name);
    free(ev->sha256);
    free(ev->text);
    free(ev->outcome);
    free(ev->evaluated_at);
    free(ev->tool_version);
    free(ev->fingerprint);
    free(ev->judged_plan);
    free(ev->registration);
    free(ev->cols);
    json_decref(ev->params);
    json_decref(ev->rows);
    memset(ev, 0, sizeof *ev);
}

int report_has_col(const struct report_eval *ev, const char *col)
{
    if (!ev->ncol)
        return 1;
    for (int i = 0; i < ev->ncol; i++)
        if (strcmp(ev->cols[i], col) == 0)
            return 1;
    return 0;
}

int evaldata_num(const json_t *v, double *out)
{
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return 1;
    }
    if (json_is_boolean(v)) {
        *out = json_is_true(v);
        return 1;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char *end;
        errno = 0;
        double x = strtod(s, &end);
        if (end != s && !*end && !errno && isfinite(x)) {
            *out = x;
            return 1;
        }
    }
    return 0;
}

char *evaldata_show(const json_t *v, int digits)
{
    char buf[64];
    if (!v || json_is_null(v))
        return xstrdup("");
    if (json_is_integer(v)) {
        snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
        return xstrdup(buf);
    }
    if (json_is_real(v)) {
        numfmt_sig(buf, json_real_value(v), digits);
        return xstrdup(buf);
    }
    if (json_is_string(v))
        return xstrdup(json_string_value(v));
    if (json_is_boolean(v))
        return xstrdup(json_is_true(v) ? "true" : "false");
    return json_dumps(v, JSON_COMPACT);
}

char *evaldata_exact(const json_t *v)
{
    char buf[64];
    if (!v || json_is_null(v))
        return xstrdup("null");
    if (json_is_real(v)) {
        numfmt_real(buf, json_real_value(v));
        return xstrdup(buf);
    }
    return evaldata_show(v, 17);
}

char *evaldata_param(const json_t *v)
{
    char buf[64];
    if (json_is_string(v))
        return xstrdup(json_string_value(v));
    if (json_is_real(v) && isfinite(json_real_value(v))) {
        numfmt_shortest(buf, sizeof buf, json_real_value(v));
        return xstrdup(buf);
    }
    return evaldata_exact(v);
}

int evaldata_truthy(const json_t *v)
{
    double x;
    if (!v || json_is_null(v))
        return 0;
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        return *s && strcmp(s, "0") != 0 && strcmp(s, "false") != 0;
    }
    return evaldata_num(v, &x) && x != 0;
}

int evaldata_outcome_holds(const json_t *v)
{
    return json_is_true(v) || (json_is_number(v) && json_number_value(v) != 0);
}

size_t report_failing_rows(const struct report_eval *ev, const char *outcome)
{
    size_t n = 0, rows = report_nrows(ev);
    for (size_t i = 0; outcome && i < rows; i++)
        n += !evaldata_outcome_holds(report_cell(ev, i, outcome));
    return n;
}
