/* tinybench's task results and Vitest's bench JSON (Vitest runs tinybench).
 * A task's latency samples (milliseconds per iteration) are the primary
 * metric; tinybench 3 and later also keep throughput samples (operations
 * per second), a further metric. Where the file keeps no samples
 * (tinybench without retainSamples; Vitest's JSON, which writes
 * "samples": [] whatever its options) the mean is the one value, marked
 * "stored": "mean" in the detail. The harness's statistics (mean, p75,
 * rme, hz...) are kept in series.detail, never as values.
 * docs/formats.md. */
#include <stdio.h>
#include <string.h>

#include "ingest/core/idmap.h"
#include "ingest/decoders/harness.h"
#include "ingest/decoders/tinybench/tinybench.h"

/* The samples are read flat (core/jsonflat.h): a number is 16 bytes in
 * the document's arena, not a json_t and its slot in an array; the
 * readers take them with harness_numbers as they take a tree's. */
static const char *const no_fields[] = {NULL};
static const char *const tinybench_path[] = {"*", "result", "latency|throughput", "samples", NULL};
static const char *const vitest_path[] = {"files", "*", "groups", "*", "benchmarks", "*", "samples", NULL};
const struct json_flat_spec tinybench_flat = {tinybench_path, no_fields};
const struct json_flat_spec vitest_flat = {vitest_path, no_fields};

/* A name listed again continues its fork numbers, as JMH's does: the
 * second listing's values are another process's. */
static int fork_of(struct harness_ctx *c, struct idmap *seen, const char *name, long long *fork)
{
    int64_t *n = idmap_get(seen, name, strlen(name));
    *fork = n ? *n : 0;
    if (n) {
        (*n)++;
        return 0;
    }
    return idmap_put(seen, name, strlen(name), 1) ? ingest_report_oom(c->rep) : 0;
}

/* The values of stats (an object with "samples" and "mean"): its samples,
 * or its mean when it kept none (*from_mean 1). *from_mean -1 on entry:
 * neither is no error, and leaves d empty. */
static int values_of(struct harness_ctx *c, const char *path, json_t *stats, struct dvec *d, int *from_mean)
{
    char p[320];
    json_t *s = json_object_get(stats, "samples");
    snprintf(p, sizeof p, "%s.samples", path);
    if (s && !json_is_null(s) && harness_numbers(c, p, s, d))
        return -1;
    if (d->n)
        return 0;
    double m;
    json_t *mean = json_object_get(stats, "mean");
    snprintf(p, sizeof p, "%s.mean", path);
    if (!mean && *from_mean < 0)
        return 0; /* neither: the caller takes it for a benchmark that failed */
    if (!harness_number(mean, &m))
        return harness_wrong(c, p, "a number (the mean: the file keeps no samples)", mean);
    *from_mean = 1;
    return dvec_push(d, m, 1) ? ingest_report_oom(c->rep) : 0;
}

/* The statistics of obj as the series' detail: obj without its samples
 * and the keys of drop, and "stored": "mean" when the value is the mean. */
static int stats_detail(struct harness_ctx *c, const char *path, json_t *obj, const char *const *drop, int from_mean)
{
    json_t *d = json_deep_copy(obj);
    if (!d)
        return ingest_report_oom(c->rep);
    json_object_del(d, "samples");
    static const char *const parts[] = {"latency", "throughput"};
    for (int k = 0; k < 2; k++)
        if (json_is_object(json_object_get(d, parts[k])))
            json_object_del(json_object_get(d, parts[k]), "samples");
    for (; drop && *drop; drop++)
        json_object_del(d, *drop);
    int rc = from_mean && json_object_set_new(d, "stored", json_string("mean")) ? ingest_report_oom(c->rep)
                                                                                : harness_detail(c, path, d);
    json_decref(d);
    return rc;
}

/* A result that did not complete (errored, aborted, never started) is an
 * event, as Google Benchmark's errored rows are. 1 when it was one. */
