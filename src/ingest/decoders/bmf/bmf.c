/* Bencher Metric Format JSON: {BENCHMARK: {MEASURE: {"value": V,
 * "lower_value": L, "upper_value": U}}}, and Bencher's newer form with
 * parameters, {BENCHMARK: [{"parameters": {...}, "measures": {MEASURE:
 * {"value": V, NAME: X...}}}]} (entries of the same parameters merge, a
 * later name winning, as Bencher merges them). Each measure's value is one
 * value; the other numbers (bounds, percentiles) are kept in
 * series.detail. Bencher's built-in measures have their units: latency
 * (ns) is the primary metric, and throughput (ops/s) is when a benchmark
 * has no latency; build-time is in s, file-size in bytes; any other
 * measure is a metric of its name with unit "1". docs/formats.md. */
#include <stdio.h>
#include <string.h>

#include "ingest/decoders/bmf/bmf.h"
#include "ingest/decoders/harness.h"

static void measure_unit(const char *m, int has_latency, const char **metric, const char **unit)
{
    *metric = m;
    *unit = "1";
    if (strcmp(m, "latency") == 0) {
        *metric = NULL;
        *unit = "ns";
    } else if (strcmp(m, "throughput") == 0) {
        *metric = has_latency ? m : NULL;
        *unit = "ops/s";
    } else if (strcmp(m, "build-time") == 0) {
        *unit = "s";
    } else if (strcmp(m, "file-size") == 0) {
        *unit = "bytes";
    }
}

/* The measures of one benchmark (an object MEASURE -> {value...}) at path,
 * with c->params set. */
static int measures(struct harness_ctx *c, const char *path, const char *bench, json_t *ms)
{
    char p[512];
    if (!json_is_object(ms))
        return harness_wrong(c, path, "an object of measures", ms);
    int has_latency = json_object_get(ms, "latency") != NULL;
    const char *key;
    json_t *m;
    json_object_foreach(ms, key, m) {
        snprintf(p, sizeof p, "%s.%s", path, key);
        if (!json_is_object(m))
            return harness_wrong(c, p, "an object with \"value\"", m);
        const char *k;
        json_t *x;
        json_object_foreach(m, k, x) {
            double d;
            if (!harness_number(x, &d)) {
                snprintf(p, sizeof p, "%s.%s.%s", path, key, k);
                return harness_wrong(c, p, "a number", x);
            }
        }
        double v;
        snprintf(p, sizeof p, "%s.%s.value", path, key);
        json_t *value = json_object_get(m, "value");
        if (!harness_number(value, &v))
            return harness_wrong(c, p, "a number (the measure's value, which benchdb stores; its other numbers "
                                       "are kept beside it)", value);
        json_t *rest = json_deep_copy(m);
        if (!rest || json_object_del(rest, "value")) {
            json_decref(rest);
            return ingest_report_oom(c->rep);
        }
        snprintf(p, sizeof p, "%s.%s", path, key);
        int rc = json_object_size(rest) ? harness_detail(c, p, rest) : 0;
        json_decref(rest);
        const char *metric, *unit;
        measure_unit(key, has_latency, &metric, &unit);
        if (rc == 0)
            rc = harness_series(c, p, bench, 0, metric, unit, json_object_size(m) > 1 ? c->detail.buf : NULL, &v, NULL,
                                1, NULL, 0);
        if (rc)
            return rc;
    }
    return 0;
}

/* A copy of params with integral numbers as integers: Bencher takes 16,
 * 16.0 and 1.6e1 for the same parameter value. */
static json_t *same_numbers(json_t *params)
{
    json_t *p = json_object();
    if (!p)
        return NULL;
    const char *k;
    json_t *v;
    json_object_foreach(params, k, v) {
        double x = json_is_real(v) ? json_real_value(v) : 0.5;
        json_t *w = x == (double)(json_int_t)x && x > -9007199254740992.0 && x < 9007199254740992.0
                        ? json_integer((json_int_t)x)
                        : json_incref(v);
        if (json_object_set_new(p, k, w)) {
            json_decref(p);
            return NULL;
        }
    }
    return p;
}

