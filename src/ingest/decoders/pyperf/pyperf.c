/* pyperf's JSON (also pyperformance's): benchmarks[].runs[], one series
 * per run (worker process) with its values, warmups kept as warmup values;
 * runs without values (calibration) are skipped. Metadata is inherited
 * suite -> benchmark -> run: the suite's becomes run attributes, the
 * benchmark's and run's the series' detail. docs/formats.md. */
#include <stdio.h>
#include <string.h>

#include "ingest/core/jsontext.h"
#include "ingest/decoders/pyperf/pyperf.h"
#include "ingest/decoders/harness.h"

/* pyperf's unit names: a time is the primary metric; bytes and integers
 * are stored as a further metric named after what they measure. */
static int map_unit(const char *u, const char **unit, const char **metric)
{
    if (strcmp(u, "second") == 0) {
        *unit = "s";
        *metric = NULL;
    } else if (strcmp(u, "byte") == 0) {
        *unit = "bytes";
        *metric = "memory";
    } else if (strcmp(u, "integer") == 0) {
        *unit = "1";
        *metric = "integer";
    } else {
        return -1;
    }
    return 0;
}

static json_t *meta(json_t *obj)
{
    json_t *m = json_object_get(obj, "metadata");
    return json_is_object(m) ? m : NULL;
}

/* The values and warmups of run r of benchmark i into v and w. 0, or -1
 * with the error reported. */
static int run_values(struct harness_ctx *c, size_t i, size_t r, json_t *values, json_t *warm, struct dvec *v,
                      struct dvec *w)
{
    char path[128];
    int rc = 0;
    snprintf(path, sizeof path, "benchmarks[%zu].runs[%zu].values", i, r);
    if (!json_is_array(values))
        rc = harness_wrong(c, path, "an array of numbers", values);
    for (size_t k = 0; rc == 0 && k < json_array_size(values); k++) {
        double x;
        if (!harness_number(json_array_get(values, k), &x)) {
            snprintf(path, sizeof path, "benchmarks[%zu].runs[%zu].values[%zu]", i, r, k);
            rc = harness_wrong(c, path, "a finite number", json_array_get(values, k));
        } else if (dvec_push(v, x, 1)) {
            rc = ingest_report_oom(c->rep);
        }
    }
    if (rc == 0 && warm && !json_is_null(warm) && !json_is_array(warm)) {
        snprintf(path, sizeof path, "benchmarks[%zu].runs[%zu].warmups", i, r);
        rc = harness_wrong(c, path, "an array of [loops, value] pairs", warm);
    }
    for (size_t k = 0; rc == 0 && json_is_array(warm) && k < json_array_size(warm); k++) {
        json_t *pair = json_array_get(warm, k);
        double x;
        if (!json_is_array(pair) || json_array_size(pair) != 2 || !harness_number(json_array_get(pair, 1), &x)) {
            snprintf(path, sizeof path, "benchmarks[%zu].runs[%zu].warmups[%zu]", i, r, k);
            rc = harness_wrong(c, path, "a [loops, value] pair", pair);
        } else if (dvec_push(w, x, 1)) {
            rc = ingest_report_oom(c->rep);
        }
    }
    return rc;
}

/* Run r of benchmark i (named name, its metadata with the suite's bm): one
 * series, none for a calibration run. 0, or nonzero with the error
 * reported. */
static int one_run(struct harness_ctx *c, size_t i, size_t r, json_t *run, json_t *bm, json_t *name)
{
    char path[128];
    snprintf(path, sizeof path, "benchmarks[%zu].runs[%zu]", i, r);
    if (!json_is_object(run))
        return harness_wrong(c, path, "an object", run);
    json_t *values = json_object_get(run, "values"), *warm = json_object_get(run, "warmups");
    if (!values || json_is_null(values) || (json_is_array(values) && json_array_size(values) == 0))
        return 0; /* a calibration run */
    json_t *m = json_deep_copy(bm);
    if (!m)
        return ingest_report_oom(c->rep);
    if (meta(run) && json_object_update(m, meta(run))) {
        json_decref(m);
        return ingest_report_oom(c->rep);
    }
    int rc = 0;
    json_t *u = json_object_get(m, "unit");
    const char *unit = "s", *metric = NULL;
    snprintf(path, sizeof path, "benchmarks[%zu].runs[%zu].metadata.unit", i, r);
    if (u && (!json_is_string(u) || map_unit(json_string_value(u), &unit, &metric))) {
        rc = harness_wrong(c, path, "\"second\", \"byte\" or \"integer\"", u);
    } else if (!u) {
        map_unit("second", &unit, &metric);
    }
    struct dvec v = {0}, w = {0};
    if (rc == 0)
        rc = run_values(c, i, r, values, warm, &v, &w);
    if (rc == 0) {
        json_object_del(m, "name");
        json_object_del(m, "unit");
        snprintf(path, sizeof path, "benchmarks[%zu].runs[%zu].metadata", i, r);
        rc = harness_detail(c, path, m);
    }
    snprintf(path, sizeof path, "benchmarks[%zu].runs[%zu]", i, r);
    if (rc == 0)
        rc = harness_series(c, path, json_string_value(name), (long long)r, metric, unit, c->detail.buf, v.v, NULL,
                            v.n, w.v, w.n);
    dvec_free(&v);
    dvec_free(&w);
    json_decref(m);
    return rc;
}

int harness_pyperf(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_object(doc))
        return harness_wrong(c, NULL, "a JSON object with \"benchmarks\"", doc);
    json_t *benches = json_object_get(doc, "benchmarks");
    if (!json_is_array(benches))
        return harness_wrong(c, "benchmarks", "an array", benches);
    json_t *suite = meta(doc);
    if (suite && harness_attributes(c, suite))
        return -1;
    if (harness_params(c, NULL))
        return -1;
    char path[128];
    for (size_t i = 0; i < json_array_size(benches); i++) {
        json_t *b = json_array_get(benches, i);
        snprintf(path, sizeof path, "benchmarks[%zu]", i);
        if (!json_is_object(b))
            return harness_wrong(c, path, "an object", b);
        json_t *bm = json_object();
        if (!bm)
            return ingest_report_oom(c->rep);
        if ((suite && json_object_update(bm, suite)) || (meta(b) && json_object_update(bm, meta(b)))) {
            json_decref(bm);
            return ingest_report_oom(c->rep);
        }
        json_t *name = json_object_get(bm, "name");
        snprintf(path, sizeof path, "benchmarks[%zu].metadata.name", i);
        if (!json_is_string(name) || json_string_length(name) == 0) {
            json_decref(bm);
            return harness_wrong(c, path, "a non-empty string (in the benchmark's or the suite's metadata)", name);
        }
        json_t *runs = json_object_get(b, "runs");
        snprintf(path, sizeof path, "benchmarks[%zu].runs", i);
        if (!json_is_array(runs)) {
            json_decref(bm);
            return harness_wrong(c, path, "an array", runs);
        }
        int rc = 0;
        for (size_t r = 0; rc == 0 && r < json_array_size(runs); r++)
            rc = one_run(c, i, r, json_array_get(runs, r), bm, name);
        json_decref(bm);
        if (rc)
            return -1;
    }
    return 0;
}
