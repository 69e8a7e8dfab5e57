/* Records of benchdb-run/1: each field checked against the format
 * (docs/archive-format.md), errors as "record.field: expected ..., got
 * ...", then handed to the sink. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/jsontext.h"
#include "ingest/core/rfc3339.h"
#include "store/unit_rows.h"
#include "ingest/decoders/run/fields.h"
#include "ingest/decoders/run/run.h"

void run_decoder_init(struct run_decoder *d, struct sink *sink, struct ingest_report *rep)
{
    memset(d, 0, sizeof *d);
    d->sink = sink;
    d->rep = rep;
}

void run_decoder_free(struct run_decoder *d)
{
    idmap_free(&d->warned);
    idmap_free(&d->runs_seen);
    sb_free(&d->key);
    sb_free(&d->text);
    free(d->v);
    free(d->w);
}

void run_decoder_archive(struct run_decoder *d, struct budget *budget, struct run_files files)
{
    d->budget = budget;
    d->files = files;
    d->in_run = 0;
    idmap_clear(&d->warned);
    idmap_clear(&d->runs_seen);
}

void run_decoder_stream(struct run_decoder *d)
{
    d->in_run = 0;
}

int run_decoder_stream_end(struct run_decoder *d)
{
    if (d->in_run)
        return 0;
    d->rep->line = 0;
    return ingest_report_fail(d->rep, NULL,
                       "no run record (a run stream holds one or more runs, each opened by a run record)");
}

/* ---- field validation ---- */

static const char *const run_keys[] = {"record", "format", "plan", "run", "host", "position", "source",
                                       "started_at", "ended_at", "treatment", "baseline", "attributes", "append",
                                       NULL};
static const char *const samples_keys[] = {"record", "benchmark", "params", "block", "variant", "fork",
                                           "metric", "unit", "values", "warmup", NULL};
static const char *const results_keys[] = {"record", "format", "block", "variant", "path", "data", NULL};
static const char *const gate_keys[] = {"record", "name", "passed", "at", "detail", NULL};
static const char *const event_keys[] = {"record", "name", "value", "at", "detail", NULL};

/* Warns once per archive about each key the format does not define. */
static int warn_unknown_keys(struct run_decoder *d, const char *rec, json_t *obj, const char *const *known)
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
        sb_reset(&d->key);
        if (sb_printf(&d->key, "%s.%s", rec, key))
            return ingest_report_oom(d->rep);
        if (idmap_get(&d->warned, d->key.buf, d->key.len))
            continue;
        if (idmap_put(&d->warned, d->key.buf, d->key.len, 1))
            return ingest_report_oom(d->rep);
        ingest_report_warn(d->rep, "%s: unknown key (kept in the stored archive bytes)", d->key.buf);
    }
    return 0;
}

static int get_time(struct run_decoder *d, json_t *obj, const char *rec, const char *key, const char **out)
{
    static const char expected[] = "an RFC 3339 date-time such as \"2026-10-21T03:57:00Z\"";
    json_t *v;
    *out = NULL;
    int rc = run_get_field(d, obj, rec, key, 0, expected, &v);
    if (rc <= 0)
        return rc;
    if (!json_is_string(v) || !rfc3339_valid(json_string_value(v)))
        return run_wrong(d, rec, key, expected, v);
    *out = json_string_value(v);
    return 0;
}

/* An object of scalar values (strings, numbers, booleans) as canonical
 * JSON text in d->text ("{}" when absent), and itself in *out (NULL when
 * absent). */
static int get_scalar_object(struct run_decoder *d, json_t *obj, const char *rec, const char *key, json_t **out)
{
    json_t *v;
    sb_reset(&d->text);
    *out = NULL;
    int rc = run_get_field(d, obj, rec, key, 0, "an object", &v);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return sb_puts(&d->text, "{}") ? ingest_report_oom(d->rep) : 0;
    if (!json_is_object(v))
        return run_wrong(d, rec, key, "an object", v);
    const char *k;
    json_t *x;
    json_object_foreach(v, k, x) {
        if (!json_is_string(x) && !json_is_number(x) && !json_is_boolean(x)) {
            char field[128], got[96];
            snprintf(field, sizeof field, "%s.%s.%s", rec, key, k);
            json_describe(x, got, sizeof got);
            return ingest_report_fail(d->rep, field, "expected a string, number or boolean, got %s", got);
        }
    }
    if (json_canonical(v, &d->text))
        return ingest_report_oom(d->rep);
    *out = v;
    return 0;
}

/* A samples record's values: non-empty unless optional, every value a
 * finite number (> 0 for the primary metric), into *out. */
