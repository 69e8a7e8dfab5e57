/* JMH's JSON result file (-rf json): an array of benchmarks, each with a
 * primaryMetric and secondaryMetrics holding rawData (per fork, per
 * iteration) or, in sample mode, rawDataHistogram (per fork, per iteration,
 * [value, count] bins). One series per fork and metric; the summary fields
 * are kept as given in the series' detail, never used. docs/formats.md. */
#include <stdio.h>
#include <string.h>

#include "ingest/core/jsontext.h"
#include "ingest/decoders/jmh/jmh.h"
#include "ingest/decoders/harness.h"

/* The summary of a metric as given (numbers or "NaN"/"+INF" strings) and
 * the benchmark's mode, as canonical JSON in c->detail. */
static int metric_detail(struct harness_ctx *c, json_t *bench, json_t *metric)
{
    static const char *const keys[] = {"score", "scoreError", "scoreConfidence", "scorePercentiles", NULL};
    json_t *d = json_object();
    if (!d)
        return ingest_report_oom(c->rep);
    int bad = json_object_set(d, "mode", json_object_get(bench, "mode"));
    json_t *threads = json_object_get(bench, "threads");
    if (threads)
        bad |= json_object_set(d, "threads", threads);
    for (int i = 0; keys[i]; i++) {
        json_t *v = json_object_get(metric, keys[i]);
        if (v)
            bad |= json_object_set(d, keys[i], v);
    }
    int rc = bad ? ingest_report_oom(c->rep) : harness_detail(c, NULL, d);
    json_decref(d);
    return rc;
}

/* One metric: a series per fork with at least one value. */
static int metric_series(struct harness_ctx *c, size_t bi, json_t *bench, const char *name, const char *mpath,
                         json_t *metric, const char *metric_name, long long fork0, long long *forks_seen)
{
    char path[512];
    if (!json_is_object(metric)) {
        snprintf(path, sizeof path, "[%zu].%s", bi, mpath);
        return harness_wrong(c, path, "an object", metric);
    }
    json_t *unit = json_object_get(metric, "scoreUnit");
    if (!json_is_string(unit) || json_string_length(unit) == 0) {
        snprintf(path, sizeof path, "[%zu].%s.scoreUnit", bi, mpath);
        return harness_wrong(c, path, "a unit name", unit);
    }
    json_t *raw = json_object_get(metric, "rawData"), *hist = json_object_get(metric, "rawDataHistogram");
    int histogram = hist != NULL && !json_is_null(hist);
    json_t *forks = histogram ? hist : raw;
    const char *rawkey = histogram ? "rawDataHistogram" : "rawData";
    if (!forks || json_is_null(forks))
        return 0; /* a metric without raw data: nothing measured to keep */
    snprintf(path, sizeof path, "[%zu].%s.%s", bi, mpath, rawkey);
    if (!json_is_array(forks))
        return harness_wrong(c, path, "an array (one row per fork)", forks);
    if (metric_detail(c, bench, metric))
        return -1;
    if ((long long)json_array_size(forks) > *forks_seen)
        *forks_seen = (long long)json_array_size(forks);
    struct dvec d = {0};
    int rc = 0;
    for (size_t f = 0; rc == 0 && f < json_array_size(forks); f++) {
        json_t *row = json_array_get(forks, f);
        d.n = 0;
        snprintf(path, sizeof path, "[%zu].%s.%s[%zu]", bi, mpath, rawkey, f);
        if (!json_is_array(row)) {
            rc = harness_wrong(c, path, histogram ? "an array of iterations" : "an array of numbers", row);
            break;
        }
        for (size_t k = 0; rc == 0 && k < json_array_size(row); k++) {
            json_t *x = json_array_get(row, k);
            double v;
            if (!histogram) {
                if (!harness_number(x, &v)) {
                    snprintf(path, sizeof path, "[%zu].%s.%s[%zu][%zu]", bi, mpath, rawkey, f, k);
                    rc = harness_wrong(c, path, "a finite number", x);
                } else if (dvec_push(&d, v, 1)) {
                    rc = ingest_report_oom(c->rep);
                }
                continue;
            }
            if (!json_is_array(x)) {
                snprintf(path, sizeof path, "[%zu].%s.%s[%zu][%zu]", bi, mpath, rawkey, f, k);
                rc = harness_wrong(c, path, "an array of [value, count] bins", x);
                break;
            }
            for (size_t b = 0; rc == 0 && b < json_array_size(x); b++) {
                json_t *bin = json_array_get(x, b);
                json_t *cnt = json_array_get(bin, 1);
                snprintf(path, sizeof path, "[%zu].%s.%s[%zu][%zu][%zu]", bi, mpath, rawkey, f, k, b);
                if (!json_is_array(bin) || json_array_size(bin) != 2 || !harness_number(json_array_get(bin, 0), &v) ||
                    !json_is_integer(cnt) || json_integer_value(cnt) < 1)
                    rc = harness_wrong(c, path, "a [value, count] bin (a finite number and an integer >= 1)", bin);
                else if (dvec_push(&d, v, json_integer_value(cnt)))
                    rc = ingest_report_oom(c->rep);
            }
        }
        if (rc == 0 && d.n > 0) { /* empty rows are skipped */
            snprintf(path, sizeof path, "[%zu].%s.%s[%zu]", bi, mpath, rawkey, f);
            rc = harness_series(c, path, name, fork0 + (long long)f, metric_name, json_string_value(unit), c->detail.buf, d.v,
                            histogram ? d.count : NULL, d.n, NULL, 0);
        }
    }
    dvec_free(&d);
    return rc;
}

