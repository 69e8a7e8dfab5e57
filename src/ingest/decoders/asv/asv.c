/* asv's results file (results/MACHINE/COMMIT-ENV.json), both versions of
 * its format as asv's own loader reads them (asv/results.py: Results.load
 * for version 2, Results.update_to_2 for version 1):
 *  - version 2: "result_columns" names the columns of each benchmark's row
 *    in "results" (result, params, version, started_at, duration,
 *    stats_ci_99_a, stats_ci_99_b, stats_q_25, stats_q_75, stats_number,
 *    stats_repeat, samples, profile), trailing null columns left out;
 *  - version 1: "results" maps a benchmark to its result, or to an object
 *    with result, params, stats and samples; started_at, duration and
 *    benchmark_version are objects of their own.
 * A parameterised benchmark has one result (and samples, stats) per
 * combination of its params, in itertools.product order. Each
 * combination is a cell: the benchmark's name, params param1, param2...
 * (asv's default names; the file does not hold the benchmark's own) with
 * the values as asv writes them (repr text). Its values are the samples
 * when the file has them (asv run --record-samples), else the one result
 * asv computed (the median). The commit is the run's source, the machine
 * parameters run attributes. docs/formats.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ingest/core/jsonparse.h"
#include "ingest/decoders/asv/asv.h"
#include "ingest/decoders/harness.h"
#include "util/strbuf.h"

/* One benchmark's columns, whichever version they came from. */
struct bench {
    const char *name;
    json_t *result;  /* array (one per combination), a number (version 1), or null */
    json_t *params;  /* array of arrays of strings, or NULL */
    json_t *samples; /* array (one per combination), or NULL */
    json_t *stats;   /* array of objects (one per combination), or NULL */
    json_t *version, *started_at, *duration;
    const char *where; /* "results[\"NAME\"]" prefix for messages */
};

/* The metric and unit of a benchmark, told by its name's last part as asv
 * tells its types: time_ (and timeraw_) seconds, mem_ and peakmem_ bytes,
 * track_ (and anything else) a number in the benchmark's own unit, which
 * only benchmarks.json records. */
static void kind(const char *name, const char **metric, const char **unit)
{
    const char *last = strrchr(name, '.');
    last = last ? last + 1 : name;
    if (strncmp(last, "time_", 5) == 0 || strncmp(last, "timeraw_", 8) == 0) {
        *metric = NULL;
        *unit = "s";
    } else if (strncmp(last, "peakmem_", 8) == 0) {
        *metric = "peakmem";
        *unit = "bytes";
    } else if (strncmp(last, "mem_", 4) == 0) {
        *metric = "mem";
        *unit = "bytes";
    } else {
        *metric = "track";
        *unit = "1";
    }
}

/* The params of combination j into c->params: {"param1": v1, ...}. */
static int combination(struct harness_ctx *c, const struct bench *b, size_t j)
{
    size_t np = b->params ? json_array_size(b->params) : 0;
    json_t *p = json_object();
    if (!p)
        return ingest_report_oom(c->rep);
    size_t rest = j;
    /* itertools.product: the last param varies fastest */
    for (size_t k = np; k-- > 0;) {
        json_t *axis = json_array_get(b->params, k);
        size_t m = json_array_size(axis);
        json_t *v = json_array_get(axis, rest % m);
        rest /= m;
        char key[32];
        snprintf(key, sizeof key, "param%zu", k + 1);
        if (json_object_set(p, key, v)) {
            json_decref(p);
            return ingest_report_oom(c->rep);
        }
    }
    int rc = harness_params(c, np ? p : NULL);
    json_decref(p);
    return rc;
}