static int get_values(struct run_decoder *d, json_t *arr, const char *key, int required, int positive, double **out,
                      size_t *cap)
{
    /* a further metric (allocations, bytes...) may be 0 or negative */
    const char *each = positive ? "a finite number > 0" : "a finite number";
    if (!json_is_array(arr) || (required && json_array_size(arr) == 0))
        return run_wrong(d, "samples", key, required ? "a non-empty array of numbers" : "an array of numbers", arr);
    size_t n = json_array_size(arr);
    if (n > *cap) {
        double *nv = realloc(*out, n * sizeof *nv);
        if (!nv)
            return ingest_report_oom(d->rep);
        *out = nv;
        *cap = n;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_array_get(arr, i);
        double v = json_is_integer(x) ? (double)json_integer_value(x) : json_is_real(x) ? json_real_value(x) : -1;
        if (!json_is_number(x) || (positive && !(v > 0)) || !isfinite(v)) {
            char field[64], got[96];
            snprintf(field, sizeof field, "samples.%s[%zu]", key, i);
            json_describe(x, got, sizeof got);
            return ingest_report_fail(d->rep, field, "expected %s, got %s", each, got);
        }
        (*out)[i] = v;
    }
    return 0;
}

/* detail: any JSON, stored as canonical text in d->text (NULL when absent). */
static int get_detail(struct run_decoder *d, json_t *rec, const char *kind, const char **out)
{
    json_t *v;
    *out = NULL;
    if (run_get_field(d, rec, "", "detail", 0, "", &v) <= 0)
        return 0;
    int depth = json_depth(v);
    if (depth > JSON_STORE_DEPTH_MAX) {
        char field[32];
        snprintf(field, sizeof field, "%s.detail", kind);
        return ingest_report_fail(d->rep, field, "nested %d levels deep, more than the %d the store's JSON columns hold",
                           depth, JSON_STORE_DEPTH_MAX);
    }
    sb_reset(&d->text);
    if (json_canonical(v, &d->text))
        return ingest_report_oom(d->rep);
    *out = d->text.buf;
    return 0;
}

/* ---- records ---- */

static int record_run(struct run_decoder *d, json_t *rec)
{
    json_t *fmt, *append;
    if (run_get_field(d, rec, "run", "format", 1, "\"" RUN_STREAM_FORMAT "\"", &fmt) < 0)
        return -1;
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), RUN_STREAM_FORMAT) != 0)
        return run_wrong(d, "run", "format", "\"" RUN_STREAM_FORMAT "\" (the only format this build reads)", fmt);
    struct sink_run r = {0};
    int has_position;
    if (run_get_name(d, rec, "run", "plan", 1, &r.plan) || run_get_name(d, rec, "run", "run", 1, &r.name) ||
        run_get_name(d, rec, "run", "host", 1, &r.host) ||
        run_get_int(d, rec, "run", "position", 0, 1, &r.position, &has_position))
        return -1;
    json_t *src;
    if (run_get_field(d, rec, "run", "source", 0, "a string", &src) && !json_is_string(src))
        return run_wrong(d, "run", "source", "a string", src);
    r.source = src ? json_string_value(src) : NULL;
    if (get_time(d, rec, "run", "started_at", &r.started_at) || get_time(d, rec, "run", "ended_at", &r.ended_at) ||
        run_get_name(d, rec, "run", "treatment", 0, &r.treatment) ||
        run_get_name(d, rec, "run", "baseline", 0, &r.baseline))
        return -1;
    if (!r.treatment != !r.baseline)
        return ingest_report_fail(d->rep, r.treatment ? "run.baseline" : "run.treatment",
                           "required field missing (treatment and baseline go together: both or neither)");
    if (run_get_field(d, rec, "run", "append", 0, "true or false", &append) && !json_is_boolean(append))
        return run_wrong(d, "run", "append", "true or false", append);
    r.append = json_is_true(append);
    if (get_scalar_object(d, rec, "run", "attributes", &r.attributes))
        return -1;

    /* (plan, run) once per archive. */
    sb_reset(&d->key);
    if (sb_puts(&d->key, r.plan) || sb_putc(&d->key, 0) || sb_puts(&d->key, r.name))
        return ingest_report_oom(d->rep);
    int64_t *seen = idmap_get(&d->runs_seen, d->key.buf, d->key.len);
    if (seen)
        return ingest_report_fail(d->rep, "run.run", "run \"%s\" of plan \"%s\" appears twice in this archive (first at line "
                                              "%lld)", r.name, r.plan, (long long)*seen);
    if (idmap_put(&d->runs_seen, d->key.buf, d->key.len, (int64_t)d->rep->line))
        return ingest_report_oom(d->rep);
    if (sink_run(d->sink, &r))
        return -1;
    d->in_run = 1;
    return 0;
}