static int one_benchmark(struct harness_ctx *c, json_t *doc, size_t i, json_t *seen, struct strbuf *key);

int harness_jmh(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_array(doc))
        return harness_wrong(c, NULL, "a JSON array of JMH benchmark results", doc);
    /* A benchmark (name and params) listed again continues its forks:
     * "name NUL params" -> [mode, next fork]. */
    json_t *seen = json_object();
    struct strbuf key = {0};
    int rc = seen ? 0 : ingest_report_oom(c->rep);
    for (size_t i = 0; rc == 0 && i < json_array_size(doc); i++)
        rc = one_benchmark(c, doc, i, seen, &key);
    json_decref(seen);
    sb_free(&key);
    return rc;
}

static int one_benchmark(struct harness_ctx *c, json_t *doc, size_t i, json_t *seen, struct strbuf *key)
{
    char path[64];
    json_t *b = json_array_get(doc, i);
    snprintf(path, sizeof path, "[%zu]", i);
    if (!json_is_object(b))
        return harness_wrong(c, path, "an object", b);
    json_t *name = json_object_get(b, "benchmark"), *mode = json_object_get(b, "mode");
    json_t *params = json_object_get(b, "params");
    snprintf(path, sizeof path, "[%zu].benchmark", i);
    if (!json_is_string(name) || json_string_length(name) == 0)
        return harness_wrong(c, path, "a non-empty string", name);
    snprintf(path, sizeof path, "[%zu].mode", i);
    if (!json_is_string(mode))
        return harness_wrong(c, path, "a string (thrpt, avgt, sample, ss)", mode);
    snprintf(path, sizeof path, "[%zu].params", i);
    if (params && !json_is_null(params) && !json_is_object(params))
        return harness_wrong(c, path, "an object", params);
    if (harness_params(c, json_is_object(params) ? params : NULL))
        return -1;
    sb_reset(key);
    if (sb_puts(key, json_string_value(name)) || sb_puts(key, "\n") || sb_puts(key, c->params.buf))
        return ingest_report_oom(c->rep);
    json_t *prev = json_object_get(seen, key->buf);
    snprintf(path, sizeof path, "[%zu].mode", i);
    long long fork0 = 0, forks = 0;
    if (prev) {
        const char *pmode = json_string_value(json_array_get(prev, 0));
        if (strcmp(pmode, json_string_value(mode)) != 0)
            return harness_fail(c, path, "benchmark \"%s\" with these params is listed in mode \"%s\" and again in "
                                     "mode \"%s\" (one mode per file)", json_string_value(name), pmode,
                            json_string_value(mode));
        fork0 = json_integer_value(json_array_get(prev, 1));
    }
    json_t *pm = json_object_get(b, "primaryMetric");
    snprintf(path, sizeof path, "[%zu].primaryMetric", i);
    if (!pm)
        return harness_fail(c, path, "required field missing");
    if (metric_series(c, i, b, json_string_value(name), "primaryMetric", pm, NULL, fork0, &forks))
        return -1;
    json_t *sec = json_object_get(b, "secondaryMetrics");
    snprintf(path, sizeof path, "[%zu].secondaryMetrics", i);
    if (sec && !json_is_null(sec) && !json_is_object(sec))
        return harness_wrong(c, path, "an object", sec);
    const char *k;
    json_t *m;
    json_object_foreach(json_is_object(sec) ? sec : NULL, k, m) {
        char mpath[300];
        snprintf(mpath, sizeof mpath, "secondaryMetrics.%s", k);
        if (strcmp(k, "primary") == 0)
            return harness_fail(c, path, "a secondary metric named \"primary\" (the primary metric's own name)");
        if (metric_series(c, i, b, json_string_value(name), mpath, m, k, fork0, &forks))
            return -1;
    }
    if (json_object_set_new(seen, key->buf, json_pack("[O,I]", mode, (json_int_t)(fork0 + forks))))
        return ingest_report_oom(c->rep);
    return 0;
}
