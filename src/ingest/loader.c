/* The loader: one archive = one transaction. Lines come from the reader,
 * each is parsed by jansson, validated as a record of benchdb-run/1 and
 * inserted with statements prepared once per command. Ids of plans, hosts,
 * variants and benchmarks are cached across archives (and forgotten on a
 * rollback, which may have removed rows they name). */
#include "ingest/ingest.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ingest/format.h"
#include "ingest/idmap.h"
#include "ingest/pipeline.h"
#include "stats/sum.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "version.h"

/* The sha256 column of an archive row while its stream is still being
 * read from a pipe; replaced before the commit. */
static const char pending_sha[] = "0000000000000000000000000000000000000000000000000000000000000000";

enum stmt_id {
    S_ARCHIVE_BY_SHA, S_ARCHIVE_INSERT, S_ARCHIVE_UPDATE, S_ARCHIVE_DELETE_EMPTY,
    S_PLAN_GET, S_PLAN_INSERT, S_HOST_GET, S_HOST_INSERT, S_VARIANT_GET, S_VARIANT_INSERT,
    S_BENCH_GET, S_BENCH_INSERT,
    S_RUN_FIND, S_RUN_DELETE, S_RUN_INSERT, S_SERIES_INSERT, S_SAMPLE_INSERT, S_GATE_INSERT, S_EVENT_INSERT,
    S_CHUNK_INSERT, S_COUNT
};

static const char *const stmt_sql[S_COUNT] = {
    [S_ARCHIVE_BY_SHA] = "SELECT id, name FROM archive WHERE sha256 = ?",
    [S_ARCHIVE_INSERT] = "INSERT INTO archive(sha256, name, size, format, content_encoding, stored_size, "
                         "ingested_at, tool_version) VALUES (?, ?, 0, '" ARCHIVE_FORMAT "', 'zstd', 0, ?, ?)",
    [S_ARCHIVE_UPDATE] = "UPDATE archive SET sha256 = ?, size = ?, content_encoding = ?, stored_size = ? WHERE id = ?",
    [S_ARCHIVE_DELETE_EMPTY] = "DELETE FROM archive WHERE id = ?1 AND NOT EXISTS "
                               "(SELECT 1 FROM run WHERE archive_id = ?1)",
    [S_PLAN_GET] = "SELECT id FROM plan WHERE name = ?",
    [S_PLAN_INSERT] = "INSERT INTO plan(name) VALUES (?)",
    [S_HOST_GET] = "SELECT id FROM host WHERE name = ?",
    [S_HOST_INSERT] = "INSERT INTO host(name) VALUES (?)",
    [S_VARIANT_GET] = "SELECT id FROM variant WHERE name = ?",
    [S_VARIANT_INSERT] = "INSERT INTO variant(name) VALUES (?)",
    [S_BENCH_GET] = "SELECT id FROM benchmark WHERE name = ? AND params = ?",
    [S_BENCH_INSERT] = "INSERT INTO benchmark(name, params) VALUES (?, ?)",
    [S_RUN_FIND] = "SELECT r.id, a.id, a.name FROM run r JOIN archive a ON a.id = r.archive_id "
                   "WHERE r.plan_id = ? AND r.name = ?",
    [S_RUN_DELETE] = "DELETE FROM run WHERE id = ?",
    [S_RUN_INSERT] = "INSERT INTO run(plan_id, name, host_id, position, source, started_at, ended_at, "
                     "treatment_id, baseline_id, attributes, archive_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [S_SERIES_INSERT] = "INSERT INTO series(run_id, benchmark_id, block, variant_id, fork, unit, n, total) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    [S_SAMPLE_INSERT] = "INSERT INTO sample(series_id, warmup, iteration, value) VALUES (?, ?, ?, ?)",
    [S_GATE_INSERT] = "INSERT INTO gate(run_id, name, passed, at, detail) VALUES (?, ?, ?, ?, ?)",
    [S_EVENT_INSERT] = "INSERT INTO event(run_id, name, value, at, detail) VALUES (?, ?, ?, ?, ?)",
    [S_CHUNK_INSERT] = "INSERT INTO archive_chunk(archive_id, seq, data) VALUES (?, ?, ?)",
};

/* A name table with its cache: plan, host, variant. */
struct names {
    enum stmt_id get, insert;
    struct idmap cache;
};

struct ingester {
    sqlite3 *db;
    struct ingest_options opt;
    struct ingest_hooks hooks;
    sqlite3_stmt *st[S_COUNT];
    struct names plans, hosts, variants;
    struct idmap benchmarks; /* name NUL canonical-params -> id */
    struct ingest_totals totals;

    /* The archive being loaded. */
    const char *shown;   /* its name in messages */
    struct pipeline pipe;
    int pipe_started;
    int64_t chunk_seq;
    int64_t archive_id;
    char *err;           /* "field: what" of the first error */
    uint64_t err_line;   /* the line it belongs to, or 0 */
    struct idmap warned; /* "record.key" already warned about */
    struct idmap runs_seen; /* plan NUL run -> line */
    struct strbuf notices;  /* printed after the commit */
    int64_t *replaced;      /* archives that lost a run to --replace */
    size_t n_replaced, cap_replaced;
    struct ingest_totals here; /* this archive's counts */
    uint64_t line;
    int reader_failed; /* the error came from reading, not from a record */

