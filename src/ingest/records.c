/* Records of benchdb-run/1: each field checked against the format
 * (docs/archive-format.md), errors as "record.field: expected ..., got
 * ...", then inserted with the loader's prepared statements. Ids of plans,
 * hosts, variants and benchmarks are cached across archives. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/loader.h"
#include "stats/sum.h"
#include "util/diag.h"
#include "util/strbuf.h"

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
            return ingest_fail_sql(g);
        st = g->st[t->insert];
        sqlite3_bind_text(st, 1, name, (int)len, SQLITE_STATIC);
        if (ingest_step(g, st))
            return -1;
        *id = sqlite3_last_insert_rowid(g->db);
    }
    if (idmap_put(&t->cache, name, len, *id))
        return ingest_fail(g, NULL, "out of memory");
    return 0;
}

static int benchmark_id(struct ingester *g, const char *name, const char *params, int64_t *id)
{
    sb_reset(&g->key);
    if (sb_puts(&g->key, name) || sb_putc(&g->key, 0) || sb_puts(&g->key, params))
        return ingest_fail(g, NULL, "out of memory");
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
            return ingest_fail_sql(g);
        st = g->st[S_BENCH_INSERT];
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, params, -1, SQLITE_STATIC);
        if (ingest_step(g, st))
            return -1;
        *id = sqlite3_last_insert_rowid(g->db);
    }
    if (idmap_put(&g->benchmarks, g->key.buf, g->key.len, *id))
        return ingest_fail(g, NULL, "out of memory");
    return 0;
}

void ingest_forget_ids(struct ingester *g)
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
                                           "metric", "unit", "values", "warmup", NULL};
static const char *const results_keys[] = {"record", "format", "block", "variant", "path", "data", NULL};
static const char *const gate_keys[] = {"record", "name", "passed", "at", "detail", NULL};
static const char *const event_keys[] = {"record", "name", "value", "at", "detail", NULL};

/* Warns once per archive about each key the format does not define. */
static int warn_unknown_keys(struct ingester *g, const char *rec, json_t *obj, const char *const *known)
{
    const char *key;
    json_t *v;
    size_t nknown = 0, at = 0;
    while (known[nknown])
        nknown++;
    json_object_foreach(obj, key, v) {
        /* Records mostly list their keys in the documented order: start
         * where the last key was found. */
        size_t i = 0;
        while (i < nknown && strcmp(known[(at + i) % nknown], key) != 0)
            i++;
        if (i < nknown) {
            at = (at + i + 1) % nknown;
            continue;
        }
        sb_reset(&g->key);
        if (sb_printf(&g->key, "%s.%s", rec, key))
            return ingest_fail(g, NULL, "out of memory");
        if (idmap_get(&g->warned, g->key.buf, g->key.len))
            continue;
        if (idmap_put(&g->warned, g->key.buf, g->key.len, 1))
            return ingest_fail(g, NULL, "out of memory");
        ingest_before_message(g);
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
        return ingest_fail(g, field, "expected %s, got null", expected);
    return ingest_fail(g, field, "required field missing (expected %s)", expected);
}

static int wrong(struct ingester *g, const char *rec, const char *key, const char *expected, const json_t *v)
{
    char field[64], got[96];
    field_name(field, sizeof field, rec, key);
    describe(v, got, sizeof got);
    return ingest_fail(g, field, "expected %s, got %s", expected, got);
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
    json_t *v = json_object_get(obj, key);
    *present = 0;
    if (json_is_integer(v) && json_integer_value(v) >= min) { /* the common case, without formatting */
        *out = json_integer_value(v);
        *present = 1;
        return 0;
    }
    char expected[48];
    snprintf(expected, sizeof expected, "an integer >= %lld", min);
    int rc = get_field(g, obj, rec, key, required, expected, &v);
    if (rc <= 0)
        return rc;
    return wrong(g, rec, key, expected, v);
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
        return sb_puts(&g->text, "{}") ? ingest_fail(g, NULL, "out of memory") : 0;
    if (!json_is_object(v))
        return wrong(g, rec, key, "an object", v);
    const char *k;
    json_t *x;
    json_object_foreach(v, k, x) {
        if (!json_is_string(x) && !json_is_number(x) && !json_is_boolean(x)) {
            char field[128], got[96];
            snprintf(field, sizeof field, "%s.%s.%s", rec, key, k);
            describe(x, got, sizeof got);
            return ingest_fail(g, field, "expected a string, number or boolean, got %s", got);
        }
    }
    if (json_canonical(v, &g->text))
        return ingest_fail(g, NULL, "out of memory");
    return 0;
}

/* A series of values: non-empty unless optional, every value a finite
 * number > 0. Adds the values to *sum. */
static int check_values(struct ingester *g, json_t *arr, const char *key, int required, int positive,
                        struct ksum *sum)
{
    /* a further metric (allocations, bytes...) may be 0 or negative */
    const char *each = positive ? "a finite number > 0" : "a finite number";
    if (!json_is_array(arr) || (required && json_array_size(arr) == 0))
        return wrong(g, "samples", key, required ? "a non-empty array of numbers" : "an array of numbers", arr);
    size_t n = json_array_size(arr);
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_array_get(arr, i);
        double d = json_is_integer(x) ? (double)json_integer_value(x) : json_is_real(x) ? json_real_value(x) : -1;
        if (!json_is_number(x) || (positive && !(d > 0)) || !isfinite(d)) {
            char field[64], got[96];
            snprintf(field, sizeof field, "samples.%s[%zu]", key, i);
            describe(x, got, sizeof got);
            return ingest_fail(g, field, "expected %s, got %s", each, got);
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
        return ingest_fail(g, treatment ? "run.baseline" : "run.treatment",
                    "required field missing (treatment and baseline go together: both or neither)");
    if (get_scalar_object(g, rec, "run", "attributes"))
        return -1;

    /* (plan, run) once per archive and once in the store. */
    sb_reset(&g->key);
    if (sb_puts(&g->key, plan) || sb_putc(&g->key, 0) || sb_puts(&g->key, name))
        return ingest_fail(g, NULL, "out of memory");
    int64_t *seen = idmap_get(&g->runs_seen, g->key.buf, g->key.len);
    if (seen)
        return ingest_fail(g, "run.run", "run \"%s\" of plan \"%s\" appears twice in this archive (first at line %lld)",
                    name, plan, (long long)*seen);
    if (idmap_put(&g->runs_seen, g->key.buf, g->key.len, (int64_t)g->line))
        return ingest_fail(g, NULL, "out of memory");

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
            ingest_fail(g, "run.run", "run \"%s\" of plan \"%s\" is already stored from archive \"%s\" "
                               "(pass --replace to replace it)", name, plan, old_name ? old_name : "?");
            free(old_name);
            return -1;
        }
        sqlite3_bind_int64(g->st[S_RUN_DELETE], 1, old_run);
        if (ingest_step(g, g->st[S_RUN_DELETE])) {
            free(old_name);
            return -1;
        }
        if (g->n_replaced == g->cap_replaced) {
            size_t ncap = g->cap_replaced ? 2 * g->cap_replaced : 8;
            int64_t *nr = realloc(g->replaced, ncap * sizeof *nr);
            if (!nr) {
                free(old_name);
                return ingest_fail(g, NULL, "out of memory");
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
            return ingest_fail_sql(g);
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
    if (ingest_step(g, st))
        return -1;
    g->run_id = sqlite3_last_insert_rowid(g->db);
    g->n_series_lines = 0;
    idmap_clear(&g->cell_unit);
    g->here.runs++;
    g->here.rows++;
    return 0;
}

/* ---- series ---- */

static const char primary_metric[] = "primary";

static const char *unit_name(const struct ingester *g, int ix)
{
    return ix < format_unit_count ? format_units[ix] : g->xunits[ix - format_unit_count];
}

void ingest_forget_units(struct ingester *g)
{
    for (int i = 0; i < g->n_xunits; i++)
        free(g->xunits[i]);
    g->n_xunits = 0;
}

/* The index of a unit of a further metric: a built-in one, or one added to
 * the unit table (kind 'other') the first time an archive uses it. */
static int other_unit(struct ingester *g, const char *unit, int *ix)
{
    *ix = format_unit_index(unit);
    if (*ix >= 0)
        return 0;
    for (int k = 0; k < g->n_xunits; k++)
        if (strcmp(g->xunits[k], unit) == 0) {
            *ix = format_unit_count + k;
            return 0;
        }
    if (format_unit_count + g->n_xunits >= 256)
        return ingest_fail(g, NULL, "more than %d distinct units in one archive", 256 - format_unit_count);
    sqlite3_stmt *st = g->st[S_UNIT_KIND];
    sqlite3_bind_text(st, 1, unit, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return ingest_fail_sql(g);
    if (rc == SQLITE_DONE) {
        sqlite3_bind_text(g->st[S_UNIT_ADD], 1, unit, -1, SQLITE_STATIC);
        if (ingest_step(g, g->st[S_UNIT_ADD]))
            return -1;
    }
    char *copy = strdup(unit);
    if (!copy)
        return ingest_fail(g, NULL, "out of memory");
    g->xunits[g->n_xunits] = copy;
    *ix = format_unit_count + g->n_xunits++;
    return 0;
}

/* Checks a series' cell, unit and uniqueness within the run and inserts
 * its row; *series_id is the new row. params is canonical JSON. The unit
 * of a cell and variant is checked per metric; a series is unique per
 * (cell, block, variant, fork, metric). */
static int series_insert(struct ingester *g, const char *bench, const char *params, long long block,
                         const char *variant, long long fork, const char *metric, int unit_ix, int64_t n,
                         double total, const char *detail, const char *field, int64_t *series_id)
{
    int64_t bench_id = 0, variant_id = 0;
    if (benchmark_id(g, bench, params, &bench_id) || name_id(g, &g->variants, variant, &variant_id))
        return -1;
    int primary = metric == NULL;
    size_t mlen = primary ? 0 : strlen(metric) + 1;
    const char *unit = unit_name(g, unit_ix);

    /* Keys: the ids, then (for a further metric) its name with its NUL, so
     * that the primary metric's keys stay as short as they were. */
    char k[4 * sizeof(int64_t) + 256];
    if (mlen > 256)
        return ingest_fail(g, field, "metric name longer than 255 bytes");
    int64_t ku[2] = {bench_id, variant_id};
    memcpy(k, ku, sizeof ku);
    if (mlen)
        memcpy(k + sizeof ku, metric, mlen);
    int64_t *prev = idmap_get(&g->cell_unit, k, sizeof ku + mlen);
    if (prev && (*prev & 0xff) != unit_ix) {
        char f[96];
        snprintf(f, sizeof f, "%s%s", field ? field : "samples", field ? "" : ".unit");
        return ingest_fail(g, f, "expected \"%s\" (the unit of this cell and variant at line %lld), got \"%s\"",
                           unit_name(g, (int)(*prev & 0xff)), (long long)(*prev >> 8), unit);
    }
    if (!prev && idmap_put(&g->cell_unit, k, sizeof ku + mlen, (int64_t)g->line << 8 | unit_ix))
        return ingest_fail(g, NULL, "out of memory");
    if (g->n_series_lines == g->cap_series_lines) {
        size_t cap = g->cap_series_lines ? 2 * g->cap_series_lines : 256;
        void *p = realloc(g->series_lines, cap * sizeof *g->series_lines);
        if (!p)
            return ingest_fail(g, NULL, "out of memory");
        g->series_lines = p;
        g->cap_series_lines = cap;
    }

    sqlite3_stmt *st = g->st[S_SERIES_INSERT];
    sqlite3_bind_int64(st, 1, g->run_id);
    sqlite3_bind_int64(st, 2, bench_id);
    sqlite3_bind_int64(st, 3, block);
    sqlite3_bind_int64(st, 4, variant_id);
    sqlite3_bind_int64(st, 5, fork);
    sqlite3_bind_text(st, 6, unit, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, n);
    sqlite3_bind_double(st, 8, total);
    sqlite3_bind_text(st, 9, primary ? primary_metric : metric, -1, SQLITE_STATIC);
    if (g->member_id)
        sqlite3_bind_int64(st, 10, g->member_id);
    else
        sqlite3_bind_null(st, 10);
    bind_opt_text(st, 11, detail);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if ((rc & 0xff) == SQLITE_CONSTRAINT) {
        /* The run's key (run, benchmark, block, variant, fork, metric) is
         * taken: by which series, stored from which line? */
        char said[256];
        snprintf(said, sizeof said, "%s", sqlite3_errmsg(g->db));
        sqlite3_stmt *q = g->st[S_SERIES_FIND];
        sqlite3_bind_int64(q, 1, g->run_id);
        sqlite3_bind_int64(q, 2, bench_id);
        sqlite3_bind_int64(q, 3, block);
        sqlite3_bind_int64(q, 4, variant_id);
        sqlite3_bind_int64(q, 5, fork);
        sqlite3_bind_text(q, 6, primary ? primary_metric : metric, -1, SQLITE_STATIC);
        int found = sqlite3_step(q) == SQLITE_ROW;
        int64_t id = found ? sqlite3_column_int64(q, 0) : 0;
        sqlite3_reset(q);
        if (!found) /* another constraint: say what SQLite said */
            return ingest_fail(g, NULL, "cannot store: %s", said);
        char first[48] = "";
        for (size_t i = 0; i < g->n_series_lines; i++) {
            if (g->series_lines[i][0] != id)
                continue;
            if (g->series_lines[i][1]) /* 0: from a harness file read for a results record or --format */
                snprintf(first, sizeof first, " (first at line %lld)", (long long)g->series_lines[i][1]);
            break;
        }
        return ingest_fail(g, field ? field : "samples",
                           "benchmark \"%s\" params %s block %lld variant \"%s\" fork %lld%s%s%s appears twice "
                           "in this run%s",
                           bench, params, block, variant, fork, primary ? "" : " metric \"", primary ? "" : metric,
                           primary ? "" : "\"", first);
    }
    if (rc != SQLITE_DONE)
        return ingest_fail_sql(g);
    *series_id = sqlite3_last_insert_rowid(g->db);
    g->series_lines[g->n_series_lines][0] = *series_id;
    g->series_lines[g->n_series_lines][1] = (int64_t)g->line;
    g->n_series_lines++;
    return 0;
}

static int record_samples(struct ingester *g, json_t *rec)
{
    const char *bench, *variant, *metric;
    long long block = 0, fork = 0;
    int has;
    if (get_name(g, rec, "samples", "benchmark", 1, &bench) || get_scalar_object(g, rec, "samples", "params") ||
        get_int(g, rec, "samples", "block", 1, 1, &block, &has) ||
        get_name(g, rec, "samples", "variant", 1, &variant) ||
        get_int(g, rec, "samples", "fork", 0, 0, &fork, &has) ||
        get_name(g, rec, "samples", "metric", 0, &metric))
        return -1;
    if (metric && strcmp(metric, primary_metric) == 0)
        metric = NULL;
    json_t *u;
    if (get_field(g, rec, "samples", "unit", 1, "a unit name", &u) < 0)
        return -1;
    int unit_ix;
    if (metric) {
        if (!json_is_string(u) || json_string_length(u) == 0 || strlen(json_string_value(u)) != json_string_length(u))
            return wrong(g, "samples", "unit", "a non-empty string", u);
        if (other_unit(g, json_string_value(u), &unit_ix))
            return -1;
    } else {
        unit_ix = json_is_string(u) ? format_unit_index(json_string_value(u)) : -1;
        if (unit_ix < 0 || unit_ix >= format_primary_unit_count)
            return wrong(g, "samples", "unit", "one of " "ns/op, us/op, ms/op, s/op, ns, us, ms, s, ops/ns, ops/us, "
                                               "ops/ms, ops/s, ops/min, sec/op, B/s, MB/s", u);
    }
    json_t *values, *warmup;
    struct ksum sum = {0, 0};
    if (get_field(g, rec, "samples", "values", 1, "a non-empty array of numbers", &values) < 0 ||
        check_values(g, values, "values", 1, !metric, &sum))
        return -1;
    if (get_field(g, rec, "samples", "warmup", 0, "an array of numbers", &warmup) && check_values(g, warmup, "warmup", 0, !metric, NULL))
        return -1;

    size_t n = json_array_size(values);
    int64_t series_id;
    if (series_insert(g, bench, g->text.buf, block, variant, fork, metric, unit_ix, (int64_t)n, ksum_value(&sum),
                      NULL, NULL, &series_id))
        return -1;

    /* Measured values first, then warmups: the primary key's order. */
    size_t nw = warmup ? json_array_size(warmup) : 0, total = n + nw, at = 0;
    for (int k = SAMPLE_SHAPES - 1; k >= 0; k--) {
        size_t rows = (size_t)1 << k;
        sqlite3_stmt *st = g->st[S_SAMPLE_ROWS_1 + k];
        for (; total - at >= rows; at += rows) {
            sqlite3_bind_int64(st, 1, series_id);
            for (size_t j = 0; j < rows; j++) {
                size_t q = at + j;
                int w = q >= n;
                json_t *x = w ? json_array_get(warmup, q - n) : json_array_get(values, q);
                int p = 3 * (int)j + 2;
                sqlite3_bind_int(st, p, w);
                sqlite3_bind_int64(st, p + 1, (sqlite3_int64)(w ? q - n : q) + 1);
                sqlite3_bind_double(st, p + 2, json_is_integer(x) ? (double)json_integer_value(x) : json_real_value(x));
            }
            if (sqlite3_step(st) != SQLITE_DONE) {
                sqlite3_reset(st);
                return ingest_fail_sql(g);
            }
            sqlite3_reset(st);
        }
    }
    g->here.samples += total;
    g->here.rows += total;
    g->here.series++;
    g->here.rows++;
    return 0;
}

int ingest_series(struct ingester *g, const struct series_spec *s, const double *values, const int64_t *count,
                  size_t n, const double *warmup, size_t n_warmup)
{
    const char *metric = s->metric && strcmp(s->metric, primary_metric) != 0 ? s->metric : NULL;
    int unit_ix;
    if (metric) {
        if (!*s->unit)
            return ingest_fail(g, s->field, "expected a unit, got an empty string");
        if (other_unit(g, s->unit, &unit_ix))
            return -1;
    } else {
        unit_ix = format_unit_index(s->unit);
        if (unit_ix < 0 || unit_ix >= format_primary_unit_count)
            return ingest_fail(g, s->field, "unit \"%s\" is not a time or throughput unit, which the primary metric "
                                            "needs (one of %s)", s->unit, format_unit_list);
    }
    if (n == 0)
        return ingest_fail(g, s->field, "no values");
    /* The primary metric's values are times or throughputs: >= 0 (a
     * harness's clock may read 0 for a very short command, and the value is
     * kept as measured); a further metric (allocations, bytes, counters)
     * may be anything finite. */
    struct ksum sum = {0, 0};
    int64_t total_n = 0;
    for (int w = 0; w < 2; w++) {
        const double *v = w ? warmup : values;
        size_t m = w ? n_warmup : n;
        for (size_t i = 0; i < m; i++) {
            if (!isfinite(v[i]) || (!metric && v[i] < 0)) {
                char d[32];
                fmt_double(d, v[i]);
                return ingest_fail(g, s->field, "%s[%zu]: expected a finite number%s, got %s", w ? "warmup" : "values",
                                   i, metric ? "" : " >= 0", d);
            }
            if (w)
                continue;
            int64_t c = count ? count[i] : 1;
            if (c < 1)
                return ingest_fail(g, s->field, "values[%zu]: expected a count >= 1, got %lld", i, (long long)c);
            ksum_add(&sum, v[i] * (double)c);
            total_n += c;
        }
    }
    int64_t series_id;
    if (series_insert(g, s->benchmark, s->params, s->block, s->variant, s->fork, metric, unit_ix, total_n,
                      ksum_value(&sum), s->detail, s->field, &series_id))
        return -1;
    sqlite3_stmt *st = g->st[S_SAMPLE_INSERT_COUNT];
    sqlite3_bind_int64(st, 1, series_id);
    for (int w = 0; w < 2; w++) {
        const double *v = w ? warmup : values;
        size_t m = w ? n_warmup : n;
        sqlite3_bind_int(st, 2, w);
        for (size_t i = 0; i < m; i++) {
            sqlite3_bind_int64(st, 3, (sqlite3_int64)i + 1);
            sqlite3_bind_double(st, 4, v[i]);
            sqlite3_bind_int64(st, 5, !w && count ? count[i] : 1);
            if (ingest_step(g, st))
                return -1;
        }
        g->here.samples += m;
        g->here.rows += m;
    }
    g->here.series++;
    g->here.rows++;
    return 0;
}

int ingest_event(struct ingester *g, const char *name, const char *value, const char *detail)
{
    sqlite3_stmt *st = g->st[S_EVENT_INSERT];
    sqlite3_bind_int64(st, 1, g->run_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    bind_opt_text(st, 3, value);
    sqlite3_bind_null(st, 4);
    bind_opt_text(st, 5, detail);
    if (ingest_step(g, st))
        return -1;
    g->here.events++;
    g->here.rows++;
    return 0;
}

int ingest_run_attributes(struct ingester *g, json_t *attrs)
{
    sqlite3_stmt *st = g->st[S_RUN_ATTRS_GET];
    sqlite3_bind_int64(st, 1, g->run_id);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_reset(st);
        return ingest_fail_sql(g);
    }
    json_t *have = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);
    sqlite3_reset(st);
    if (!have)
        return ingest_fail(g, NULL, "out of memory");
    const char *key;
    json_t *v;
    int rc = 0;
    json_object_foreach(attrs, key, v) {
        if (json_object_get(have, key) || json_is_null(v))
            continue;
        json_t *val;
        if (json_is_object(v) || json_is_array(v)) {
            sb_reset(&g->text);
            val = json_canonical(v, &g->text) ? NULL : json_stringn(g->text.buf, g->text.len);
        } else {
            val = json_incref(v);
        }
        if (!val || json_object_set_new(have, key, val)) {
            rc = ingest_fail(g, NULL, "out of memory");
            break;
        }
    }
    sb_reset(&g->text);
    if (rc == 0 && json_canonical(have, &g->text))
        rc = ingest_fail(g, NULL, "out of memory");
    json_decref(have);
    if (rc)
        return rc;
    st = g->st[S_RUN_ATTRS_SET];
    sqlite3_bind_text(st, 1, g->text.buf, (int)g->text.len, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, g->run_id);
    return ingest_step(g, st);
}

/* detail: any JSON, stored as canonical text (NULL when absent). */
static int get_detail(struct ingester *g, json_t *rec, int *present)
{
    json_t *v;
    sb_reset(&g->text);
    *present = get_field(g, rec, "", "detail", 0, "", &v) > 0;
    if (*present && json_canonical(v, &g->text))
        return ingest_fail(g, NULL, "out of memory");
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
    if (ingest_step(g, st))
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
    if (ingest_step(g, st))
        return -1;
    g->here.events++;
    g->here.rows++;
    return 0;
}

int ingest_record(struct ingester *g, json_t *rec)
{
    int rc = -1;
    char got[96];
    static const char kinds[] = "\"run\", \"samples\", \"results\", \"gate\" or \"event\"";
    json_t *kind = json_is_object(rec) ? json_object_get(rec, "record") : NULL;
    const char *k = json_is_string(kind) ? json_string_value(kind) : "";
    if (!json_is_object(rec)) {
        describe(rec, got, sizeof got);
        ingest_fail(g, NULL, "expected a JSON object, got %s", got);
    } else if (!kind) {
        ingest_fail(g, "record", "required field missing (expected %s)", kinds);
    } else if (strcmp(k, "run") == 0) {
        rc = warn_unknown_keys(g, k, rec, run_keys) ? -1 : record_run(g, rec);
    } else if (strcmp(k, "samples") != 0 && strcmp(k, "gate") != 0 && strcmp(k, "event") != 0 &&
               strcmp(k, "results") != 0) {
        wrong(g, "", "record", kinds, kind);
    } else if (g->run_id == 0) {
        ingest_fail(g, "record", "a \"%s\" record before any \"run\" record (a run record opens each run)", k);
    } else if (strcmp(k, "samples") == 0) {
        rc = warn_unknown_keys(g, k, rec, samples_keys) ? -1 : record_samples(g, rec);
    } else if (strcmp(k, "results") == 0) {
        rc = warn_unknown_keys(g, k, rec, results_keys) ? -1 : ingest_results_record(g, rec);
    } else if (strcmp(k, "gate") == 0) {
        rc = warn_unknown_keys(g, k, rec, gate_keys) ? -1 : record_gate(g, rec);
    } else {
        rc = warn_unknown_keys(g, k, rec, event_keys) ? -1 : record_event(g, rec);
    }
    return rc;
}

/* ---- for results.c ---- */

int ingest_get_name(struct ingester *g, json_t *obj, const char *rec, const char *key, int required, const char **out)
{
    return get_name(g, obj, rec, key, required, out);
}

int ingest_get_int(struct ingester *g, json_t *obj, const char *rec, const char *key, int required, long long min,
                   long long *out, int *present)
{
    return get_int(g, obj, rec, key, required, min, out, present);
}

int ingest_wrong(struct ingester *g, const char *rec, const char *key, const char *expected, const json_t *v)
{
    return wrong(g, rec, key, expected, v);
}
