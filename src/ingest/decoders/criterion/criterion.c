/* Criterion.rs's target/criterion/NAME/new/sample.json: per sample, the
 * iteration count (iters) and the time those iterations took, in ns
 * (times). Each sample's value is times[i] / iters[i], the time of one
 * iteration, as Criterion's own analysis takes it (its "average times");
 * iters is kept in the series detail. The benchmark's name comes from
 * benchmark.json beside it, Criterion's statistics (estimates.json) go to
 * the detail untouched. docs/formats.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/jsonflat.h"
#include "ingest/core/jsonparse.h"
#include "ingest/decoders/criterion/criterion.h"
#include "ingest/decoders/harness.h"

const char *const criterion_companions[] = {"benchmark.json", "estimates.json", NULL};

/* The times are read flat (core/jsonflat.h): a number is 16 bytes in the
 * document's arena, not a json_t and its slot in an array; harness_numbers
 * takes them as it takes a tree's. The iters stay a tree: the detail keeps
 * them as they are. */
static const char *const no_fields[] = {NULL};
static const char *const times_path[] = {"times", NULL};
const struct json_flat_spec criterion_flat = {times_path, no_fields};

/* A string field of benchmark.json, or NULL when missing or null; -1 on
 * another type. */
static int opt_string(struct harness_ctx *c, json_t *b, const char *key, const char **out)
{
    json_t *v = json_object_get(b, key);
    *out = NULL;
    if (!v || json_is_null(v))
        return 0;
    char path[64];
    snprintf(path, sizeof path, "benchmark.json: %s", key);
    if (!json_is_string(v) || json_string_length(v) == 0)
        return harness_wrong(c, path, "a non-empty string or null", v);
    *out = json_string_value(v);
    return 0;
}

/* The cell's name (group_id[/function_id]) into name, its params
 * ({"value": value_str}) into c->params, and the detail's title and
 * throughput. */
static int naming(struct harness_ctx *c, json_t *bench, struct strbuf *name, json_t *detail)
{
    if (!json_is_object(bench))
        return harness_wrong(c, "benchmark.json", "an object", bench);
    const char *group, *function, *value, *full;
    if (opt_string(c, bench, "group_id", &group) || opt_string(c, bench, "function_id", &function) ||
        opt_string(c, bench, "value_str", &value) || opt_string(c, bench, "full_id", &full))
        return -1;
    if (!group)
        return harness_wrong(c, "benchmark.json: group_id", "a non-empty string", json_object_get(bench, "group_id"));
    if (sb_puts(name, group) || (function && (sb_putc(name, '/') || sb_puts(name, function))))
        return ingest_report_oom(c->rep);
    json_t *params = value ? json_pack("{s:s}", "value", value) : NULL;
    if (value && !params)
        return ingest_report_oom(c->rep);
    int rc = harness_params(c, params);
    json_decref(params);
    if (rc)
        return -1;
    json_t *thr = json_object_get(bench, "throughput");
    if ((full && json_object_set_new(detail, "full_id", json_string(full))) ||
        (thr && !json_is_null(thr) && json_object_set(detail, "throughput", thr)))
        return ingest_report_oom(c->rep);
    return 0;
}

static int values(struct harness_ctx *c, json_t *doc, struct dvec *v, json_t *detail)
{
    json_t *iters = json_object_get(doc, "iters"), *times = json_object_get(doc, "times");
    struct dvec it = {0}, tm = {0};
    int rc = harness_numbers(c, "iters", iters, &it);
    if (rc == 0)
        rc = harness_numbers(c, "times", times, &tm);
    if (rc == 0 && it.n != tm.n)
        rc = harness_fail(c, "times", "expected as many times as iters (%zu), got %zu", it.n, tm.n);
    for (size_t i = 0; rc == 0 && i < it.n; i++) {
        if (!(it.v[i] > 0)) {
            char path[48];
            snprintf(path, sizeof path, "iters[%zu]", i);
            rc = harness_wrong(c, path, "an iteration count > 0", json_array_get(iters, i));
        } else if (dvec_push(v, tm.v[i] / it.v[i], 1)) {
            rc = ingest_report_oom(c->rep);
        }
    }
    dvec_free(&it);
    dvec_free(&tm);
    json_t *mode = json_object_get(doc, "sampling_mode");
    if (rc == 0 && (json_object_set(detail, "iters", iters) || (mode && json_object_set(detail, "sampling_mode", mode))))
        rc = ingest_report_oom(c->rep);
    return rc;
}

int harness_criterion(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_object(doc))
        return harness_wrong(c, NULL, "a JSON object with \"iters\" and \"times\" (Criterion.rs's sample.json)", doc);
    struct json_doc bench = {0}, est = {0};
    int have_bench = harness_companion_json(c, "benchmark.json", &bench);
    if (have_bench < 0)
        return -1;
    if (have_bench == 0)
        return harness_fail(c, "benchmark.json", "not found beside sample.json (Criterion.rs writes it in the same "
                                                 "directory, new/; it names the benchmark)");
    int have_est = harness_companion_json(c, "estimates.json", &est);
    struct strbuf name = {0};
    struct dvec v = {0};
    json_t *detail = json_object();
    int rc = have_est < 0 ? -1 : detail ? 0 : ingest_report_oom(c->rep);
    if (rc == 0)
        rc = naming(c, bench.root, &name, detail);
    if (rc == 0)
        rc = values(c, doc, &v, detail);
    if (rc == 0 && have_est > 0 && !json_is_object(est.root))
        rc = harness_wrong(c, "estimates.json", "an object", est.root);
    if (rc == 0 && have_est > 0 && json_object_set(detail, "estimates", est.root))
        rc = ingest_report_oom(c->rep);
    if (rc == 0)
        rc = harness_detail(c, NULL, detail);
    if (rc == 0)
        rc = harness_series(c, "times", name.buf, 0, NULL, "ns", c->detail.buf, v.v, NULL, v.n, NULL, 0);
    json_decref(detail);
    dvec_free(&v);
    sb_free(&name);
    if (have_est > 0)
        json_doc_free(&est);
    json_doc_free(&bench);
    return rc;
}