    /* The run being loaded. */
    int64_t run_id;
    struct idmap series_seen; /* benchmark, block, variant, fork -> line */
    struct idmap cell_unit;   /* benchmark, variant -> line << 8 | unit index */

    struct strbuf key, text; /* scratch */
};

static int fail(struct ingester *g, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct ingester *g, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = bd_vstrdupf(fmt, ap);
    va_end(ap);
    free(g->err);
    g->err = field && *field ? bd_strdupf("%s: %s", field, what) : bd_strdupf("%s", what);
    free(what);
    g->err_line = g->line;
    return -1;
}

static int fail_sql(struct ingester *g)
{
    return fail(g, NULL, "cannot store: %s", sqlite3_errmsg(g->db));
}

static void before_message(struct ingester *g)
{
    if (g->hooks.before_message)
        g->hooks.before_message(g->hooks.arg);
}

/* Steps a statement that returns no row (or whose row is not needed). */
static int step_done(struct ingester *g, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return fail_sql(g);
    return 0;
}

static int exec(struct ingester *g, const char *sql)
{
    if (sqlite3_exec(g->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return fail_sql(g);
    return 0;
}

/* ---- ids ---- */

static int name_id(struct ingester *g, struct names *t, const char *name, int64_t *id)
{
    size_t len = strlen(name);
    int64_t *hit = idmap_get(&t->cache, name, len);
    if (hit) {
        *id = *hit;
        return 0;
    }
    sqlite3_stmt *st = g->st[t->get];
    sqlite3_bind_text(st, 1, name, (int)len, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE)
            return fail_sql(g);
        st = g->st[t->insert];
        sqlite3_bind_text(st, 1, name, (int)len, SQLITE_STATIC);
        if (step_done(g, st))
            return -1;
        *id = sqlite3_last_insert_rowid(g->db);
    }
    if (idmap_put(&t->cache, name, len, *id))
        return fail(g, NULL, "out of memory");
    return 0;
}

static int benchmark_id(struct ingester *g, const char *name, const char *params, int64_t *id)
{
    sb_reset(&g->key);
    if (sb_puts(&g->key, name) || sb_putc(&g->key, 0) || sb_puts(&g->key, params))
        return fail(g, NULL, "out of memory");
    int64_t *hit = idmap_get(&g->benchmarks, g->key.buf, g->key.len);
    if (hit) {
        *id = *hit;
        return 0;
    }
    sqlite3_stmt *st = g->st[S_BENCH_GET];
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, params, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE)
            return fail_sql(g);
        st = g->st[S_BENCH_INSERT];
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, params, -1, SQLITE_STATIC);
        if (step_done(g, st))
            return -1;
        *id = sqlite3_last_insert_rowid(g->db);
    }
    if (idmap_put(&g->benchmarks, g->key.buf, g->key.len, *id))
        return fail(g, NULL, "out of memory");
    return 0;
}

static void forget_ids(struct ingester *g)
{
    idmap_clear(&g->plans.cache);
    idmap_clear(&g->hosts.cache);
    idmap_clear(&g->variants.cache);
    idmap_clear(&g->benchmarks);
}

/* ---- field validation ---- */

static const char *const run_keys[] = {"record", "format", "plan", "run", "host", "position", "source",
                                       "started_at", "ended_at", "treatment", "baseline", "attributes", NULL};
static const char *const samples_keys[] = {"record", "benchmark", "params", "block", "variant", "fork",
                                           "unit", "values", "warmup", NULL};
static const char *const gate_keys[] = {"record", "name", "passed", "at", "detail", NULL};
static const char *const event_keys[] = {"record", "name", "value", "at", "detail", NULL};

/* Warns once per archive about each key the format does not define. */
static int warn_unknown_keys(struct ingester *g, const char *rec, json_t *obj, const char *const *known)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        const char *const *k = known;
        while (*k && strcmp(*k, key) != 0)
            k++;
        if (*k)
            continue;
        sb_reset(&g->key);
        if (sb_printf(&g->key, "%s.%s", rec, key))
            return fail(g, NULL, "out of memory");
        if (idmap_get(&g->warned, g->key.buf, g->key.len))
            continue;
        if (idmap_put(&g->warned, g->key.buf, g->key.len, 1))
            return fail(g, NULL, "out of memory");
        before_message(g);
        bd_warning("%s:%llu: %s: unknown key (kept in the stored archive bytes)", g->shown,
                   (unsigned long long)g->line, g->key.buf);
    }
    return 0;
}

static void field_name(char *buf, size_t n, const char *rec, const char *key)
{
    snprintf(buf, n, "%s%s%s", rec, *rec ? "." : "", key);
}

static void describe(const json_t *v, char *buf, size_t n)
{
    json_describe(v, buf, n);
}

/* Fetches rec.key: returns 1 when present (and not null, for an optional
 * field), 0 when absent, -1 (error set) when required and absent. */
