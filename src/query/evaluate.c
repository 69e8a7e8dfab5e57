/* Evaluating a saved query: resolve and check its parameters, check its
 * needs, run it read-only, sum up its outcome, judge whether the rule was
 * fixed before the plan, record it in the verdict history. */
#include "query/evaluate.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fnshared/numfmt.h"
#include "query/param_check.h"
#include "query/pg_sql.h"
#include "query/rules.h"
#include "query/schema_hash.h"
#include "store/dialect.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/text.h"
#include "version.h"
#include "util/xalloc.h"

/* ---- parameters ---- */

static int unknown_param(const struct saved_query *q, const char *name, char **err)
{
    const char **names = xcalloc((size_t)q->nparams + 1, sizeof *names);
    for (int i = 0; names && i < q->nparams; i++)
        names[i] = q->params[i].name;
    char *m = suggest_unknown("parameter", "parameters", name, names, names ? (size_t)q->nparams : 0);
    bd_fail(err, "%s", m);
    free(m);
    free(names);
    return EXIT_USAGE;
}

int evaluation_resolve(const struct saved_query *q, const struct params *given, struct resolved_params *rp,
                       char **err)
{
    rp->n = q->nparams;
    rp->v = xcalloc((size_t)q->nparams + 1, sizeof *rp->v);
    if (!rp->v)
        return bd_fail(err, "out of memory"), EXIT_FAIL;
    for (int i = 0; i < given->n; i++)
        if (!saved_query_param(q, given->v[i].name))
            return unknown_param(q, given->v[i].name, err);
    for (int i = 0; i < q->nparams; i++) {
        const struct saved_param *p = &q->params[i];
        const char *v = params_get(given, p->name);
        if (!v && !p->has_default) {
            bd_fail(err, "missing --param %s=VALUE: %s", p->name, p->description);
            return EXIT_USAGE;
        }
        if (!v && strcmp(p->def, "null") == 0) {
            param_value_null(&rp->v[i]);
            continue;
        }
        char *why = NULL;
        if (param_value_parse(&p->type, v ? v : p->def, &rp->v[i], &why)) {
            bd_fail(err, "--param %s=%s: %s", p->name, v ? v : p->def, why);
            free(why);
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

void resolved_params_free(struct resolved_params *rp)
{
    for (int i = 0; rp->v && i < rp->n; i++)
        free(rp->v[i].own);
    free(rp->v);
    rp->v = NULL;
    rp->n = 0;
}

/* Binds every parameter of st by name; -1 with *err for one the header
 * does not declare or a positional '?'. */
static int bind_all(struct db_stmt *st, const struct saved_query *q, const struct resolved_params *rp, const char *what,
                    char **err)
{
    for (int i = 1; i <= db_bind_parameter_count(st); i++) {
        const char *name = db_bind_parameter_name(st, i);
        if (!name)
            return bd_fail(err, "query %s (%s): %s uses a positional parameter '?'; use named parameters (:name)",
                           q->name, q->source, what);
        int k;
        for (k = 0; k < q->nparams; k++)
            if (strcmp(q->params[k].name, name + 1) == 0)
                break;
        if (k == q->nparams)
            return bd_fail(err, "query %s (%s): %s uses %s, which its header does not declare (-- param: %s ...)",
                           q->name, q->source, what, name, name + 1);
        if (param_value_bind(st, i, &rp->v[k]) != SQLITE_OK)
            return bd_fail(err, "query %s: cannot bind %s: %s", q->name, name, db_errmsg(db_stmt_db(st)));
    }
    return 0;
}

/* The read-only guard around a saved query's statements (store.h,
 * store_begin_readonly): SQL from anywhere, so on PostgreSQL read as
 * benchdb_reader where the session may. Returns 0, or -1 with *err. */
static int guard_on(struct db *db, const struct saved_query *q, const struct store_guard_reads *reads, char **err)
{
    if (store_begin_readonly(db, STORE_RO_UNTRUSTED, reads) == SQLITE_OK)
        return 0;
    return bd_fail(err, "query %s: cannot begin reading the store: %s", q->name, db_errmsg(db));
}

static void guard_off(struct db *db) { store_end_readonly(db); }

/* The guard refused the query, when prepared or (a pragma_*() function) as
 * it ran. */
static int refused(struct db *db, const struct saved_query *q, char **err)
{
    return bd_fail(err, "query %s (%s): is not read-only; a saved query may only read the store (%s)", q->name,
                   q->source, store_guard_refusal() ? store_guard_refusal() : db_errmsg(db));
}

/* A statement of q (the query or a needs check) failed as it ran. */
static int run_failed(struct db *db, const struct saved_query *q, int rc, char **err)
{
    if (rc == SQLITE_NOMEM)
        return bd_fail(err, "query %s: out of memory", q->name);
    /* A table-valued pragma_*() meets the guard as it runs. */
    if (db_errcode(db) == SQLITE_AUTH)
        return refused(db, q, err);
    if (db_errcode(db) == SQLITE_CORRUPT)
        return bd_fail(err, "query %s: the store is damaged (%s): " STORE_DAMAGED_ADVICE, q->name,
                       db_errmsg(db));
    /* Bad JSON stored around the schema's CHECKs: check names the row. */
    int json = strcmp(db_errmsg(db), "malformed JSON") == 0;
    return bd_fail(err, "query %s: %s%s", q->name, db_errmsg(db),
                   json ? " (a value in the store is not valid JSON: 'benchdb check' names its row)" : "");
}

/* PostgreSQL: the saved query's SQL (*sql, SQLite's) checked as on SQLite
 * and written for the server. Recorded or not, each statement of a saved
 * query (its needs too) first prepares under SQLite's read-only guard on
 * benchdb's schema (schema_pg_check): so only benchdb's tables and views
 * and the functions both engines have reach the server, never
 * pg_read_file, lo_*, set_config or dblink; and the rewrite for the server
 * refuses what PostgreSQL would read otherwise than SQLite did (pg_sql.c).
 * *sql becomes the server's text, held in pg. 0, or -1 with *err. */
static int pg_checked(struct db *db, const struct saved_query *q, const char **sql, const char *what,
                      const struct store_guard_reads *reads, struct strbuf *pg, char **err)
{
    char *why = NULL;
    int checked = schema_pg_check(db, *sql, reads, &why);
    if (checked == -2) /* as the guard refuses it on SQLite */
        bd_fail(err, "query %s (%s): is not read-only; a saved query may only read the store (%s)", q->name,
                q->source, why ? why : "out of memory");
    else if (checked)
        bd_fail(err, "query %s (%s): %s is not SQL a saved query may run on a server: %s (on PostgreSQL a saved "
                     "query is first prepared under SQLite's read-only guard on benchdb's schema: the SQL both engines "
                     "run, benchdb's tables and views, the functions of both; docs/postgresql.md)",
                q->name, q->source, what, why ? why : "out of memory");
    if (checked) {
        free(why);
        return -1;
    }
    if (pg_sql_typed_text(q, *sql, pg, &why)) {
        if (why && strncmp(why, "query ", 6) == 0) /* it names the query */
            bd_fail(err, "%s", why);
        else
            bd_fail(err, "query %s (%s): %s", q->name, q->source, why ? why : "out of memory");
        free(why);
        sb_free(pg);
        return -1;
    }
    *sql = xsb_text(pg);
    return 0;
}

/* Prepares one read-only statement of a saved query under the read-only
 * guard (a saved query may come from anywhere). On success the guard stays
 * on, for a pragma_*() function meets it as the statement runs: the caller
 * turns it off after finalizing. what names the part ("the query", "needs line 7").
 * reads (or NULL) hears of every table and view the statement reads. */
static int prepare_guarded(struct db *db, const struct saved_query *q, const char *sql, const char *what,
                           const struct store_guard_reads *reads, struct db_stmt **st, char **err)
{
    const char *tail = NULL;
    *st = NULL;
    if (guard_on(db, q, reads, err))
        return -1;
    struct strbuf pg = {0};
    /* Engine branch: a server runs only what SQLite's guard passed on
     * benchdb's schema (the guard is SQLite's authorizer; pg_checked). */
    if (!db_sqlite(db) && pg_checked(db, q, &sql, what, reads, &pg, err)) {
        guard_off(db);
        return -1;
    }
    int prc = db_prepare_tail(db, sql, st, &tail);
    if (prc == SQLITE_OK && *st && (prc = db_describe(*st)) != SQLITE_OK) {
        db_finalize(*st);
        *st = NULL;
    }
    if (prc != SQLITE_OK) {
        guard_off(db);
        sb_free(&pg);
        if (db_errcode(db) == SQLITE_AUTH)
            return refused(db, q, err);
        return bd_fail(err, "query %s (%s): %s: %s", q->name, q->source, what, db_errmsg(db));
    }
    const char *problem = !*st ? "holds no SQL statement"
                          : !sql_is_blank(tail) ? "holds more than one statement; a saved query is one statement"
                          : !db_stmt_readonly(*st) ? "is not read-only; a saved query may only read the store"
                                                        : NULL;
    int more = problem != NULL;
    if (problem) {
        db_finalize(*st);
        *st = NULL;
        guard_off(db);
        bd_fail(err, "query %s (%s): %s", q->name, q->source, problem);
    }
    sb_free(&pg);
    return more ? -1 : 0;
}

/* ---- needs ---- */

/* The unmet message with each :NAME of a parameter replaced by its value. */
static char *unmet_message(const struct saved_query *q, const struct resolved_params *rp, const char *msg)
{
    struct strbuf sb = {0};
    for (const char *p = msg; *p;) {
        if (*p == ':' && (isalpha((unsigned char)p[1]) || p[1] == '_')) {
            size_t n = 1;
            while (isalnum((unsigned char)p[n]) || p[n] == '_')
                n++;
            int k;
            for (k = 0; k < q->nparams; k++)
                if (strlen(q->params[k].name) == n - 1 && strncmp(q->params[k].name, p + 1, n - 1) == 0)
                    break;
            if (k < q->nparams) {
                const struct param_value *v = &rp->v[k];
                char buf[40];
                if (v->sqlite_type == SQLITE_TEXT)
                    sb_puts(&sb, v->s);
                else if (v->sqlite_type == SQLITE_INTEGER)
                    sb_printf(&sb, "%lld", v->i);
                else if (v->sqlite_type == SQLITE_FLOAT)
                    numfmt_real(buf, v->d), sb_puts(&sb, buf);
                else
                    sb_puts(&sb, "null");
                p += n;
                continue;
            }
        }
        sb_putc(&sb, *p++);
    }
    return xsb_detach(&sb);
}

int evaluation_check_needs(struct db *db, const struct saved_query *q, const struct resolved_params *rp, char **err)
{
    for (int i = 0; i < q->nneeds; i++) {
        const struct saved_need *nd = &q->needs[i];
        char *sql = bd_strdupf("SELECT (%s)", nd->check), *what = bd_strdupf("needs (line %d)", nd->line);
        struct db_stmt *st;
        int rc = prepare_guarded(db, q, sql, what, NULL, &st, err) ? -1 : bind_all(st, q, rp, what, err);
        int met = 0;
        if (rc == 0) {
            int src = db_step(st);
            if (src == SQLITE_ROW) {
                int t = db_column_type(st, 0);
                met = (t == SQLITE_INTEGER || t == SQLITE_FLOAT) && db_column_double(st, 0) != 0;
            } else
                rc = run_failed(db, q, src, err);
        }
        db_finalize(st);
        guard_off(db); /* again after a failed prepare: nothing to end then */
        free(sql);
        free(what);
        if (rc)
            return EXIT_FAIL;
        if (!met) {
            char *m = unmet_message(q, rp, nd->message);
            bd_fail(err, "%s", m);
            free(m);
            return EXIT_NO_ROWS;
        }
    }
    return EXIT_OK;
}

/* ---- running ---- */

int data_fingerprint_first(struct db *db, long long first, char out[65], long long *count, char **err)
{
    struct db_stmt *st;
    if (db_prepare(db, "SELECT sha256 FROM (SELECT sha256 FROM archive ORDER BY id LIMIT ?) AS a ORDER BY sha256",
                   &st) != SQLITE_OK)
        return bd_fail(err, "cannot compute the data fingerprint: %s", db_errmsg(db));
    /* Every row: the largest limit both engines take (SQLite reads -1 as
     * none, PostgreSQL refuses it). */
    db_bind_int64(st, 1, first < 0 ? INT64_MAX : first);
    struct sha256 h;
    sha256_init(&h);
    long long n = 0;
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        sha256_update(&h, db_column_text(st, 0), (size_t)db_column_bytes(st, 0));
        sha256_update(&h, "\n", 1);
        n++;
    }
    /* A fingerprint of part of the data would be a lie: fail instead. */
    if (rc != SQLITE_DONE)
        bd_fail(err, "cannot compute the data fingerprint: %s", db_errmsg(db));
    db_finalize(st);
    if (rc != SQLITE_DONE)
        return -1;
    unsigned char d[32];
    sha256_final(&h, d);
    sha256_hex(d, out);
    if (count)
        *count = n;
    return 0;
}

int data_fingerprint(struct db *db, char out[65], long long *count, char **err)
{
    return data_fingerprint_first(db, -1, out, count, err);
}

/* The header's column names must be columns of the statement. */
static int check_columns(const struct saved_query *q, struct db_stmt *st, char **err)
{
    int n = db_column_count(st);
    const char **cols = xcalloc((size_t)n + 1, sizeof *cols);
    if (!cols)
        return bd_fail(err, "out of memory");
    for (int c = 0; c < n; c++)
        cols[c] = db_column_name(st, c);
    struct {
        const char *key;
        char *const *names;
        int n;
    } lists[] = {
        {"outcome", &q->outcome, q->outcome != NULL},
        {"verdict", &q->verdict, q->verdict != NULL},
        {"show", q->show, q->nshow},
        {"key", q->keys, q->nkeys},
    };
    int rc = 0;
    for (size_t l = 0; l < sizeof lists / sizeof lists[0] && !rc; l++)
        for (int i = 0; i < lists[l].n && !rc; i++) {
            int found = 0;
            for (int c = 0; c < n && !found; c++)
                found = strcmp(cols[c], lists[l].names[i]) == 0;
            if (!found) {
                struct strbuf sb = {0};
                sb_put_name_list(&sb, cols, (size_t)n, 40);
                rc = bd_fail(err, "query %s (%s): %s: the query has no column '%s'; columns: %s", q->name, q->source,
                             lists[l].key, lists[l].names[i], xsb_text(&sb));
                sb_free(&sb);
            }
        }
    free(cols);
    return rc;
}

/* Effective parameters as JSON, as bound; whether only defaults were given
 * (the judged plan aside), and which were not. */
static void describe_params(const struct saved_query *q, const struct params *given, const struct resolved_params *rp,
                            struct evaluation *ev, int *defaults_only, struct strbuf *changed, const char **plan)
{
    struct strbuf pj = {0};
    sb_putc(&pj, '{');
    *defaults_only = 1;
    *plan = NULL;
    for (int i = 0; i < q->nparams; i++) {
        const struct saved_param *p = &q->params[i];
        const struct param_value *v = &rp->v[i];
        if (i)
            sb_puts(&pj, ", ");
        json_put_string(&pj, p->name, strlen(p->name));
        sb_puts(&pj, ": ");
        param_value_json(&pj, v);
        if (q->judges && strcmp(q->judges, p->name) == 0) {
            *plan = v->sqlite_type == SQLITE_TEXT ? v->s : NULL;
            continue;
        }
        if (!params_get(given, p->name))
            continue;
        struct param_value def;
        int same = 0;
        if (p->has_default && strcmp(p->def, "null") != 0 && param_value_parse(&p->type, p->def, &def, NULL) == 0)
            same = param_value_equal(&def, v);
        if (!same) {
            *defaults_only = 0;
            sb_printf(changed, "%s%s=%s", changed->len ? ", " : "", p->name, params_get(given, p->name));
        }
    }
    sb_putc(&pj, '}');
    ev->params_json = xsb_detach(&pj);
}

/* The note of a rule whose text no registered rule has. A rule of the
 * same name registered with another text (an edited file, or a shipped
 * query a newer benchdb changed) is named, with how to run that text:
 * only the registered text is what was fixed before the data. */
static int unregistered_note(struct db *db, const struct saved_query *q, const char *sha, struct evaluation *ev,
                             char **err)
{
    long long other = 0, count = 0;
    char other_sha[65] = "", fixed[TIME_TEXT_MAX] = "";
    int named = rule_find_named(db, q->name, &other, other_sha, fixed, &count, err);
    if (named < 0)
        return -1;
    if (!named)
        ev->registration_note = bd_strdupf("rule %s (sha256 %.12s) is not registered: 'benchdb rule register' fixes "
                                           "a rule before its data", q->name, sha);
    else
        ev->registration_note =
            bd_strdupf("rule %s (sha256 %.12s) is not registered: this text differs from the %s registered under "
                       "its name, rule %lld (sha256 %.12s, fixed at %s); 'benchdb rule show %lld > FILE.sql' writes "
                       "that text and 'benchdb query FILE.sql' judges with it",
                       q->name, sha, count > 1 ? "latest one" : "one", other, other_sha, fixed, other);
    return 0;
}

/* Whether a registered rule with this text was fixed before the judged
 * plan's earliest run started. */
static int judge_registration(struct db *db, const struct saved_query *q, const char *sha, const char *plan,
                              int defaults_only, const char *changed, struct evaluation *ev, long long *rule_id,
                              char **err)
{
    char fixed[TIME_TEXT_MAX] = "", ref[256] = "", start[TIME_TEXT_MAX] = "", refp[264] = "";
    int found = rule_find(db, sha, rule_id, fixed, ref, err);
    if (found < 0)
        return -1;
    if (!found) {
        *rule_id = 0;
        ev->registration = xstrdup("unregistered");
        return unregistered_note(db, q, sha, ev, err);
    }
    if (*ref)
        snprintf(refp, sizeof refp, " (%s)", ref);
    int known = plan_first_start(db, plan, start, err);
    int before = known == 1 ? time_precedes(db, fixed, start, err) : 0;
    if (known < 0 || before < 0)
        return -1;
    if (!known) {
        ev->registration = xstrdup("registered");
        ev->registration_note = bd_strdupf("rule %s (sha256 %.12s) was fixed at %s%s; plan %s records no start time, so "
                                           "whether that preceded it is unknown", q->name, sha, fixed, refp, plan);
    } else if (!before) {
        ev->registration = xstrdup("retroactive");
        ev->registration_note = bd_strdupf("rule %s (sha256 %.12s) was fixed at %s%s, after plan %s began (%s): applied "
                                           "retroactively", q->name, sha, fixed, refp, plan, start);
    } else if (!defaults_only) {
        ev->registration = xstrdup("retroactive");
        ev->registration_note = bd_strdupf("rule %s (sha256 %.12s) was fixed at %s%s, before plan %s began (%s), but with "
                                           "other parameters (%s): applied retroactively",
                                           q->name, sha, fixed, refp, plan, start, changed);
    } else {
        ev->registration = xstrdup("pre-registered");
        ev->registration_note = bd_strdupf("rule %s (sha256 %.12s) was fixed at %s%s, before plan %s began (%s): "
                                           "pre-registered", q->name, sha, fixed, refp, plan, start);
    }
    return 0;
}

/* The outcome column's rows that hold, and the one-line outcome. */
static void sum_up(const struct saved_query *q, struct evaluation *ev)
{
    const struct rowset *rs = &ev->rows;
    ev->outcome_column = q->outcome ? rowset_column(rs, q->outcome) : -1;
    for (size_t r = 0; ev->outcome_column >= 0 && r < rs->nrow; r++) {
        sqlite3_value *v = rowset_cell(rs, r, ev->outcome_column);
        int t = sqlite3_value_type(v);
        if (t == SQLITE_INTEGER || t == SQLITE_FLOAT)
            ev->holding += sqlite3_value_double(v) != 0;
        else if (t != SQLITE_NULL)
            ev->outcome_text = 1;
    }
    int vc = q->verdict ? rowset_column(rs, q->verdict) : -1;
    if (vc >= 0 && rs->nrow > 0 && sqlite3_value_type(rowset_cell(rs, 0, vc)) != SQLITE_NULL)
        ev->verdict = value_text(rowset_cell(rs, 0, vc));
    if (ev->verdict)
        ev->outcome = xstrdup(ev->verdict);
    else if (ev->outcome_column >= 0 && rs->nrow > 0 && ev->holding == rs->nrow)
        ev->outcome = bd_strdupf("%s holds in all %zu row%s", q->outcome, rs->nrow, rs->nrow == 1 ? "" : "s");
    else if (ev->outcome_column >= 0 && rs->nrow > 0)
        ev->outcome = bd_strdupf("%s holds in %zu of %zu rows", q->outcome, ev->holding, rs->nrow);
    else
        ev->outcome = bd_strdupf("%zu row%s", rs->nrow, rs->nrow == 1 ? "" : "s");
}

/* Why a write to the store failed (rc: the extended code), for a person.
 * A role that may only read is told who writes, as every command that
 * writes says it (store_may_change), and *for_good set: running it again
 * changes nothing. */
static char *write_failure(struct db *db, int rc, int *for_good)
{
    char *role = NULL;
    if ((rc & 0xff) == SQLITE_READONLY && store_may_change(db, "INSERT", "evaluation", &role) && role) {
        *for_good = 1;
        return role;
    }
    free(role);
    switch (rc & 0xff) {
    case SQLITE_BUSY: return store_busy_text();
    case SQLITE_FULL: return bd_strdupf("the disk is full (%s)", db_errmsg(db));
    case SQLITE_READONLY: return bd_strdupf("the store cannot be written (%s)", db_errmsg(db));
    case SQLITE_NOMEM: return bd_strdupf("out of memory");
    default: return bd_strdupf("%s", db_errmsg(db));
    }
}

int evaluation_recordable(const struct evaluation *ev, char **err)
{
    size_t row, at, n = strlen(ev->params_json);
    int col;
    unsigned char byte;
    if (utf8_invalid_at(ev->params_json, n) < n)
        return bd_fail(err, "cannot record the evaluation: a parameter's value is not valid UTF-8");
    if (!rowset_text_invalid(&ev->rows, &row, &col, &at, &byte))
        return 0;
    char *name = text_escape_controls(ev->rows.names[col]);
    const char *what = byte ? "a byte that is not UTF-8" : "a NUL byte";
    if (row == SIZE_MAX)
        bd_fail(err, "cannot record the evaluation: the name of column %d (%s) holds %s (0x%02x at byte %zu): "
                     "JSON text cannot hold it; name the column in UTF-8",
                col + 1, name, what, byte, at + 1);
    else
        bd_fail(err, "cannot record the evaluation: row %zu, column %s holds %s (0x%02x at byte %zu): JSON text "
                     "cannot hold it; return it as bytes instead (hex(%s) or CAST(%s AS BLOB))",
                row + 1, name, what, byte, at + 1, name, name);
    free(name);
    return -1;
}

/* Records ev; -1 with *err "cannot record the evaluation: WHY". */
static int record(struct db *db, const struct saved_query *q, const char *sha, struct evaluation *ev, char **err)
{
    const char *plan = ev->judged_plan;
    long long rule_id = ev->rule_id;
    char fp[65], when[TIME_TEXT_MAX];
    long long narch = 0;
    char *why = NULL;
    /* The time limit is the analysis's: recording is bounded work (the
     * result's size is limited), and must not be cut halfway. */
    store_deadline_clear(db);
    if (data_fingerprint(db, fp, &narch, &why)) {
        bd_fail(err, "cannot record the evaluation: %s", why);
        free(why);
        return -1;
    }
    time_now_rfc3339(when, 1);
    /* The record must commit on its own (then SQLITE_DONE from its step
     * means committed): inside a transaction something left open, it would
     * be rolled back at close after being reported. */
    if (!db_autocommit(db))
        return bd_fail(err, "cannot record the evaluation: a transaction is open on the store");
    if (evaluation_recordable(ev, err)) {
        ev->record_failed = 2;
        return -1;
    }
    struct strbuf rows = {0};
    if (rowset_json(&ev->rows, &rows, 0))
        return bd_fail(err, "cannot record the evaluation: out of memory");
    size_t max = db_max_value_bytes(db);
    if (rows.len > max) {
        bd_fail(err, "cannot record the evaluation: its rows take %zu bytes as JSON, more than the store keeps in one "
                     "value (%zu)", rows.len, max);
        sb_free(&rows);
        return -1;
    }
    struct db_stmt *st;
    int ncols = 16;
    int rc = db_prepare(db,
                        "INSERT INTO evaluation(query_name, query_sha256, query_text, params, rows, row_count, "
                        "outcome, evaluated_at, duration_ms, tool_version, data_fingerprint, archive_count, "
                        "judged_plan, registration, rule_id, schema_sha256) "
                        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id",
                        &st);
    /* Each bind's code is kept apart: or-ing codes makes a new one. */
    int i = 0;
    while (rc == SQLITE_OK && ++i <= ncols) {
        switch (i) {
        case 1: rc = db_bind_text(st, i, q->name, -1); break;
        case 2: rc = db_bind_text(st, i, sha, -1); break;
        case 3: rc = db_bind_text(st, i, q->text, -1); break;
        case 4: rc = db_bind_text(st, i, ev->params_json, -1); break;
        case 5: rc = db_bind_text(st, i, rows.buf, (int)rows.len); break;
        case 6: rc = db_bind_int64(st, i, (sqlite3_int64)ev->rows.nrow); break;
        case 7: rc = db_bind_text(st, i, ev->outcome, -1); break;
        case 8: rc = db_bind_text(st, i, when, -1); break;
        case 9: rc = db_bind_double(st, i, ev->ms); break;
        case 10: rc = db_bind_text(st, i, BENCHDB_VERSION, -1); break;
        case 11: rc = db_bind_text(st, i, fp, -1); break;
        case 12: rc = db_bind_int64(st, i, narch); break;
        case 13: rc = plan ? db_bind_text(st, i, plan, -1) : SQLITE_OK; break;
        case 14: rc = ev->registration ? db_bind_text(st, i, ev->registration, -1) : SQLITE_OK; break;
        case 15: rc = rule_id ? db_bind_int64(st, i, rule_id) : SQLITE_OK; break;
        case 16: rc = *ev->schema_sha256 ? db_bind_text(st, i, ev->schema_sha256, -1) : SQLITE_OK; break;
        }
    }
    if (rc == SQLITE_OK) {
        rc = db_step(st);
        if (rc == SQLITE_ROW)
            ev->id = db_column_int64(st, 0);
        rc = rc == SQLITE_ROW && (rc = db_step(st)) == SQLITE_DONE ? SQLITE_OK : rc == SQLITE_ROW ? SQLITE_ERROR : rc;
    }
    if (rc != SQLITE_OK) {
        int for_good = 0;
        why = write_failure(db, rc, &for_good);
        if (for_good)
            ev->record_failed = 2;
        bd_fail(err, "cannot record the evaluation: %s", why);
        free(why);
    }
    db_finalize(st);
    sb_free(&rows);
    if (rc != SQLITE_OK) {
        ev->id = 0;
        return -1;
    }
    return 0;
}

enum { RUN_RECORD = 1, RUN_SCHEMA = 2, RUN_RERUN = 4 };

static int run_query(struct db *db, const struct saved_query *q, const struct params *given,
                     const struct resolved_params *rp, int how, const struct rowset_limits *lim, struct evaluation *ev,
                     char **err)
{
    static const struct rowset_limits defaults = {ROWSET_MAX_ROWS_DEFAULT, ROWSET_MAX_BYTES_DEFAULT};
    memset(ev, 0, sizeof *ev);
    ev->outcome_column = -1;
    struct db_stmt *st;
    struct schema_reads reads = {0};
    const struct store_guard_reads notes = {schema_reads_note, &reads};
    int want_schema = (how & (RUN_RECORD | RUN_SCHEMA)) != 0;
    struct schema_reads *set = how & RUN_RERUN ? &ev->read_set : NULL;
    if (prepare_guarded(db, q, q->sql, "the query", want_schema ? &notes : NULL, &st, err))
        return schema_reads_free(&reads), -1;
    /* The schema the statement read, while the guard holds its names
     * (schema_hash.h: each engine's own). */
    if (check_columns(q, st, err) || bind_all(st, q, rp, "the query", err) ||
        (want_schema && schema_hash_db(db, &reads, 1, ev->schema_sha256, set, err))) {
        db_finalize(st);
        guard_off(db);
        schema_reads_free(&reads);
        return -1;
    }
    schema_reads_free(&reads);
    int defaults_only;
    const char *plan;
    struct strbuf changed = {0};
    sb_puts(&changed, "");
    describe_params(q, given, rp, ev, &defaults_only, &changed, &plan);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = rowset_collect_db_limited(&ev->rows, st, lim ? lim : &defaults);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    db_finalize(st);
    guard_off(db);
    ev->ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (rc == ROWSET_OVER_ROWS || rc == ROWSET_OVER_BYTES) {
        char *what = rowset_over_text(rc, lim ? lim : &defaults);
        ev->stopped = rc;
        bd_fail(err, "query %s: %s", q->name, what);
        free(what);
        sb_free(&changed);
        return -1;
    }
    if (rc != SQLITE_DONE) {
        sb_free(&changed);
        return run_failed(db, q, rc, err);
    }
    sum_up(q, ev);
    if (how & RUN_RERUN) {
        sb_free(&changed);
        return 0;
    }

    char sha[65];
    sha256_hex_of(q->text, strlen(q->text), sha);
    if (plan && !(ev->judged_plan = xstrdup(plan))) {
        sb_free(&changed);
        return bd_fail(err, "out of memory");
    }
    rc = q->judges && plan ? judge_registration(db, q, sha, plan, defaults_only, xsb_text(&changed), ev, &ev->rule_id,
                                                err)
                           : 0;
    sb_free(&changed);
    if (rc || !(how & RUN_RECORD))
        return rc;
    if (record(db, q, sha, ev, err)) {
        ev->record_failed += !ev->record_failed;
        return -1;
    }
    return 0;
}

int evaluation_run(struct db *db, const struct saved_query *q, const struct params *given,
                   const struct resolved_params *rp, int rec, const struct rowset_limits *lim, struct evaluation *ev,
                   char **err)
{
    return run_query(db, q, given, rp, rec == EVAL_RECORD_LATER ? RUN_SCHEMA : rec ? RUN_RECORD : 0, lim, ev, err);
}

int evaluation_record(struct db *db, const struct saved_query *q, struct evaluation *ev, char **err)
{
    char sha[65];
    sha256_hex_of(q->text, strlen(q->text), sha);
    if (record(db, q, sha, ev, err)) {
        ev->record_failed += !ev->record_failed;
        return -1;
    }
    return 0;
}

int evaluation_judge(struct db *db, const struct saved_query *q, const struct resolved_params *rp,
                     struct evaluation *ev, char **err)
{
    const char *plan = NULL;
    int defaults_only = 1;
    struct strbuf changed = {0};
    sb_puts(&changed, "");
    /* As describe_params judges the parameters given: each value against
     * its default (one not given is its default). */
    for (int i = 0; i < q->nparams; i++) {
        const struct saved_param *p = &q->params[i];
        const struct param_value *v = &rp->v[i];
        if (q->judges && strcmp(q->judges, p->name) == 0) {
            plan = v->sqlite_type == SQLITE_TEXT ? v->s : NULL;
            continue;
        }
        struct param_value def;
        int same = p->has_default && (strcmp(p->def, "null") == 0 ? v->sqlite_type == SQLITE_NULL
                                      : param_value_parse(&p->type, p->def, &def, NULL) == 0 &&
                                            param_value_equal(&def, v));
        if (!same) {
            defaults_only = 0;
            sb_printf(&changed, "%s%s=", changed.len ? ", " : "", p->name);
            param_value_json(&changed, v);
        }
    }
    int rc = 0;
    if (plan && !(ev->judged_plan = xstrdup(plan)))
        rc = bd_fail(err, "out of memory");
    if (rc == 0 && q->judges && plan) {
        char sha[65];
        sha256_hex_of(q->text, strlen(q->text), sha);
        rc = judge_registration(db, q, sha, plan, defaults_only, xsb_text(&changed), ev, &ev->rule_id, err);
    }
    sb_free(&changed);
    return rc;
}

int evaluation_rerun(struct db *db, const struct saved_query *q, const struct resolved_params *rp,
                     const struct rowset_limits *lim, struct evaluation *ev, char **err)
{
    const struct params none = {0};
    return run_query(db, q, &none, rp, RUN_SCHEMA | RUN_RERUN, lim, ev, err);
}

void evaluation_free(struct evaluation *ev)
{
    rowset_free(&ev->rows);
    free(ev->params_json);
    free(ev->outcome);
    free(ev->verdict);
    free(ev->registration);
    free(ev->registration_note);
    free(ev->judged_plan);
    free(ev->empty_why);
    schema_reads_free(&ev->read_set);
    memset(ev, 0, sizeof *ev);
}

int query_evaluate(struct db *db, const struct saved_query *q, const struct params *given, int rec,
                   const struct rowset_limits *lim, struct evaluation *ev, char **err)
{
    struct resolved_params rp = {0};
    memset(ev, 0, sizeof *ev);
    int rc = evaluation_resolve(q, given, &rp, err);
    if (rc == EXIT_OK)
        rc = param_check_names(db, q, given, rp.v, err);
    if (rc == EXIT_OK)
        rc = evaluation_check_needs(db, q, &rp, err);
    if (rc == EXIT_OK && evaluation_run(db, q, given, &rp, rec, lim, ev, err))
        rc = EXIT_FAIL;
    if (rc == EXIT_OK && ev->rows.nrow == 0)
        ev->empty_why = param_explain_empty(db, q, rp.v);
    resolved_params_free(&rp);
    return rc;
}

int evaluation_gate(const struct saved_query *q, const struct evaluation *ev, char **err)
{
    if (!q->outcome)
        return bd_fail(err, "query %s has no '-- outcome: COLUMN' header line to gate on", q->name), EXIT_USAGE;
    if (ev->outcome_text)
        return bd_fail(err, "query %s: --gate: the outcome column %s holds text; it must hold 1 (holds) or 0 (does "
                            "not), or NULL", q->name, q->outcome), EXIT_FAIL;
    if (!ev->rows.nrow)
        return EXIT_NO_ROWS;
    return ev->holding == ev->rows.nrow ? EXIT_OK : EXIT_NOT_HELD;
}