static int not_completed(struct harness_ctx *c, const char *path, const char *name, json_t *res, int *rc)
{
    json_t *state = json_object_get(res, "state"), *err = json_object_get(res, "error");
    int ok = !json_is_string(state) || strcmp(json_string_value(state), "completed") == 0 ||
             strcmp(json_string_value(state), "aborted-with-statistics") == 0;
    if (ok && (!err || json_is_null(err)))
        return 0;
    json_t *d = json_pack("{s:s,s:O*,s:O*}", "name", name, "state", state, "error", err);
    *rc = !d ? ingest_report_oom(c->rep) : harness_detail(c, path, d);
    if (*rc == 0)
        *rc = harness_event(c, "benchmark-error", name, c->detail.buf);
    json_decref(d);
    return 1;
}

/* One task's result at path (tinybench 2's flat statistics, or 3 and
 * later's latency and throughput objects). */
static int one_result(struct harness_ctx *c, const char *path, const char *name, long long fork, json_t *res)
{
    char p[320];
    if (!json_is_object(res))
        return harness_wrong(c, path, "an object (the task's result)", res);
    int rc = 0;
    if (not_completed(c, path, name, res, &rc))
        return rc;
    json_t *lat = json_object_get(res, "latency"), *thr = json_object_get(res, "throughput");
    struct dvec v = {0}, t = {0};
    int lat_mean = 0, thr_mean = 0;
    if (lat) {
        snprintf(p, sizeof p, "%s.latency", path);
        rc = json_is_object(lat) ? values_of(c, p, lat, &v, &lat_mean) : harness_wrong(c, p, "an object", lat);
        snprintf(p, sizeof p, "%s.throughput", path);
        if (rc == 0 && thr && !json_is_null(thr))
            rc = json_is_object(thr) ? values_of(c, p, thr, &t, &thr_mean) : harness_wrong(c, p, "an object", thr);
    } else {
        rc = values_of(c, path, res, &v, &lat_mean);
    }
    if (rc == 0)
        rc = stats_detail(c, path, res, NULL, lat_mean);
    snprintf(p, sizeof p, lat ? "%s.latency" : "%s", path);
    if (rc == 0)
        rc = harness_series(c, p, name, fork, NULL, "ms", c->detail.buf, v.v, NULL, v.n, NULL, 0);
    snprintf(p, sizeof p, "%s.throughput", path);
    if (rc == 0 && t.n)
        rc = harness_series(c, p, name, fork, "throughput", "ops/s", thr_mean ? "{\"stored\":\"mean\"}" : NULL, t.v,
                            NULL, t.n, NULL, 0);
    dvec_free(&v);
    dvec_free(&t);
    return rc;
}

int harness_tinybench(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_array(doc))
        return harness_wrong(c, NULL, "an array of tasks ({\"name\", \"result\"})", doc);
    if (harness_params(c, NULL))
        return -1;
    struct idmap seen = {0};
    int rc = 0;
    char path[64];
    for (size_t i = 0; rc == 0 && i < json_array_size(doc); i++) {
        json_t *task = json_array_get(doc, i), *name = json_object_get(task, "name");
        snprintf(path, sizeof path, "[%zu]", i);
        if (!json_is_object(task)) {
            rc = harness_wrong(c, path, "an object (a task)", task);
            break;
        }
        snprintf(path, sizeof path, "[%zu].name", i);
        if (!json_is_string(name) || json_string_length(name) == 0) {
            rc = harness_wrong(c, path, "a non-empty string", name);
            break;
        }
        long long fork;
        snprintf(path, sizeof path, "[%zu].result", i);
        rc = fork_of(c, &seen, json_string_value(name), &fork);
        if (rc == 0)
            rc = one_result(c, path, json_string_value(name), fork, json_object_get(task, "result"));
    }
    idmap_free(&seen);
    return rc;
}

/* A Vitest benchmark without samples or a mean: event benchmark-error
 * (Vitest writes no message for it). */