static int get_field(struct ingester *g, json_t *obj, const char *rec, const char *key, int required,
                     const char *expected, json_t **out)
{
    json_t *v = json_object_get(obj, key);
    *out = v;
    if (v && !(json_is_null(v) && !required))
        return 1;
    *out = NULL;
    if (!required)
        return 0;
    char field[64];
    field_name(field, sizeof field, rec, key);
    if (v)
        return fail(g, field, "expected %s, got null", expected);
    return fail(g, field, "required field missing (expected %s)", expected);
}

static int wrong(struct ingester *g, const char *rec, const char *key, const char *expected, const json_t *v)
{
    char field[64], got[96];
    field_name(field, sizeof field, rec, key);
    describe(v, got, sizeof got);
    return fail(g, field, "expected %s, got %s", expected, got);
}

/* A non-empty string field; *out is NULL when optional and absent. */
static int get_name(struct ingester *g, json_t *obj, const char *rec, const char *key, int required,
                    const char **out)
{
    json_t *v;
    *out = NULL;
    int rc = get_field(g, obj, rec, key, required, "a non-empty string", &v);
    if (rc <= 0)
        return rc;
    if (!json_is_string(v) || json_string_length(v) == 0 || strlen(json_string_value(v)) != json_string_length(v))
        return wrong(g, rec, key, "a non-empty string", v);
    *out = json_string_value(v);
    return 0;
}

/* An integer field >= min; *present tells whether it was there. */
static int get_int(struct ingester *g, json_t *obj, const char *rec, const char *key, int required, long long min,
                   long long *out, int *present)
{
    char expected[48];
    snprintf(expected, sizeof expected, "an integer >= %lld", min);
    json_t *v;
    *present = 0;
    int rc = get_field(g, obj, rec, key, required, expected, &v);
    if (rc <= 0)
        return rc;
    if (!json_is_integer(v) || json_integer_value(v) < min)
        return wrong(g, rec, key, expected, v);
    *out = json_integer_value(v);
    *present = 1;
    return 0;
}

static int get_time(struct ingester *g, json_t *obj, const char *rec, const char *key, const char **out)
{
    static const char expected[] = "an RFC 3339 date-time such as \"2026-10-21T03:57:00Z\"";
    json_t *v;
    *out = NULL;
    int rc = get_field(g, obj, rec, key, 0, expected, &v);
    if (rc <= 0)
        return rc;
    if (!json_is_string(v) || !rfc3339_valid(json_string_value(v)))
        return wrong(g, rec, key, expected, v);
    *out = json_string_value(v);
    return 0;
}

/* An object of scalar values (strings, numbers, booleans) as canonical
 * JSON text in g->text; "{}" when absent. */
static int get_scalar_object(struct ingester *g, json_t *obj, const char *rec, const char *key)
{
    json_t *v;
    sb_reset(&g->text);
    int rc = get_field(g, obj, rec, key, 0, "an object", &v);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return sb_puts(&g->text, "{}") ? fail(g, NULL, "out of memory") : 0;
    if (!json_is_object(v))
        return wrong(g, rec, key, "an object", v);
    const char *k;
    json_t *x;
    json_object_foreach(v, k, x) {
        if (!json_is_string(x) && !json_is_number(x) && !json_is_boolean(x)) {
            char field[128], got[96];
            snprintf(field, sizeof field, "%s.%s.%s", rec, key, k);
            describe(x, got, sizeof got);
            return fail(g, field, "expected a string, number or boolean, got %s", got);
        }
    }
    if (json_canonical(v, &g->text))
        return fail(g, NULL, "out of memory");
    return 0;
}

/* A series of values: non-empty unless optional, every value a finite
 * number > 0. Adds the values to *sum. */
static int check_values(struct ingester *g, json_t *arr, const char *key, int required, struct ksum *sum)
{
    static const char each[] = "a finite number > 0";
    if (!json_is_array(arr) || (required && json_array_size(arr) == 0))
        return wrong(g, "samples", key, required ? "a non-empty array of numbers" : "an array of numbers", arr);
    size_t n = json_array_size(arr);
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_array_get(arr, i);
        double d = json_is_integer(x) ? (double)json_integer_value(x) : json_is_real(x) ? json_real_value(x) : -1;
        if (!json_is_number(x) || !(d > 0) || !isfinite(d)) {
            char field[64], got[96];
            snprintf(field, sizeof field, "samples.%s[%zu]", key, i);
            describe(x, got, sizeof got);
            return fail(g, field, "expected %s, got %s", each, got);
        }
        if (sum)
            ksum_add(sum, d);
    }
    return 0;
}

/* ---- records ---- */