/* The number of combinations; -1 with the error when params is malformed. */
static long long combinations(struct harness_ctx *c, const struct bench *b)
{
    char path[600];
    long long total = 1;
    if (!b->params)
        return 1;
    snprintf(path, sizeof path, "%s.params", b->where);
    if (!json_is_array(b->params))
        return harness_wrong(c, path, "an array of arrays of parameter values", b->params);
    for (size_t k = 0; k < json_array_size(b->params); k++) {
        json_t *axis = json_array_get(b->params, k);
        snprintf(path, sizeof path, "%s.params[%zu]", b->where, k);
        if (!json_is_array(axis) || json_array_size(axis) == 0)
            return harness_wrong(c, path, "a non-empty array of parameter values", axis);
        for (size_t i = 0; i < json_array_size(axis); i++)
            if (!json_is_string(json_array_get(axis, i))) {
                snprintf(path, sizeof path, "%s.params[%zu][%zu]", b->where, k, i);
                return harness_wrong(c, path, "a string (asv writes each value's repr)", json_array_get(axis, i));
            }
        total *= (long long)json_array_size(axis);
        if (total > 1000000)
            return harness_fail(c, path, "more than 1,000,000 combinations of params");
    }
    return total;
}

static int failed(struct harness_ctx *c, const struct bench *b, const char *event)
{
    json_t *d = json_pack("{s:s,s:s}", "name", b->name, "params", c->params.buf ? c->params.buf : "{}");
    if (!d)
        return ingest_report_oom(c->rep);
    int rc = harness_detail(c, b->where, d);
    json_decref(d);
    return rc ? rc : harness_event(c, event, b->name, c->detail.buf);
}

static int one_combination(struct harness_ctx *c, const struct bench *b, size_t j, json_t *r, long long n)
{
    char path[600];
    if (combination(c, b, j))
        return -1;
    /* asv writes null for a failed combination, NaN for a skipped one */
    if (json_is_null(r))
        return failed(c, b, "benchmark-error");
    if (json_is_string(r) && strcmp(json_string_value(r), "NaN") == 0)
        return failed(c, b, "benchmark-skipped");
    if (!json_is_number(r)) {
        snprintf(path, sizeof path, n > 1 || json_is_array(b->result) ? "%s.result[%zu]" : "%s.result", b->where, j);
        return harness_wrong(c, path, "a number, null (failed) or NaN (skipped)", r);
    }
    json_t *s = b->samples && json_is_array(b->samples) ? json_array_get(b->samples, j) : NULL;
    struct dvec v = {0};
    int rc = 0;
    if (s && !json_is_null(s)) {
        snprintf(path, sizeof path, "%s.samples[%zu]", b->where, j);
        rc = harness_numbers(c, path, s, &v);
    } else {
        double x;
        snprintf(path, sizeof path, n > 1 || json_is_array(b->result) ? "%s.result[%zu]" : "%s.result", b->where, j);
        harness_number(r, &x);
        if (dvec_push(&v, x, 1))
            rc = ingest_report_oom(c->rep);
    }
    json_t *d = json_object();
    if (rc == 0 && !d)
        rc = ingest_report_oom(c->rep);
    json_t *st = b->stats ? json_array_get(b->stats, j) : NULL;
    if (rc == 0 && ((st && !json_is_null(st) && json_object_set(d, "stats", st)) ||
                    json_object_set(d, "result", r) ||
                    (b->version && !json_is_null(b->version) && json_object_set(d, "version", b->version)) ||
                    (b->duration && !json_is_null(b->duration) && json_object_set(d, "duration", b->duration)) ||
                    json_object_set_new(d, "values_are", json_string(s && !json_is_null(s) ? "samples" : "result"))))
        rc = ingest_report_oom(c->rep);
    if (rc == 0)
        rc = harness_detail(c, b->where, d);
    const char *metric, *unit;
    kind(b->name, &metric, &unit);
    if (rc == 0)
        rc = harness_series(c, path, b->name, 0, metric, unit, c->detail.buf, v.v, NULL, v.n, NULL, 0);
    json_decref(d);
    dvec_free(&v);
    return rc;
}

/* asv's started_at, JavaScript milliseconds since the epoch (UTC). */
static int started(struct harness_ctx *c, json_t *ms)
{
    double x;
    if (!ms || !harness_number(ms, &x) || !(x > 0 && x < 253402300800000.0))
        return 0;
    time_t t = (time_t)(x / 1000);
    struct tm tm;
    char when[64];
    if (!gmtime_r(&t, &tm))
        return 0;
    snprintf(when, sizeof when, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec, (int)fmod(x, 1000.0));
    return harness_started_at(c, when);
}

