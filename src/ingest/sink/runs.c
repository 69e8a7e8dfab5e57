/* Runs: a new one, one appended to, one replaced; its attributes and
 * start time as harness files give them. */
#include "ingest/sink/statements.h"
#include "store/dialect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/jsonparse.h"
#include "ingest/core/jsontext.h"
#include "ingest/core/rfc3339.h"

/* ---- runs ---- */

/* A stored run's field against the one an appending run record gives. */
static int same_field(struct sink *s, const char *field, const char *stored, const char *given)
{
    if (!given || (stored && strcmp(stored, given) == 0))
        return 0;
    return ingest_report_fail(s->rep, field, "expected %s%s%s (as the stored run has it), got \"%s\"", stored ? "\"" : "",
                       stored ? stored : "no value", stored ? "\"" : "", given);
}

/* An appending run record against the stored run (found by S_RUN_FIND). */
static int check_append(struct sink *s, const struct sink_run *r, struct db_stmt *st)
{
    char *stored[6];
    for (int i = 0; i < 6; i++)
        stored[i] = sink_column_dup(st, i + 3); /* host, position, source, started_at, ended_at, treatment */
    char *baseline = sink_column_dup(st, 9), *attrs = sink_column_dup(st, 10);
    char pos[32] = "";
    if (r->position)
        snprintf(pos, sizeof pos, "%lld", r->position);
    int rc = same_field(s, "run.host", stored[0], r->host) || same_field(s, "run.position", stored[1], r->position ? pos : NULL) ||
             same_field(s, "run.source", stored[2], r->source) ||
             same_field(s, "run.started_at", stored[3], r->started_at) ||
             same_field(s, "run.ended_at", stored[4], r->ended_at) ||
             same_field(s, "run.treatment", stored[5], r->treatment) ||
             same_field(s, "run.baseline", baseline, r->baseline);
    if (rc == 0 && r->attributes && json_object_size(r->attributes)) {
        /* every attribute given must be stored with the same value */
        struct json_doc doc;
        struct json_parse_error je;
        json_t *have = NULL;
        if (json_parse(attrs ? attrs : "{}", attrs ? strlen(attrs) : 2, &doc, &je) != JSON_PARSED)
            rc = ingest_report_oom(s->rep);
        else
            have = doc.root;
        const char *k;
        json_t *v;
        json_object_foreach(rc ? NULL : r->attributes, k, v) {
            if (rc)
                break;
            json_t *h = json_object_get(have, k);
            if (!h || !json_equal(h, v)) {
                char got[96];
                json_describe(v, got, sizeof got);
                rc = ingest_report_fail(s->rep, "run.attributes", "%s: expected %s (as the stored run has it), got %s", k,
                                 h ? "the stored value" : "no value", got);
            }
        }
        if (have)
            json_doc_free(&doc);
    }
    s->start_given = stored[3] != NULL;
    for (int i = 0; i < 6; i++)
        free(stored[i]);
    free(baseline);
    free(attrs);
    return rc ? -1 : 0;
}

/* --replace: deletes the stored run (found by S_RUN_FIND) unless other
 * archives added to it. */
static int replace_run(struct sink *s, const struct sink_run *r, int64_t old_run, int64_t old_archive,
                       const char *old_name)
{
    struct db_stmt *q = sink_stmt(s, S_RUN_APPENDED_BY);
    if (!q)
        return -1;
    db_bind_int64(q, 1, old_run);
    int rc = db_step(q);
    if (rc == SQLITE_ROW) {
        long long other = db_column_int64(q, 0);
        char *other_name = sink_column_dup(q, 1);
        db_reset(q);
        ingest_report_fail(s->rep, "run.run",
                    "run \"%s\" of plan \"%s\" holds values archive %lld \"%s\" added to it besides those of archive "
                    "%lld \"%s\": --replace replaces one archive's run, not what others added",
                    r->name, r->plan, other, other_name ? other_name : "?", (long long)old_archive,
                    old_name ? old_name : "?");
        free(other_name);
        return -1;
    }
    db_reset(q);
    if (rc != SQLITE_DONE)
        return sink_fail_sql(s);
    struct db_stmt *del = sink_stmt(s, S_RUN_DELETE);
    if (!del)
        return -1;
    db_bind_int64(del, 1, old_run);
    if (sink_step(s, del))
        return -1;
    if (sink_grow(s, &s->replaced, s->n_replaced, &s->cap_replaced, sizeof *s->replaced, 8))
        return -1;
    s->replaced[s->n_replaced++] = old_archive;
    char where[1024];
    snprintf(where, sizeof where, "%s%s%s%s", s->rep->file ? s->rep->file : "", s->rep->member ? "[" : "",
             s->rep->member ? s->rep->member : "", s->rep->member ? "]" : "");
    size_t k = strlen(where);
    if (s->rep->line && k < sizeof where)
        snprintf(where + k, sizeof where - k, ":%llu", (unsigned long long)s->rep->line);
    sb_printf(&s->notices, "%s: replaced run \"%s\" of plan \"%s\" stored from archive \"%s\"", where, r->name,
              r->plan, old_name ? old_name : "?");
    sb_putc(&s->notices, '\0'); /* one notice ends */
    return 0;
}