static void bind_opt_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static int record_run(struct ingester *g, json_t *rec)
{
    json_t *fmt;
    if (get_field(g, rec, "run", "format", 1, "\"" ARCHIVE_FORMAT "\"", &fmt) < 0)
        return -1;
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), ARCHIVE_FORMAT) != 0)
        return wrong(g, "run", "format", "\"" ARCHIVE_FORMAT "\" (the only format this build reads)", fmt);
    const char *plan, *name, *host, *source, *treatment, *baseline, *started, *ended;
    long long position = 0;
    int has_position;
    if (get_name(g, rec, "run", "plan", 1, &plan) || get_name(g, rec, "run", "run", 1, &name) ||
        get_name(g, rec, "run", "host", 1, &host) ||
        get_int(g, rec, "run", "position", 0, 1, &position, &has_position))
        return -1;
    json_t *src;
    if (get_field(g, rec, "run", "source", 0, "a string", &src) && !json_is_string(src))
        return wrong(g, "run", "source", "a string", src);
    source = src ? json_string_value(src) : NULL;
    if (get_time(g, rec, "run", "started_at", &started) || get_time(g, rec, "run", "ended_at", &ended) ||
        get_name(g, rec, "run", "treatment", 0, &treatment) || get_name(g, rec, "run", "baseline", 0, &baseline))
        return -1;
    if (!treatment != !baseline)
        return fail(g, treatment ? "run.baseline" : "run.treatment",
                    "required field missing (treatment and baseline go together: both or neither)");
    if (get_scalar_object(g, rec, "run", "attributes"))
        return -1;

    /* (plan, run) once per archive and once in the store. */
    sb_reset(&g->key);
    if (sb_puts(&g->key, plan) || sb_putc(&g->key, 0) || sb_puts(&g->key, name))
        return fail(g, NULL, "out of memory");
    int64_t *seen = idmap_get(&g->runs_seen, g->key.buf, g->key.len);
    if (seen)
        return fail(g, "run.run", "run \"%s\" of plan \"%s\" appears twice in this archive (first at line %lld)",
                    name, plan, (long long)*seen);
    if (idmap_put(&g->runs_seen, g->key.buf, g->key.len, (int64_t)g->line))
        return fail(g, NULL, "out of memory");

    int64_t plan_id = 0, host_id = 0, t_id = 0, b_id = 0;
    if (name_id(g, &g->plans, plan, &plan_id) || name_id(g, &g->hosts, host, &host_id))
        return -1;
    if (treatment && (name_id(g, &g->variants, treatment, &t_id) || name_id(g, &g->variants, baseline, &b_id)))
        return -1;

    sqlite3_stmt *st = g->st[S_RUN_FIND];
    sqlite3_bind_int64(st, 1, plan_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        int64_t old_run = sqlite3_column_int64(st, 0), old_archive = sqlite3_column_int64(st, 1);
        char *old_name = strdup((const char *)sqlite3_column_text(st, 2));
        sqlite3_reset(st);
        if (!g->opt.replace) {
            fail(g, "run.run", "run \"%s\" of plan \"%s\" is already stored from archive \"%s\" "
                               "(pass --replace to replace it)", name, plan, old_name ? old_name : "?");
            free(old_name);
            return -1;
        }
        sqlite3_bind_int64(g->st[S_RUN_DELETE], 1, old_run);
        if (step_done(g, g->st[S_RUN_DELETE])) {
            free(old_name);
            return -1;
        }
        if (g->n_replaced == g->cap_replaced) {
            size_t ncap = g->cap_replaced ? 2 * g->cap_replaced : 8;
            int64_t *nr = realloc(g->replaced, ncap * sizeof *nr);
            if (!nr) {
                free(old_name);
                return fail(g, NULL, "out of memory");
            }
            g->replaced = nr;
            g->cap_replaced = ncap;
        }
        g->replaced[g->n_replaced++] = old_archive;
        sb_printf(&g->notices, "%s:%llu: replaced run \"%s\" of plan \"%s\" stored from archive \"%s\"\n", g->shown,
                  (unsigned long long)g->line, name, plan, old_name ? old_name : "?");
        free(old_name);
    } else {
        sqlite3_reset(st);
        if (rc != SQLITE_DONE)
            return fail_sql(g);
    }

    st = g->st[S_RUN_INSERT];
    sqlite3_bind_int64(st, 1, plan_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, host_id);
    if (has_position)
        sqlite3_bind_int64(st, 4, position);
    else
        sqlite3_bind_null(st, 4);
    bind_opt_text(st, 5, source);
    bind_opt_text(st, 6, started);
    bind_opt_text(st, 7, ended);
    if (treatment) {
        sqlite3_bind_int64(st, 8, t_id);
        sqlite3_bind_int64(st, 9, b_id);
    } else {
        sqlite3_bind_null(st, 8);
        sqlite3_bind_null(st, 9);
    }
    sqlite3_bind_text(st, 10, g->text.buf, (int)g->text.len, SQLITE_STATIC);
    sqlite3_bind_int64(st, 11, g->archive_id);
    if (step_done(g, st))
        return -1;
    g->run_id = sqlite3_last_insert_rowid(g->db);
    idmap_clear(&g->series_seen);
    idmap_clear(&g->cell_unit);
    g->here.runs++;
    g->here.rows++;
    return 0;
}