static int one_benchmark(struct harness_ctx *c, struct bench *b)
{
    long long n = combinations(c, b);
    if (n < 0)
        return -1;
    char path[600];
    if (json_is_array(b->result) && (long long)json_array_size(b->result) != n) {
        snprintf(path, sizeof path, "%s.result", b->where);
        return harness_fail(c, path, "expected %lld results (one per combination of params), got %zu", n,
                            json_array_size(b->result));
    }
    if (!json_is_array(b->result) && !json_is_null(b->result) && !json_is_number(b->result) &&
        !(json_is_string(b->result) && strcmp(json_string_value(b->result), "NaN") == 0)) {
        snprintf(path, sizeof path, "%s.result", b->where);
        return harness_wrong(c, path, "an array of results, a number or null", b->result);
    }
    if (b->samples && !json_is_null(b->samples) &&
        (!json_is_array(b->samples) || (long long)json_array_size(b->samples) != n)) {
        snprintf(path, sizeof path, "%s.samples", b->where);
        return harness_wrong(c, path, "an array of sample lists, one per combination of params", b->samples);
    }
    if (started(c, b->started_at))
        return -1;
    for (long long j = 0; j < n; j++) {
        json_t *r = json_is_array(b->result) ? json_array_get(b->result, (size_t)j) : b->result;
        if (one_combination(c, b, (size_t)j, r, n))
            return -1;
    }
    return 0;
}

/* version 2: the columns of each row, by result_columns */
static int version2(struct harness_ctx *c, json_t *doc, json_t *results, struct strbuf *where)
{
    json_t *cols = json_object_get(doc, "result_columns");
    if (!json_is_array(cols))
        return harness_wrong(c, "result_columns", "an array of column names", cols);
    for (size_t k = 0; k < json_array_size(cols); k++)
        if (!json_is_string(json_array_get(cols, k))) {
            char path[48];
            snprintf(path, sizeof path, "result_columns[%zu]", k);
            return harness_wrong(c, path, "a column name", json_array_get(cols, k));
        }
    const char *name;
    json_t *row;
    json_object_foreach(results, name, row) {
        sb_reset(where);
        if (sb_printf(where, "results[\"%s\"]", name))
            return ingest_report_oom(c->rep);
        if (!json_is_array(row))
            return harness_wrong(c, where->buf, "an array (a row of result_columns)", row);
        struct bench b = {.name = name, .result = json_null(), .where = where->buf};
        json_t *stats = json_array();
        if (!stats)
            return ingest_report_oom(c->rep);
        int rc = 0;
        for (size_t k = 0; rc == 0 && k < json_array_size(row) && k < json_array_size(cols); k++) {
            const char *col = json_string_value(json_array_get(cols, k));
            json_t *v = json_array_get(row, k);
            if (strcmp(col, "result") == 0)
                b.result = v;
            else if (strcmp(col, "params") == 0)
                b.params = json_is_null(v) ? NULL : v;
            else if (strcmp(col, "samples") == 0)
                b.samples = json_is_null(v) ? NULL : v;
            else if (strcmp(col, "version") == 0)
                b.version = v;
            else if (strcmp(col, "started_at") == 0)
                b.started_at = v;
            else if (strcmp(col, "duration") == 0)
                b.duration = v;
            else if (strncmp(col, "stats_", 6) == 0 && json_is_array(v)) {
                for (size_t j = 0; rc == 0 && j < json_array_size(v); j++) {
                    while (rc == 0 && json_array_size(stats) <= j)
                        rc = json_array_append_new(stats, json_object());
                    json_t *x = json_array_get(v, j);
                    if (rc == 0 && !json_is_null(x) && json_object_set(json_array_get(stats, j), col + 6, x))
                        rc = -1;
                }
                if (rc)
                    rc = ingest_report_oom(c->rep);
            }
        }
        b.stats = json_array_size(stats) ? stats : NULL;
        if (rc == 0)
            rc = one_benchmark(c, &b);
        json_decref(stats);
        if (rc)
            return -1;
    }
    return 0;
}