/* Adds key: v to the run's attributes: a scalar copied, an array or object
 * as its canonical text. -1 when memory ran out. */
static int add_attribute(struct sink *s, const char *key, json_t *v)
{
    json_t *val = NULL;
    switch (json_typeof(v)) {
    case JSON_STRING: val = json_stringn(json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER: val = json_integer(json_integer_value(v)); break;
    case JSON_REAL: val = json_real(json_real_value(v)); break;
    case JSON_TRUE: val = json_true(); break;
    case JSON_FALSE: val = json_false(); break;
    case JSON_NULL: val = json_null(); break;
    case JSON_ARRAY:
    case JSON_OBJECT:
        sb_reset(&s->key);
        val = json_canonical(v, &s->key) ? NULL : json_stringn(s->key.buf, s->key.len);
        break;
    }
    return !val || json_object_set_new(s->attrs, key, val) ? -1 : 0;
}

/* The run of plan_id named as r names it, if stored: appended to (1, with
 * s->run_id set), replaced with --replace (0), else refused (-1, with the
 * error reported); 0 when none is stored and r does not append. */
static int stored_run(struct sink *s, const struct sink_run *r, int64_t plan_id)
{
    struct db_stmt *st = sink_stmt(s, S_RUN_FIND);
    if (!st)
        return -1;
    db_bind_int64(st, 1, plan_id);
    db_bind_text(st, 2, r->name, -1);
    int rc = db_step(st);
    if (rc != SQLITE_ROW) {
        db_reset(st);
        if (rc != SQLITE_DONE)
            return sink_fail_sql(s);
        if (r->append)
            return ingest_report_fail(s->rep, "run.append",
                               "run \"%s\" of plan \"%s\" is not stored (an appending run adds to a stored run)",
                               r->name, r->plan);
        return 0;
    }
    int64_t old_run = db_column_int64(st, 0), old_archive = db_column_int64(st, 1);
    char *old_name = sink_column_dup(st, 2);
    if (r->append) {
        rc = check_append(s, r, st);
        db_reset(st);
        free(old_name);
        if (rc)
            return -1;
        if (old_archive == s->archive_id)
            return ingest_report_fail(s->rep, "run.append", "run \"%s\" of plan \"%s\" is opened by this archive",
                               r->name, r->plan);
        s->run_id = old_run;
        s->appending = 1;
        s->here.appended++;
        s->here.rows++;
        return 1;
    }
    db_reset(st);
    if (!s->replace) {
        ingest_report_fail(s->rep, "run.run", "run \"%s\" of plan \"%s\" is already stored (archive %lld \"%s\")%s",
                    r->name, r->plan, (long long)old_archive, old_name ? old_name : "?",
                    s->conflict_hint ? s->conflict_hint : "");
        free(old_name);
        return -1;
    }
    rc = replace_run(s, r, old_run, old_archive, old_name);
    free(old_name);
    return rc ? -1 : 0;
}

/* Inserts the new run r (its plan, host, treatment and baseline by id),
 * its attributes as canonical JSON, by statement which: S_RUN_INSERT, or
 * S_RUN_INSERT_NEW, which inserts nothing when a run of the plan and name
 * is stored. 1 when inserted, 0 when S_RUN_INSERT_NEW found one stored,
 * -1 with the error reported. */
static int insert_run(struct sink *s, const struct sink_run *r, int which, int64_t plan_id, int64_t host_id,
                      int64_t t_id, int64_t b_id)
{
    struct db_stmt *st = sink_stmt(s, which);
    if (!st)
        return -1;
    db_bind_int64(st, 1, plan_id);
    db_bind_text(st, 2, r->name, -1);
    db_bind_int64(st, 3, host_id);
    if (r->position)
        db_bind_int64(st, 4, r->position);
    else
        db_bind_null(st, 4);
    sink_bind_opt_text(st, 5, r->source);
    sink_bind_opt_text(st, 6, r->started_at);
    sink_bind_opt_text(st, 7, r->ended_at);
    if (r->treatment) {
        db_bind_int64(st, 8, t_id);
        db_bind_int64(st, 9, b_id);
    } else {
        db_bind_null(st, 8);
        db_bind_null(st, 9);
    }
    json_decref(s->attrs);
    s->attrs = json_object();
    const char *key;
    json_t *v;
    int bad = !s->attrs;
    json_object_foreach(bad ? NULL : r->attributes, key, v) {
        if ((bad = add_attribute(s, key, v)) != 0)
            break;
    }
    sb_reset(&s->text);
    if (bad || json_canonical(s->attrs, &s->text))
        return ingest_report_oom(s->rep);
    db_bind_text(st, 10, s->text.buf, (int)s->text.len);
    db_bind_int64(st, 11, s->archive_id);
    sqlite3_int64 got = 0;
    int rc = db_step_insert_id(st, &got);
    s->run_id = got;
    db_reset(st);
    if (rc == SQLITE_DONE && which == S_RUN_INSERT_NEW)
        return 0;
    if (rc != SQLITE_ROW)
        return rc == SQLITE_DONE ? ingest_report_fail(s->rep, NULL, "cannot store: no id for the new row")
                                 : sink_fail_sql(s);
    s->here.runs++;
    s->here.rows++;
    return 1;
}

int sink_run(struct sink *s, const struct sink_run *r)
{
    int64_t plan_id = 0, host_id = 0, t_id = 0, b_id = 0;
    s->run_id = 0;
    s->appending = 0;
    s->start_given = r->started_at != NULL;
    s->start_set = 0;
    s->n_series_lines = 0;
    idmap_clear(&s->cell_unit);
    idmap_clear(&s->series_keys);
    /* PostgreSQL: the series of the runs before are sent first (a run
     * --replace deletes may be one of them; ids in the order given). On
     * SQLite the last run's history points are written (history.c), as
     * its series' triggers would have before. */
    if (sink_copy_flush(s) || sink_history_flush(s))
        return -1;
    if (sink_name_id(s, &s->plans, r->plan, &plan_id) || sink_name_id(s, &s->hosts, r->host, &host_id))
        return -1;
    if (r->treatment && (sink_name_id(s, &s->variants, r->treatment, &t_id) || sink_name_id(s, &s->variants, r->baseline, &b_id)))
        return -1;
    /* A new run in one statement (S_RUN_INSERT_NEW); one stored already
     * is read, then refused or (--replace) deleted. */
    int rc = r->append || s->replace ? 0 : insert_run(s, r, S_RUN_INSERT_NEW, plan_id, host_id, t_id, b_id);
    if (rc)
        return rc < 0 ? -1 : 0;
    rc = stored_run(s, r, plan_id);
    if (rc)
        return rc < 0 ? -1 : 0;
    return insert_run(s, r, S_RUN_INSERT, plan_id, host_id, t_id, b_id) < 0 ? -1 : 0;
}

int sink_appending(const struct sink *s)
{
    return s->appending;
}

int sink_run_has_start(const struct sink *s)
{
    return s->start_given;
}

int sink_run_attributes(struct sink *s, json_t *attrs)
{
    if (s->appending)
        return 0; /* the run keeps what it was first stored with */
    const char *key;
    json_t *v;
    json_object_foreach(attrs, key, v) {
        if (json_object_get(s->attrs, key) || json_is_null(v))
            continue;
        if (add_attribute(s, key, v))
            return ingest_report_oom(s->rep);
    }
    sb_reset(&s->text);
    if (json_canonical(s->attrs, &s->text))
        return ingest_report_oom(s->rep);
    struct db_stmt *st = sink_stmt(s, S_RUN_ATTRS_SET);
    if (!st)
        return -1;
    db_bind_text(st, 1, s->text.buf, (int)s->text.len);
    db_bind_int64(st, 2, s->run_id);
    return sink_step(s, st);
}

int sink_run_source(struct sink *s, const char *rev)
{
    if (s->appending)
        return 0;
    struct db_stmt *st = sink_stmt(s, S_RUN_SOURCE_SET);
    if (!st)
        return -1;
    db_bind_text(st, 1, rev, -1);
    db_bind_int64(st, 2, s->run_id);
    return sink_step(s, st);
}

int sink_run_started_at(struct sink *s, const char *t)
{
    double secs;
    if (s->appending || s->start_given || !rfc3339_parse(t, &secs))
        return 0;
    if (s->start_set && secs >= s->start_best)
        return 0;
    struct db_stmt *st = sink_stmt(s, S_RUN_START_SET);
    if (!st)
        return -1;
    db_bind_text(st, 1, t, -1);
    db_bind_int64(st, 2, s->run_id);
    if (sink_step(s, st))
        return -1;
    s->start_set = 1;
    s->start_best = secs;
    return 0;
}