static int record_samples(struct ingester *g, json_t *rec)
{
    const char *bench, *variant, *unit;
    long long block = 0, fork = 0;
    int has;
    if (get_name(g, rec, "samples", "benchmark", 1, &bench) || get_scalar_object(g, rec, "samples", "params") ||
        get_int(g, rec, "samples", "block", 1, 1, &block, &has) ||
        get_name(g, rec, "samples", "variant", 1, &variant) ||
        get_int(g, rec, "samples", "fork", 0, 0, &fork, &has))
        return -1;
    json_t *u;
    if (get_field(g, rec, "samples", "unit", 1, "a unit name", &u) < 0)
        return -1;
    int unit_ix = json_is_string(u) ? format_unit_index(json_string_value(u)) : -1;
    if (unit_ix < 0)
        return wrong(g, "samples", "unit", "one of " "ns/op, us/op, ms/op, s/op, ns, us, ms, s, ops/ns, ops/us, "
                                           "ops/ms, ops/s, ops/min", u);
    unit = format_units[unit_ix];
    json_t *values, *warmup;
    struct ksum sum = {0, 0};
    if (get_field(g, rec, "samples", "values", 1, "a non-empty array of numbers", &values) < 0 ||
        check_values(g, values, "values", 1, &sum))
        return -1;
    if (get_field(g, rec, "samples", "warmup", 0, "an array of numbers", &warmup) && check_values(g, warmup, "warmup", 0, NULL))
        return -1;

    int64_t bench_id = 0, variant_id = 0;
    if (benchmark_id(g, bench, g->text.buf, &bench_id) || name_id(g, &g->variants, variant, &variant_id))
        return -1;

    /* One unit per cell and variant, one series per cell, block, variant and fork. */
    int64_t ku[2] = {bench_id, variant_id};
    int64_t *prev = idmap_get(&g->cell_unit, ku, sizeof ku);
    if (prev && (*prev & 0xff) != unit_ix)
        return fail(g, "samples.unit", "expected \"%s\" (the unit of this cell and variant at line %lld), got \"%s\"",
                    format_units[*prev & 0xff], (long long)(*prev >> 8), unit);
    if (!prev && idmap_put(&g->cell_unit, ku, sizeof ku, (int64_t)g->line << 8 | unit_ix))
        return fail(g, NULL, "out of memory");
    int64_t ks[4] = {bench_id, block, variant_id, fork};
    int64_t *dup = idmap_get(&g->series_seen, ks, sizeof ks);
    if (dup)
        return fail(g, "samples", "benchmark \"%s\" params %s block %lld variant \"%s\" fork %lld appears twice "
                                  "in this run (first at line %lld)",
                    bench, g->text.buf, block, variant, fork, (long long)*dup);
    if (idmap_put(&g->series_seen, ks, sizeof ks, (int64_t)g->line))
        return fail(g, NULL, "out of memory");

    size_t n = json_array_size(values);
    sqlite3_stmt *st = g->st[S_SERIES_INSERT];
    sqlite3_bind_int64(st, 1, g->run_id);
    sqlite3_bind_int64(st, 2, bench_id);
    sqlite3_bind_int64(st, 3, block);
    sqlite3_bind_int64(st, 4, variant_id);
    sqlite3_bind_int64(st, 5, fork);
    sqlite3_bind_text(st, 6, unit, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)n);
    sqlite3_bind_double(st, 8, ksum_value(&sum));
    if (step_done(g, st))
        return -1;
    int64_t series_id = sqlite3_last_insert_rowid(g->db);

    /* Measured values first, then warmups: the primary key's order. */
    st = g->st[S_SAMPLE_INSERT];
    sqlite3_bind_int64(st, 1, series_id);
    for (int w = 0; w < 2; w++) {
        json_t *arr = w ? warmup : values;
        size_t m = arr ? json_array_size(arr) : 0;
        sqlite3_bind_int(st, 2, w);
        for (size_t i = 0; i < m; i++) {
            json_t *x = json_array_get(arr, i);
            sqlite3_bind_int64(st, 3, (sqlite3_int64)i + 1);
            sqlite3_bind_double(st, 4, json_is_integer(x) ? (double)json_integer_value(x) : json_real_value(x));
            if (sqlite3_step(st) != SQLITE_DONE) {
                sqlite3_reset(st);
                return fail_sql(g);
            }
            sqlite3_reset(st);
        }
        g->here.samples += m;
        g->here.rows += m;
    }
    g->here.series++;
    g->here.rows++;
    return 0;
}

/* detail: any JSON, stored as canonical text (NULL when absent). */
static int get_detail(struct ingester *g, json_t *rec, int *present)
{
    json_t *v;
    sb_reset(&g->text);
    *present = get_field(g, rec, "", "detail", 0, "", &v) > 0;
    if (*present && json_canonical(v, &g->text))
        return fail(g, NULL, "out of memory");
    return 0;
}

static int record_gate(struct ingester *g, json_t *rec)
{
    const char *name, *at;
    json_t *passed;
    int has_detail;
    if (get_name(g, rec, "gate", "name", 1, &name) ||
        get_field(g, rec, "gate", "passed", 1, "true or false", &passed) < 0)
        return -1;
    if (!json_is_boolean(passed))
        return wrong(g, "gate", "passed", "true or false", passed);
    if (get_time(g, rec, "gate", "at", &at) || get_detail(g, rec, &has_detail))
        return -1;
    sqlite3_stmt *st = g->st[S_GATE_INSERT];
    sqlite3_bind_int64(st, 1, g->run_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, json_is_true(passed));
    bind_opt_text(st, 4, at);
    if (has_detail)
        sqlite3_bind_text(st, 5, g->text.buf, (int)g->text.len, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 5);
    if (step_done(g, st))
        return -1;
    g->here.gates++;
    g->here.rows++;
    return 0;
}