/* version 1: results[NAME] is the result or an object of result, params,
 * stats and samples */
static int version1(struct harness_ctx *c, json_t *doc, json_t *results, struct strbuf *where)
{
    json_t *started_at = json_object_get(doc, "started_at"), *duration = json_object_get(doc, "duration"),
           *bversion = json_object_get(doc, "benchmark_version");
    const char *name;
    json_t *r;
    json_object_foreach(results, name, r) {
        sb_reset(where);
        if (sb_printf(where, "results[\"%s\"]", name))
            return ingest_report_oom(c->rep);
        struct bench b = {.name = name, .result = r, .where = where->buf};
        json_t *stats = NULL;
        if (json_is_object(r)) {
            b.result = json_object_get(r, "result");
            if (!b.result)
                b.result = json_null();
            b.params = json_object_get(r, "params");
            b.samples = json_object_get(r, "samples");
            if (json_is_null(b.samples))
                b.samples = NULL;
            json_t *s = json_object_get(r, "stats");
            if (json_is_array(s))
                stats = json_incref(s);
            else if (json_is_object(s) && !(stats = json_pack("[O]", s)))
                return ingest_report_oom(c->rep);
        }
        b.stats = stats;
        b.started_at = json_is_object(started_at) ? json_object_get(started_at, name) : NULL;
        b.duration = json_is_object(duration) ? json_object_get(duration, name) : NULL;
        b.version = json_is_object(bversion) ? json_object_get(bversion, name) : NULL;
        int rc = one_benchmark(c, &b);
        json_decref(stats);
        if (rc)
            return -1;
    }
    return 0;
}

/* The run's facts: the commit (source), the machine's parameters and the
 * environment as attributes. */
static int run_facts(struct harness_ctx *c, json_t *doc)
{
    json_t *commit = json_object_get(doc, "commit_hash");
    if (!json_is_string(commit) || json_string_length(commit) == 0)
        return harness_wrong(c, "commit_hash", "a non-empty string", commit);
    json_t *a = json_object(), *params = json_object_get(doc, "params");
    if (!a)
        return ingest_report_oom(c->rep);
    int rc = json_is_object(params) && json_object_update(a, params) ? -1 : 0;
    static const char *const keys[] = {"env_name", "python", "requirements", "env_vars", "date", NULL};
    for (int k = 0; rc == 0 && keys[k]; k++) {
        json_t *v = json_object_get(doc, keys[k]);
        char key[32];
        snprintf(key, sizeof key, "%s%s", strcmp(keys[k], "date") == 0 ? "commit_" : "", keys[k]);
        if (v && !json_is_null(v) && json_object_set(a, key, v))
            rc = -1;
    }
    rc = rc ? ingest_report_oom(c->rep) : harness_attributes(c, a);
    json_decref(a);
    return rc ? rc : harness_source(c, json_string_value(commit));
}

int harness_asv(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_object(doc))
        return harness_wrong(c, NULL, "a JSON object (an asv results file)", doc);
    json_t *version = json_object_get(doc, "version"), *results = json_object_get(doc, "results");
    json_int_t ver = json_is_integer(version) ? json_integer_value(version) : 0;
    if (ver != 1 && ver != 2)
        return harness_wrong(c, "version", "1 or 2 (the versions of asv's results format)", version);
    if (!json_is_object(results))
        return harness_wrong(c, "results", "an object", results);
    if (run_facts(c, doc))
        return -1;
    struct strbuf where = {0};
    int rc = ver == 2 ? version2(c, doc, results, &where) : version1(c, doc, results, &where);
    sb_free(&where);
    return rc;
}

int harness_asv_text(struct harness_ctx *c, const char *text, size_t len)
{
    return harness_json_nonfinite(c, text, len, harness_asv);
}