static int threw(struct harness_ctx *c, const char *path, const char *name)
{
    json_t *d = json_pack("{s:s,s:s}", "name", name, "error",
                          "no result: Vitest writes no statistics for a benchmark that threw");
    int rc = !d ? ingest_report_oom(c->rep) : harness_detail(c, path, d);
    json_decref(d);
    return rc ? rc : harness_event(c, "benchmark-error", name, c->detail.buf);
}

/* One group of a Vitest file: its benchmarks, named "FULLNAME > NAME". */
static int vitest_group(struct harness_ctx *c, size_t f, size_t g, json_t *group, struct idmap *seen)
{
    static const char *const drop[] = {"name", "id", NULL};
    char path[128];
    snprintf(path, sizeof path, "files[%zu].groups[%zu]", f, g);
    if (!json_is_object(group))
        return harness_wrong(c, path, "an object", group);
    json_t *full = json_object_get(group, "fullName"), *benches = json_object_get(group, "benchmarks");
    snprintf(path, sizeof path, "files[%zu].groups[%zu].fullName", f, g);
    if (!json_is_string(full))
        return harness_wrong(c, path, "a string", full);
    snprintf(path, sizeof path, "files[%zu].groups[%zu].benchmarks", f, g);
    if (!json_is_array(benches))
        return harness_wrong(c, path, "an array", benches);
    struct strbuf name = {0};
    int rc = 0;
    for (size_t b = 0; rc == 0 && b < json_array_size(benches); b++) {
        json_t *bench = json_array_get(benches, b), *n = json_object_get(bench, "name");
        snprintf(path, sizeof path, "files[%zu].groups[%zu].benchmarks[%zu].name", f, g, b);
        if (!json_is_string(n) || json_string_length(n) == 0) {
            rc = harness_wrong(c, path, "a non-empty string", n);
            break;
        }
        sb_reset(&name);
        if (json_string_length(full) ? sb_printf(&name, "%s > %s", json_string_value(full), json_string_value(n))
                                     : sb_puts(&name, json_string_value(n))) {
            rc = ingest_report_oom(c->rep);
            break;
        }
        snprintf(path, sizeof path, "files[%zu].groups[%zu].benchmarks[%zu]", f, g, b);
        long long fork;
        struct dvec v = {0};
        /* without statistics (hz, sampleCount) a missing mean is a failure, not an error */
        int from_mean = json_object_get(bench, "hz") || json_object_get(bench, "sampleCount") ? 0 : -1;
        rc = fork_of(c, seen, name.buf, &fork);
        if (rc == 0)
            rc = values_of(c, path, bench, &v, &from_mean);
        if (rc == 0 && v.n == 0) {
            /* Vitest 4 writes a benchmark that threw as its id, name, rank,
             * "rme": 0 and "samples": [], no statistics: an event. */
            rc = threw(c, path, name.buf);
            dvec_free(&v);
            continue;
        }
        if (rc == 0)
            rc = stats_detail(c, path, bench, drop, from_mean > 0);
        if (rc == 0)
            rc = harness_series(c, path, name.buf, fork, NULL, "ms", c->detail.buf, v.v, NULL, v.n, NULL, 0);
        dvec_free(&v);
    }
    sb_free(&name);
    return rc;
}

int harness_vitest(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_object(doc))
        return harness_wrong(c, NULL, "a JSON object with \"files\"", doc);
    json_t *files = json_object_get(doc, "files");
    if (!json_is_array(files))
        return harness_wrong(c, "files", "an array", files);
    if (harness_params(c, NULL))
        return -1;
    struct idmap seen = {0};
    int rc = 0;
    char path[64];
    for (size_t f = 0; rc == 0 && f < json_array_size(files); f++) {
        json_t *file = json_array_get(files, f), *groups = json_object_get(file, "groups");
        snprintf(path, sizeof path, "files[%zu].groups", f);
        if (!json_is_array(groups)) {
            rc = harness_wrong(c, path, "an array", groups);
            break;
        }
        for (size_t g = 0; rc == 0 && g < json_array_size(groups); g++)
            rc = vitest_group(c, f, g, json_array_get(groups, g), &seen);
    }
    idmap_free(&seen);
    return rc;
}