/* A measure to merge into: a copy of an object (the parsed document is not
 * to be changed: its nodes live in its arena, docs/architecture.md), each
 * key checked, since jansson's json_copy drops a key it cannot add; NULL
 * when memory ran out. Anything else is kept as it is (measures() refuses
 * it). */
static json_t *measure_copy(json_t *m)
{
    if (!json_is_object(m))
        return json_incref(m);
    json_t *cp = json_object();
    const char *k;
    json_t *v;
    json_object_foreach(m, k, v) {
        if (!cp || json_object_set(cp, k, v)) {
            json_decref(cp);
            return NULL;
        }
    }
    return cp;
}

/* Bencher's form with parameters: entries merged by their parameters. */
static int entries(struct harness_ctx *c, const char *bench, json_t *arr)
{
    char p[512];
    json_t *merged = json_object(), *params_of = json_object(); /* canonical params -> measures, params */
    int rc = merged && params_of ? 0 : ingest_report_oom(c->rep);
    for (size_t i = 0; rc == 0 && i < json_array_size(arr); i++) {
        json_t *e = json_array_get(arr, i), *params = json_object_get(e, "parameters"), *ms = json_object_get(e, "measures");
        snprintf(p, sizeof p, "%s[%zu]", bench, i);
        if (!json_is_object(e)) {
            rc = harness_wrong(c, p, "an object with \"measures\"", e);
            break;
        }
        snprintf(p, sizeof p, "%s[%zu].parameters", bench, i);
        if (params && !json_is_null(params) && !json_is_object(params)) {
            rc = harness_wrong(c, p, "an object", params);
            break;
        }
        snprintf(p, sizeof p, "%s[%zu].measures", bench, i);
        if (!json_is_object(ms)) {
            rc = harness_wrong(c, p, "an object of measures", ms);
            break;
        }
        json_t *same = json_is_object(params) ? same_numbers(params) : NULL;
        if (json_is_object(params) && !same) {
            rc = ingest_report_oom(c->rep);
            break;
        }
        rc = harness_params(c, same);
        if (rc) {
            json_decref(same);
            break;
        }
        json_t *into = json_object_get(merged, c->params.buf);
        if (!into && (json_object_set_new(merged, c->params.buf, into = json_object()) ||
                      json_object_set_new(params_of, c->params.buf, same ? json_incref(same) : json_null()))) {
            json_decref(same);
            rc = ingest_report_oom(c->rep);
            break;
        }
        json_decref(same);
        const char *key;
        json_t *m;
        json_object_foreach(ms, key, m) {
            json_t *had = json_object_get(into, key), *cp = NULL;
            if (json_is_object(had) && json_is_object(m) ? json_object_update(had, m)
                                                         : !(cp = measure_copy(m)) || json_object_set_new(into, key, cp)) {
                rc = ingest_report_oom(c->rep);
                break;
            }
        }
    }
    const char *k;
    json_t *ms;
    json_object_foreach(merged, k, ms) {
        if (rc)
            break;
        json_t *params = json_object_get(params_of, k);
        snprintf(p, sizeof p, "%s[]", bench);
        rc = harness_params(c, json_is_object(params) ? params : NULL);
        if (rc == 0)
            rc = measures(c, p, bench, ms);
    }
    json_decref(merged);
    json_decref(params_of);
    return rc;
}

int harness_bmf(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_object(doc))
        return harness_wrong(c, NULL, "a JSON object of benchmarks", doc);
    const char *bench;
    json_t *b;
    json_object_foreach(doc, bench, b) {
        if (!*bench)
            return harness_fail(c, NULL, "a benchmark with an empty name");
        int rc;
        if (json_is_array(b)) {
            rc = entries(c, bench, b);
        } else {
            rc = harness_params(c, NULL);
            if (rc == 0)
                rc = measures(c, bench, bench, b);
        }
        if (rc)
            return rc;
    }
    return 0;
}
