/* pytest-benchmark's JSON (--benchmark-json, or a saved run with
 * --benchmark-save-data): each benchmark's stats.data holds one time per
 * round, in seconds, already divided by the round's iterations (its
 * Metadata.update), so each is the time of one call: the values of the
 * cell named by fullname (its "[param]" suffix taken off when params say
 * the same) with params as params. The computed statistics (min, mean,
 * ops...), iterations, group, options and extra_info go to the series
 * detail; machine_info and commit_info become run attributes and the
 * commit's id the run's source. Warm-up rounds are not written by
 * pytest-benchmark. docs/formats.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/decoders/harness.h"
#include "ingest/decoders/pytestbench/pytestbench.h"

/* Each benchmark's stats.data is read flat (core/jsonflat.h): a number is
 * 16 bytes in the document's arena, not a json_t and its slot in an
 * array; harness_numbers takes them as it takes a tree's. */
static const char *const no_fields[] = {NULL};
static const char *const data_path[] = {"benchmarks", "*", "stats", "data", NULL};
const struct json_flat_spec pytest_flat = {data_path, no_fields};

/* The run's facts: machine_info's keys as they are, commit_info's as
 * commit_KEY, the file's datetime and version. */
static int run_facts(struct harness_ctx *c, json_t *doc)
{
    json_t *a = json_object(), *m = json_object_get(doc, "machine_info"), *ci = json_object_get(doc, "commit_info");
    if (!a)
        return ingest_report_oom(c->rep);
    int rc = 0;
    if (json_is_object(m) && json_object_update(a, m))
        rc = -1;
    const char *key;
    json_t *v;
    if (json_is_object(ci))
        json_object_foreach(ci, key, v) {
            char k[128];
            snprintf(k, sizeof k, "commit_%s", key);
            if (rc == 0 && json_object_set(a, k, v))
                rc = -1;
        }
    json_t *dt = json_object_get(doc, "datetime"), *ver = json_object_get(doc, "version");
    if (rc == 0 && json_is_string(dt) && json_object_set(a, "datetime", dt))
        rc = -1;
    if (rc == 0 && json_is_string(ver) && json_object_set(a, "pytest_benchmark_version", ver))
        rc = -1;
    rc = rc ? ingest_report_oom(c->rep) : harness_attributes(c, a);
    json_decref(a);
    json_t *id = json_is_object(ci) ? json_object_get(ci, "id") : NULL;
    if (rc == 0 && json_is_string(id) && json_string_length(id) && strcmp(json_string_value(id), "unversioned") != 0)
        rc = harness_source(c, json_string_value(id));
    if (rc == 0 && json_is_string(dt))
        rc = harness_started_at(c, json_string_value(dt));
    return rc;
}

/* fullname without a "[PARAM]" suffix when the benchmark has params */
static int cell_name(struct harness_ctx *c, size_t i, json_t *b, json_t *params, char **out)
{
    char path[64];
    json_t *full = json_object_get(b, "fullname");
    if (!full)
        full = json_object_get(b, "name");
    snprintf(path, sizeof path, "benchmarks[%zu].fullname", i);
    if (!json_is_string(full) || json_string_length(full) == 0)
        return harness_wrong(c, path, "a non-empty string", full);
    const char *s = json_string_value(full);
    size_t n = json_string_length(full);
    json_t *param = json_object_get(b, "param");
    if (json_is_object(params) && json_object_size(params) && json_is_string(param)) {
        size_t pn = json_string_length(param);
        if (n > pn + 2 && s[n - 1] == ']' && s[n - pn - 2] == '[' && memcmp(s + n - pn - 1, json_string_value(param), pn) == 0)
            n -= pn + 2;
    }
    *out = strndup(s, n);
    return *out ? 0 : ingest_report_oom(c->rep);
}

static int one_benchmark(struct harness_ctx *c, size_t i, json_t *b)
{
    char path[96];
    snprintf(path, sizeof path, "benchmarks[%zu]", i);
    if (!json_is_object(b))
        return harness_wrong(c, path, "an object", b);
    json_t *params = json_object_get(b, "params"), *stats = json_object_get(b, "stats");
    snprintf(path, sizeof path, "benchmarks[%zu].params", i);
    if (params && !json_is_null(params) && !json_is_object(params))
        return harness_wrong(c, path, "an object or null", params);
    snprintf(path, sizeof path, "benchmarks[%zu].stats", i);
    if (!json_is_object(stats))
        return harness_wrong(c, path, "an object", stats);
    json_t *data = json_object_get(stats, "data");
    snprintf(path, sizeof path, "benchmarks[%zu].stats.data", i);
    if (!data)
        return harness_fail(c, path, "missing: the file holds pytest-benchmark's statistics only (saved without "
                                     "--benchmark-save-data); --benchmark-json or --benchmark-save-data keep each "
                                     "round's time");
    char *name = NULL;
    struct dvec v = {0};
    json_t *d = json_object();
    int rc = d ? 0 : ingest_report_oom(c->rep);
    if (rc == 0)
        rc = cell_name(c, i, b, params, &name);
    if (rc == 0)
        rc = harness_params(c, json_is_object(params) ? params : NULL);
    if (rc == 0)
        rc = harness_numbers(c, path, data, &v);
    /* the statistics pytest-benchmark computed, and what it says about the benchmark */
    json_t *st = rc == 0 ? harness_copy(stats) : NULL;
    if (rc == 0 && (!st || json_object_del(st, "data") || json_object_set_new(d, "stats", st)))
        rc = ingest_report_oom(c->rep);
    static const char *const keep[] = {"group", "param", "options", "extra_info", NULL};
    for (int k = 0; rc == 0 && keep[k]; k++) {
        json_t *x = json_object_get(b, keep[k]);
        if (x && !json_is_null(x) && json_object_set(d, keep[k], x))
            rc = ingest_report_oom(c->rep);
    }
    snprintf(path, sizeof path, "benchmarks[%zu]", i);
    if (rc == 0)
        rc = harness_detail(c, path, d);
    snprintf(path, sizeof path, "benchmarks[%zu].stats.data", i);
    if (rc == 0)
        rc = harness_series(c, path, name, 0, NULL, "s", c->detail.buf, v.v, NULL, v.n, NULL, 0);
    json_decref(d);
    dvec_free(&v);
    free(name);
    return rc;
}

int harness_pytest_benchmark(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_object(doc))
        return harness_wrong(c, NULL, "a JSON object with \"benchmarks\"", doc);
    json_t *benches = json_object_get(doc, "benchmarks");
    if (!json_is_array(benches))
        return harness_wrong(c, "benchmarks", "an array", benches);
    if (run_facts(c, doc))
        return -1;
    for (size_t i = 0; i < json_array_size(benches); i++)
        if (one_benchmark(c, i, json_array_get(benches, i)))
            return -1;
    return 0;
}