static int record_samples(struct run_decoder *d, json_t *rec)
{
    const char *bench, *variant, *metric;
    long long block = 0, fork = 0;
    int has;
    json_t *params;
    if (run_get_name(d, rec, "samples", "benchmark", 1, &bench) ||
        get_scalar_object(d, rec, "samples", "params", &params) ||
        run_get_int(d, rec, "samples", "block", 1, 1, &block, &has) ||
        run_get_name(d, rec, "samples", "variant", 1, &variant) ||
        run_get_int(d, rec, "samples", "fork", 0, 0, &fork, &has) ||
        run_get_name(d, rec, "samples", "metric", 0, &metric))
        return -1;
    if (metric && strcmp(metric, "primary") == 0)
        metric = NULL;
    json_t *u;
    if (run_get_field(d, rec, "samples", "unit", 1, "a unit name", &u) < 0)
        return -1;
    if (metric) {
        if (!json_is_string(u) || json_string_length(u) == 0 || strlen(json_string_value(u)) != json_string_length(u))
            return run_wrong(d, "samples", "unit", "a non-empty string", u);
    } else {
        int ix = json_is_string(u) ? store_unit_find(json_string_value(u)) : -1;
        if (ix < 0 || ix >= store_unit_primary_count) {
            char expected[160];
            snprintf(expected, sizeof expected, "one of %s", store_unit_primary_list);
            return run_wrong(d, "samples", "unit", expected, u);
        }
    }
    json_t *values, *warmup;
    if (run_get_field(d, rec, "samples", "values", 1, "a non-empty array of numbers", &values) < 0 ||
        get_values(d, values, "values", 1, !metric, &d->v, &d->cap_v))
        return -1;
    if (run_get_field(d, rec, "samples", "warmup", 0, "an array of numbers", &warmup) &&
        get_values(d, warmup, "warmup", 0, !metric, &d->w, &d->cap_w))
        return -1;
    struct sink_series x = {bench, d->text.buf, block, fork, variant, metric, json_string_value(u), NULL, "samples", 0};
    return sink_series(d->sink, &x, d->v, NULL, json_array_size(values), d->w, warmup ? json_array_size(warmup) : 0);
}

static int record_gate(struct run_decoder *d, json_t *rec)
{
    const char *name, *at, *detail;
    json_t *passed;
    if (run_get_name(d, rec, "gate", "name", 1, &name) ||
        run_get_field(d, rec, "gate", "passed", 1, "true or false", &passed) < 0)
        return -1;
    if (!json_is_boolean(passed))
        return run_wrong(d, "gate", "passed", "true or false", passed);
    if (get_time(d, rec, "gate", "at", &at) || get_detail(d, rec, "gate", &detail))
        return -1;
    return sink_gate(d->sink, name, json_is_true(passed), at, detail);
}

static int record_event(struct run_decoder *d, json_t *rec)
{
    const char *name, *at, *detail;
    json_t *value;
    if (run_get_name(d, rec, "event", "name", 1, &name))
        return -1;
    if (run_get_field(d, rec, "event", "value", 0, "", &value) && !json_is_string(value) && !json_is_number(value) &&
        !json_is_boolean(value))
        return run_wrong(d, "event", "value", "a string, number, boolean or null", value);
    if (get_time(d, rec, "event", "at", &at) || get_detail(d, rec, "event", &detail))
        return -1;
    struct sink_value v = {.type = SV_NULL};
    if (json_is_string(value))
        v = (struct sink_value){.type = SV_TEXT, .text = json_string_value(value), .len = json_string_length(value)};
    else if (json_is_integer(value))
        v = (struct sink_value){.type = SV_INT, .i = json_integer_value(value)};
    else if (json_is_real(value))
        v = (struct sink_value){.type = SV_REAL, .d = json_real_value(value)};
    else if (json_is_boolean(value))
        v = (struct sink_value){.type = SV_INT, .i = json_is_true(value)};
    return sink_event(d->sink, name, &v, at, detail);
}

int run_decoder_record(struct run_decoder *d, json_t *rec)
{
    static const char kinds[] = "\"run\", \"samples\", \"results\", \"gate\" or \"event\"";
    json_t *kind = json_is_object(rec) ? json_object_get(rec, "record") : NULL;
    const char *k = json_is_string(kind) ? json_string_value(kind) : "";
    if (!json_is_object(rec)) {
        char got[96];
        json_describe(rec, got, sizeof got);
        return ingest_report_fail(d->rep, NULL, "expected a JSON object, got %s", got);
    }
    if (!kind)
        return ingest_report_fail(d->rep, "record", "required field missing (expected %s)", kinds);
    if (strcmp(k, "run") == 0)
        return warn_unknown_keys(d, k, rec, run_keys) ? -1 : record_run(d, rec);
    if (strcmp(k, "samples") != 0 && strcmp(k, "gate") != 0 && strcmp(k, "event") != 0 && strcmp(k, "results") != 0)
        return run_wrong(d, "", "record", kinds, kind);
    if (!d->in_run)
        return ingest_report_fail(d->rep, "record", "a \"%s\" record before any \"run\" record (a run record opens each run)",
                           k);
    if (strcmp(k, "samples") == 0)
        return warn_unknown_keys(d, k, rec, samples_keys) ? -1 : record_samples(d, rec);
    if (strcmp(k, "results") == 0)
        return warn_unknown_keys(d, k, rec, results_keys) ? -1 : run_results_record(d, rec);
    if (strcmp(k, "gate") == 0)
        return warn_unknown_keys(d, k, rec, gate_keys) ? -1 : record_gate(d, rec);
    return warn_unknown_keys(d, k, rec, event_keys) ? -1 : record_event(d, rec);
}