static int record_event(struct ingester *g, json_t *rec)
{
    const char *name, *at;
    json_t *value;
    int has_detail;
    if (get_name(g, rec, "event", "name", 1, &name))
        return -1;
    if (get_field(g, rec, "event", "value", 0, "", &value) && !json_is_string(value) && !json_is_number(value) &&
        !json_is_boolean(value))
        return wrong(g, "event", "value", "a string, number, boolean or null", value);
    if (get_time(g, rec, "event", "at", &at) || get_detail(g, rec, &has_detail))
        return -1;
    sqlite3_stmt *st = g->st[S_EVENT_INSERT];
    sqlite3_bind_int64(st, 1, g->run_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    if (!value)
        sqlite3_bind_null(st, 3);
    else if (json_is_string(value))
        sqlite3_bind_text(st, 3, json_string_value(value), (int)json_string_length(value), SQLITE_STATIC);
    else if (json_is_integer(value))
        sqlite3_bind_int64(st, 3, json_integer_value(value));
    else if (json_is_real(value))
        sqlite3_bind_double(st, 3, json_real_value(value));
    else
        sqlite3_bind_int(st, 3, json_is_true(value));
    bind_opt_text(st, 4, at);
    if (has_detail)
        sqlite3_bind_text(st, 5, g->text.buf, (int)g->text.len, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 5);
    if (step_done(g, st))
        return -1;
    g->here.events++;
    g->here.rows++;
    return 0;
}

static int record_json(struct ingester *g, json_t *rec)
{
    int rc = -1;
    char got[96];
    static const char kinds[] = "\"run\", \"samples\", \"gate\" or \"event\"";
    json_t *kind = json_is_object(rec) ? json_object_get(rec, "record") : NULL;
    const char *k = json_is_string(kind) ? json_string_value(kind) : "";
    if (!json_is_object(rec)) {
        describe(rec, got, sizeof got);
        fail(g, NULL, "expected a JSON object, got %s", got);
    } else if (!kind) {
        fail(g, "record", "required field missing (expected %s)", kinds);
    } else if (strcmp(k, "run") == 0) {
        rc = warn_unknown_keys(g, k, rec, run_keys) ? -1 : record_run(g, rec);
    } else if (strcmp(k, "samples") != 0 && strcmp(k, "gate") != 0 && strcmp(k, "event") != 0) {
        wrong(g, "", "record", kinds, kind);
    } else if (g->run_id == 0) {
        fail(g, "record", "a \"%s\" record before any \"run\" record (a run record opens each run)", k);
    } else if (strcmp(k, "samples") == 0) {
        rc = warn_unknown_keys(g, k, rec, samples_keys) ? -1 : record_samples(g, rec);
    } else if (strcmp(k, "gate") == 0) {
        rc = warn_unknown_keys(g, k, rec, gate_keys) ? -1 : record_gate(g, rec);
    } else {
        rc = warn_unknown_keys(g, k, rec, event_keys) ? -1 : record_event(g, rec);
    }
    return rc;
}

/* ---- one archive ---- */

static int insert_chunk(struct ingester *g, const unsigned char *buf, size_t len)
{
    sqlite3_stmt *st = g->st[S_CHUNK_INSERT];
    sqlite3_bind_int64(st, 1, g->archive_id);
    sqlite3_bind_int64(st, 2, g->chunk_seq++);
    sqlite3_bind_blob(st, 3, buf, (int)len, SQLITE_STATIC);
    int rc = step_done(g, st);
    sqlite3_clear_bindings(st);
    return rc;
}

/* Looks an archive up by its hash: 1 (with its id and name) when stored. */
static int find_archive(struct ingester *g, const char *sha, int64_t *id, char **name)
{
    sqlite3_stmt *st = g->st[S_ARCHIVE_BY_SHA];
    sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        *name = strdup((const char *)sqlite3_column_text(st, 1));
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return fail_sql(g);
    return rc == SQLITE_ROW;
}

static void notice_skip(struct ingester *g, const char *sha, int64_t id, const char *name)
{
    if (g->opt.quiet)
        return;
    before_message(g);
    bd_notice("%s: skipped: already stored as archive %lld \"%s\" (sha256 %.12s...)", g->shown, (long long)id,
              name ? name : "?", sha);
}

/* After an error in a stream read once (a pipe): reads the rest to learn
 * its hash; an archive already stored is skipped, not refused, whatever
 * its content would say now (e.g. its runs conflict with themselves). */
static int stored_anyway(struct ingester *g)
{
    char *derr = NULL;
    if (!g->pipe_started || !g->pipe.rd.in)
        return 0;
    pipeline_stop(&g->pipe); /* the reader is ours again */
    char sha[65];
    if (g->pipe.sha[0]) { /* the producer had read it all */
        memcpy(sha, g->pipe.sha, sizeof sha);
    } else {
        if (reader_drain(&g->pipe.rd, &derr)) {
            free(derr);
            return 0;
        }
        reader_digest(&g->pipe.rd, sha);
    }
    int64_t id;
    char *name = NULL;
    char *saved = g->err; /* find_archive may fail: keep the first error */
    uint64_t saved_line = g->err_line;
    g->err = NULL;
    int found = find_archive(g, sha, &id, &name);
    free(g->err);
    g->err = saved;
    g->err_line = saved_line;
    if (found > 0)
        notice_skip(g, sha, id, name);
    free(name);
    return found > 0;
}

static void now_rfc3339(char out[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The body of ingester_archive inside the transaction: returns 0 loaded,
 * 1 skipped (stdin whose hash is stored), -1 failed. */
static int load(struct ingester *g, int fd, const char *path, const char *first_sha, uint64_t first_size)
{
    char when[32];
    now_rfc3339(when);
    sqlite3_stmt *st = g->st[S_ARCHIVE_INSERT];
    sqlite3_bind_text(st, 1, first_sha ? first_sha : pending_sha, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, when, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, BENCHDB_VERSION, -1, SQLITE_STATIC);
    if (step_done(g, st))
        return -1;
    g->archive_id = sqlite3_last_insert_rowid(g->db);
    g->chunk_seq = 0;

    char *perr = NULL;
    if (pipeline_start(&g->pipe, fd, g->opt.max_line_bytes, g->opt.max_bytes, &perr)) {
        g->pipe_started = 1;
        fail(g, NULL, "%s", perr);
        free(perr);
        return -1;
    }
    g->pipe_started = 1;
    for (;;) {
        struct pipe_item it;
        pipeline_next(&g->pipe, &it);
        int rc = 0;
        if (it.kind == PIPE_RECORD) {
            g->line = it.line;
            rc = record_json(g, it.rec);
        } else if (it.kind == PIPE_CHUNK) {
            rc = insert_chunk(g, it.buf, it.size);
        } else if (it.kind == PIPE_ERROR) {
            g->line = it.line;
            g->reader_failed = it.reader_failed;
            rc = fail(g, NULL, "%s", it.err);
        }
        json_decref(it.rec);
        free(it.buf);
        free(it.err);
        if (rc)
            return -1;
        if (it.kind == PIPE_END)
            break;
        if (g->hooks.progress)
            g->hooks.progress(g->hooks.arg);
    }
    g->line = 0;
    if (g->run_id == 0)
        return fail(g, NULL, "no run record (an archive holds one or more runs, each opened by a run record)");
    const char *sha = g->pipe.sha;
    uint64_t raw = atomic_load(&g->pipe.raw_bytes);
    if (first_sha && (strcmp(sha, first_sha) != 0 || raw != first_size))
        return fail(g, NULL, "changed while being read (its SHA-256 differs between two reads)");
    if (!first_sha) {
        int64_t id;
        char *name = NULL;
        int found = find_archive(g, sha, &id, &name);
        if (found < 0)
            return -1;
        if (found) {
            notice_skip(g, sha, id, name);
            free(name);
            return 1;
        }
    }
    st = g->st[S_ARCHIVE_UPDATE];
    sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)raw);
    sqlite3_bind_text(st, 3, g->pipe.chunks.compress ? "zstd" : "identity", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)g->pipe.chunks.stored);
    sqlite3_bind_int64(st, 5, g->archive_id);
    if (step_done(g, st))
        return -1;
    for (size_t i = 0; i < g->n_replaced; i++) {
        sqlite3_bind_int64(g->st[S_ARCHIVE_DELETE_EMPTY], 1, g->replaced[i]);
        if (step_done(g, g->st[S_ARCHIVE_DELETE_EMPTY]))
            return -1;
    }
    g->here.rows += 1 + (uint64_t)g->chunk_seq;
    return 0;
}

