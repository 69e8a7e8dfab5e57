/* nanobench's JSON template (ankerl::nanobench::templates::json()): one
 * object per benchmark in "results", its "measurements" one per epoch:
 * "elapsed" the average wall-clock time of one iteration of the epoch, in
 * seconds, and the per-iteration averages of the performance counters.
 * Each epoch's elapsed is a value of the cell named "name" (the primary
 * metric); each counter a further metric of its own name (unit 1), left
 * out when it is 0 in every epoch (nanobench writes 0 for a counter it
 * could not read). The epoch's iteration count, the title, unit, batch,
 * configuration and nanobench's own statistics (median(elapsed)...) go to
 * the series detail. A name listed again (the same benchmark run twice)
 * is the next fork. nanobench's pyperf template is pyperf's format, read
 * by that adapter. docs/formats.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/idmap.h"
#include "ingest/decoders/harness.h"
#include "ingest/decoders/nanobench/nanobench.h"

/* The measurements are read flat (core/jsonflat.h): a record of these
 * fields per epoch, no json_t object each; the counters are fields 2 on. */
static const char *const fields[] = {"elapsed", "iterations", "pagefaults", "cpucycles", "contextswitches",
                                     "instructions", "branchinstructions", "branchmisses", NULL};
enum { F_ELAPSED = 1, F_ITERATIONS, F_COUNTERS };
static const char *const measurements_path[] = {"results", "*", "measurements", NULL};
const struct json_flat_spec nanobench_flat = {measurements_path, fields};

/* The values of field over the measurements, into v; *present when one
 * is not 0 (always, for a required field). An optional field missing from
 * the first measurement is left out. */
static int column(struct harness_ctx *c, size_t i, const struct json_flat_array *meas, int field, int required,
                  struct dvec *v, int *present)
{
    char path[96];
    *present = 0;
    for (size_t k = 0; k < meas->n; k++) {
        const struct json_flat_value *x = &json_flat_at(meas, k)[field];
        double d;
        if (x->type == JSON_FLAT_ABSENT && !required && k == 0)
            return 0; /* an older template without this counter */
        if (x->type == JSON_INTEGER) {
            d = (double)x->u.integer;
        } else if (x->type == JSON_REAL) {
            d = x->u.real;
        } else { /* the path formatted only here: printf per value cost a tenth of the time */
            snprintf(path, sizeof path, "results[%zu].measurements[%zu].%s", i, k, fields[field - 1]);
            return harness_wrong_flat(c, path, "a number", x);
        }
        if (dvec_push(v, d, 1))
            return ingest_report_oom(c->rep);
        *present |= d != 0;
    }
    if (required)
        *present = 1;
    return 0;
}

static int result_values(struct harness_ctx *c, size_t i, json_t *r, struct idmap *seen,
                         struct json_flat_array **made)
{
    char path[96];
    snprintf(path, sizeof path, "results[%zu]", i);
    if (!json_is_object(r))
        return harness_wrong(c, path, "an object", r);
    json_t *name = json_object_get(r, "name"), *meas = json_object_get(r, "measurements");
    snprintf(path, sizeof path, "results[%zu].name", i);
    if (!json_is_string(name) || json_string_length(name) == 0)
        return harness_wrong(c, path, "a non-empty string", name);
    snprintf(path, sizeof path, "results[%zu].measurements", i);
    if (!json_is_array(meas))
        return harness_wrong(c, path, "an array", meas);
    const struct json_flat_array *ms = harness_flat(c, meas, fields, made);
    if (!ms)
        return -1;
    for (size_t k = 0; k < ms->n; k++)
        if (json_flat_at(ms, k)[0].type != JSON_OBJECT) {
            snprintf(path, sizeof path, "results[%zu].measurements[%zu]", i, k);
            return harness_wrong_flat(c, path, "an object", &json_flat_at(ms, k)[0]);
        }
    const char *nm = json_string_value(name);
    int64_t *prev = idmap_get(seen, nm, json_string_length(name));
    long long fork = prev ? *prev + 1 : 0;
    if (idmap_put(seen, nm, json_string_length(name), fork))
        return ingest_report_oom(c->rep);
    /* everything but the measurements, and each epoch's iterations */
    json_t *d = harness_copy(r), *iters = json_array();
    int rc = d && iters ? 0 : ingest_report_oom(c->rep);
    for (size_t k = 0; rc == 0 && k < ms->n; k++) {
        const struct json_flat_value *it = &json_flat_at(ms, k)[F_ITERATIONS];
        json_t *j = it->type == JSON_FLAT_ABSENT ? json_null() : json_flat_json(it);
        if (!j || json_array_append_new(iters, j))
            rc = ingest_report_oom(c->rep);
    }
    if (rc == 0 && (json_object_del(d, "measurements") || json_object_del(d, "name") ||
                    json_object_set(d, "iterations", iters)))
        rc = ingest_report_oom(c->rep);
    snprintf(path, sizeof path, "results[%zu]", i);
    if (rc == 0)
        rc = harness_detail(c, path, d);
    json_decref(d);
    json_decref(iters);
    char *detail = rc == 0 ? strdup(c->detail.buf) : NULL;
    if (rc == 0 && !detail)
        rc = ingest_report_oom(c->rep);
    int present;
    struct dvec v = {0};
    if (rc == 0)
        rc = column(c, i, ms, F_ELAPSED, 1, &v, &present);
    snprintf(path, sizeof path, "results[%zu].measurements", i);
    if (rc == 0)
        rc = harness_series(c, path, nm, fork, NULL, "s", detail, v.v, NULL, v.n, NULL, 0);
    for (int k = F_COUNTERS; rc == 0 && fields[k - 1]; k++) {
        dvec_free(&v);
        rc = column(c, i, ms, k, 0, &v, &present);
        if (rc == 0 && present && v.n)
            rc = harness_series(c, path, nm, fork, fields[k - 1], "1", NULL, v.v, NULL, v.n, NULL, 0);
    }
    dvec_free(&v);
    free(detail);
    return rc;
}

static int one_result(struct harness_ctx *c, size_t i, json_t *r, struct idmap *seen)
{
    struct json_flat_array *made = NULL;
    int rc = result_values(c, i, r, seen, &made);
    json_flat_array_free(made);
    return rc;
}

int harness_nanobench(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_object(doc))
        return harness_wrong(c, NULL, "a JSON object with \"results\"", doc);
    json_t *results = json_object_get(doc, "results");
    if (!json_is_array(results))
        return harness_wrong(c, "results", "an array", results);
    if (harness_params(c, NULL))
        return -1;
    struct idmap seen = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < json_array_size(results); i++)
        rc = one_result(c, i, json_array_get(results, i), &seen);
    idmap_free(&seen);
    return rc;
}
