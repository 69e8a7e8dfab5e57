/* Benchmark.js results as saved with JSON.stringify: an array of
 * Benchmark objects (suite.map(b => b), suite.slice()) or the Suite
 * itself ({"0": ..., "1": ..., "length": 2}). Each benchmark's
 * stats.sample (seconds per operation, one per cycle, in the order
 * measured) are its values; stats, times, hz, count and cycles, the
 * harness's own figures, are kept in series.detail; a benchmark with an
 * error is an event. docs/formats.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/idmap.h"
#include "ingest/decoders/benchmarkjs/benchmarkjs.h"
#include "ingest/decoders/harness.h"

/* Benchmark i at path: its samples as one series of the cell named by its
 * name (a name listed again continues its fork numbers). */
static int one_bench(struct harness_ctx *c, const char *path, json_t *b, struct idmap *seen)
{
    char p[160];
    if (!json_is_object(b))
        return harness_wrong(c, path, "an object (a benchmark)", b);
    json_t *name = json_object_get(b, "name"), *stats = json_object_get(b, "stats"), *err = json_object_get(b, "error");
    snprintf(p, sizeof p, "%s.name", path);
    if (!json_is_string(name) || json_string_length(name) == 0)
        return harness_wrong(c, p, "a non-empty string", name);
    const char *n = json_string_value(name);
    int rc = 0;
    if (err && !json_is_null(err) && !json_is_false(err)) {
        json_t *d = json_pack("{s:s,s:O}", "name", n, "error", err);
        rc = !d ? ingest_report_oom(c->rep) : harness_detail(c, path, d);
        if (rc == 0)
            rc = harness_event(c, "benchmark-error", n, c->detail.buf);
        json_decref(d);
        return rc;
    }
    snprintf(p, sizeof p, "%s.stats", path);
    if (!json_is_object(stats))
        return harness_wrong(c, p, "an object with the benchmark's sample", stats);
    struct dvec v = {0};
    snprintf(p, sizeof p, "%s.stats.sample", path);
    rc = harness_numbers(c, p, json_object_get(stats, "sample"), &v);
    if (rc == 0 && v.n == 0)
        rc = harness_fail(c, p, "no samples (was the benchmark run?)");
    json_t *d = rc ? NULL : json_pack("{s:O*,s:O*,s:O*,s:O*,s:O*}", "stats", stats, "times", json_object_get(b, "times"),
                                      "hz", json_object_get(b, "hz"), "count", json_object_get(b, "count"), "cycles",
                                      json_object_get(b, "cycles"));
    if (rc == 0 && d && json_object_get(d, "stats")) {
        json_t *s = json_deep_copy(stats);
        if (!s || json_object_del(s, "sample") || json_object_set_new(d, "stats", s))
            rc = ingest_report_oom(c->rep);
    }
    if (rc == 0 && !d)
        rc = ingest_report_oom(c->rep);
    if (rc == 0)
        rc = harness_detail(c, path, d);
    json_decref(d);
    int64_t *seen_n = rc ? NULL : idmap_get(seen, n, strlen(n));
    long long fork = seen_n ? (*seen_n)++ : 0;
    if (rc == 0 && !seen_n && idmap_put(seen, n, strlen(n), 1))
        rc = ingest_report_oom(c->rep);
    if (rc == 0)
        rc = harness_series(c, p, n, fork, NULL, "s", c->detail.buf, v.v, NULL, v.n, NULL, 0);
    dvec_free(&v);
    return rc;
}

int harness_benchmarkjs(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_array(doc) && !json_is_object(doc))
        return harness_wrong(c, NULL, "an array of benchmarks, or a suite", doc);
    if (harness_params(c, NULL))
        return -1;
    size_t n = json_array_size(doc);
    if (json_is_object(doc)) {
        json_t *len = json_object_get(doc, "length");
        if (!json_is_integer(len) || json_integer_value(len) < 0)
            return harness_wrong(c, "length", "the suite's number of benchmarks", len);
        n = (size_t)json_integer_value(len);
    }
    struct idmap seen = {0};
    int rc = 0;
    char path[64];
    for (size_t i = 0; rc == 0 && i < n; i++) {
        json_t *b;
        if (json_is_array(doc)) {
            snprintf(path, sizeof path, "[%zu]", i);
            b = json_array_get(doc, i);
        } else {
            snprintf(path, sizeof path, "%zu", i);
            b = json_object_get(doc, path);
        }
        rc = one_bench(c, path, b, &seen);
    }
    idmap_free(&seen);
    return rc;
}