static void reset_archive_state(struct ingester *g)
{
    free(g->err);
    g->err = NULL;
    g->err_line = 0;
    g->line = 0;
    g->run_id = 0;
    g->archive_id = 0;
    g->n_replaced = 0;
    g->reader_failed = 0;
    idmap_clear(&g->warned);
    idmap_clear(&g->runs_seen);
    idmap_clear(&g->series_seen);
    idmap_clear(&g->cell_unit);
    sb_reset(&g->notices);
    memset(&g->here, 0, sizeof g->here);
}

enum ingest_result ingester_archive(struct ingester *g, const char *path)
{
    int is_stdin = strcmp(path, "-") == 0;
    g->shown = is_stdin ? "<stdin>" : path;
    reset_archive_state(g);

    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        before_message(g);
        bd_error("%s: cannot open: %s", path, strerror(errno));
        g->totals.failed++;
        return INGEST_FAILED;
    }
    /* A regular file is hashed first: a stored archive is skipped unread. */
    struct stat sb;
    char first_sha[65];
    uint64_t first_size = 0;
    int have_stat = !is_stdin && fstat(fd, &sb) == 0;
    int seekable = have_stat && S_ISREG(sb.st_mode);
    int rc = 0, began = 0;
    if (have_stat && S_ISDIR(sb.st_mode)) {
        rc = fail(g, NULL, "is a directory");
    } else if (seekable) {
        char *herr = NULL;
        if (hash_fd(fd, first_sha, &first_size, &herr) || lseek(fd, 0, SEEK_SET) != 0) {
            rc = fail(g, NULL, "%s", herr ? herr : strerror(errno));
            free(herr);
        }
    }
    if (rc == 0 && seekable) {
        int64_t id;
        char *name = NULL;
        int found = find_archive(g, first_sha, &id, &name);
        if (found > 0) {
            notice_skip(g, first_sha, id, name);
            free(name);
            rc = 1;
        } else if (found < 0) {
            rc = -1;
        }
    }
    if (rc == 0) {
        rc = exec(g, "BEGIN IMMEDIATE");
        began = rc == 0;
    }
    if (rc == 0 && seekable) {
        /* Another process may have stored it since the look-up above. */
        int64_t id;
        char *name = NULL;
        int found = find_archive(g, first_sha, &id, &name);
        if (found > 0) {
            notice_skip(g, first_sha, id, name);
            rc = 1;
        } else if (found < 0) {
            rc = -1;
        }
        free(name);
    }
    if (rc == 0) {
        rc = load(g, fd, path, seekable ? first_sha : NULL, first_size);
        if (rc < 0 && !seekable && !g->reader_failed && stored_anyway(g))
            rc = 1;
    }
    if (rc == 0 && exec(g, "COMMIT"))
        rc = -1;
    if (rc != 0 && began) {
        sqlite3_exec(g->db, "ROLLBACK", NULL, NULL, NULL);
        forget_ids(g);
    }
    if (g->pipe_started)
        pipeline_free(&g->pipe);
    g->pipe_started = 0; /* ingester_live: nothing in progress */
    if (!is_stdin)
        close(fd);

    if (rc != 0)
        memset(&g->here, 0, sizeof g->here); /* counted in totals only when loaded */
    if (rc < 0) {
        before_message(g);
        if (g->err_line)
            bd_error("%s:%llu: %s", g->shown, (unsigned long long)g->err_line, g->err ? g->err : "failed");
        else
            bd_error("%s: %s", g->shown, g->err ? g->err : "failed");
        bd_notice("note: %s: archive not stored (nothing from it was written)", g->shown);
        g->totals.failed++;
        return INGEST_FAILED;
    }
    if (rc > 0) {
        g->totals.skipped++;
        return INGEST_SKIPPED;
    }
    if (g->notices.len && !g->opt.quiet) {
        before_message(g);
        fputs(g->notices.buf, stderr);
    }
    g->totals.loaded++;
    g->totals.runs += g->here.runs;
    g->totals.series += g->here.series;
    g->totals.samples += g->here.samples;
    g->totals.gates += g->here.gates;
    g->totals.events += g->here.events;
    g->totals.rows += g->here.rows;
    memset(&g->here, 0, sizeof g->here);
    return INGEST_LOADED;
}

/* ---- the command's ingester ---- */

struct ingester *ingester_open(sqlite3 *db, const struct ingest_options *opt, const struct ingest_hooks *hooks,
                               char **err)
{
    struct ingester *g = calloc(1, sizeof *g);
    if (!g) {
        bd_fail(err, "out of memory");
        return NULL;
    }
    g->db = db;
    g->opt = *opt;
    if (hooks)
        g->hooks = *hooks;
    g->plans = (struct names){S_PLAN_GET, S_PLAN_INSERT, {0}};
    g->hosts = (struct names){S_HOST_GET, S_HOST_INSERT, {0}};
    g->variants = (struct names){S_VARIANT_GET, S_VARIANT_INSERT, {0}};
    /* WAL with synchronous=NORMAL keeps every commit atomic and the store
     * consistent; a power cut may lose the last commits, never half of one. */
    if (sqlite3_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8192", NULL, NULL, NULL) != SQLITE_OK) {
        bd_fail(err, "%s", sqlite3_errmsg(db));
        ingester_close(g);
        return NULL;
    }
    for (int i = 0; i < S_COUNT; i++)
        if (sqlite3_prepare_v3(db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &g->st[i], NULL) != SQLITE_OK) {
            bd_fail(err, "%s", sqlite3_errmsg(db));
            ingester_close(g);
            return NULL;
        }
    json_object_seed(0); /* once, before the producer threads parse objects */
    return g;
}

const struct ingest_totals *ingester_totals(const struct ingester *g)
{
    return &g->totals;
}

void ingester_live(const struct ingester *g, uint64_t *bytes, uint64_t *rows)
{
    *bytes = g->pipe_started ? atomic_load(&g->pipe.raw_bytes) : 0;
    *rows = g->totals.rows + g->here.rows;
}

void ingester_close(struct ingester *g)
{
    if (!g)
        return;
    for (int i = 0; i < S_COUNT; i++)
        sqlite3_finalize(g->st[i]);
    idmap_free(&g->plans.cache);
    idmap_free(&g->hosts.cache);
    idmap_free(&g->variants.cache);
    idmap_free(&g->benchmarks);
    idmap_free(&g->warned);
    idmap_free(&g->runs_seen);
    idmap_free(&g->series_seen);
    idmap_free(&g->cell_unit);
    sb_free(&g->notices);
    sb_free(&g->key);
    sb_free(&g->text);
    free(g->replaced);
    free(g->err);
    free(g);
}
