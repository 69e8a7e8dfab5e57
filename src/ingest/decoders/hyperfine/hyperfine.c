/* hyperfine's --export-json: each result's times (seconds) are the values
 * of the cell named by its command, with its parameters as params;
 * memory_usage_byte a further metric; a non-zero or null exit code an
 * event. docs/formats.md. */
#include <stdio.h>
#include <string.h>

#include "ingest/core/jsontext.h"
#include "ingest/decoders/hyperfine/hyperfine.h"
#include "ingest/decoders/harness.h"

static int numbers(struct harness_ctx *c, const char *path, json_t *arr, struct dvec *d)
{
    if (!json_is_array(arr))
        return harness_wrong(c, path, "an array of numbers", arr);
    for (size_t k = 0; k < json_array_size(arr); k++) {
        double v;
        if (!harness_number(json_array_get(arr, k), &v)) {
            char p[96];
            snprintf(p, sizeof p, "%s[%zu]", path, k);
            return harness_wrong(c, p, "a finite number", json_array_get(arr, k));
        }
        if (dvec_push(d, v, 1))
            return ingest_report_oom(c->rep);
    }
    return 0;
}

static int one_result(struct harness_ctx *c, size_t i, json_t *r)
{
    char path[96];
    snprintf(path, sizeof path, "results[%zu]", i);
    if (!json_is_object(r))
        return harness_wrong(c, path, "an object", r);
    json_t *cmd = json_object_get(r, "command"), *params = json_object_get(r, "parameters");
    snprintf(path, sizeof path, "results[%zu].command", i);
    if (!json_is_string(cmd) || json_string_length(cmd) == 0)
        return harness_wrong(c, path, "a non-empty string", cmd);
    snprintf(path, sizeof path, "results[%zu].parameters", i);
    if (params && !json_is_null(params) && !json_is_object(params))
        return harness_wrong(c, path, "an object", params);
    if (harness_params(c, json_is_object(params) ? params : NULL))
        return -1;
    const char *name = json_string_value(cmd);
    struct dvec times = {0}, mem = {0};
    int rc;
    snprintf(path, sizeof path, "results[%zu].times", i);
    rc = numbers(c, path, json_object_get(r, "times"), &times);
    if (rc == 0)
        rc = harness_series(c, path, name, 0, NULL, "s", NULL, times.v, NULL, times.n, NULL, 0);
    json_t *m = json_object_get(r, "memory_usage_byte");
    snprintf(path, sizeof path, "results[%zu].memory_usage_byte", i);
    if (rc == 0 && m && !json_is_null(m)) {
        rc = numbers(c, path, m, &mem);
        if (rc == 0 && mem.n)
            rc = harness_series(c, path, name, 0, "memory_usage_byte", "bytes", NULL, mem.v, NULL, mem.n, NULL, 0);
    }
    dvec_free(&times);
    dvec_free(&mem);
    if (rc)
        return rc;
    json_t *codes = json_object_get(r, "exit_codes");
    if (!json_is_array(codes))
        return 0;
    size_t bad = 0;
    for (size_t k = 0; k < json_array_size(codes); k++) {
        json_t *x = json_array_get(codes, k);
        bad += !(json_is_integer(x) && json_integer_value(x) == 0);
    }
    if (!bad)
        return 0;
    json_t *d = json_pack("{s:O,s:O,s:O*}", "command", cmd, "exit_codes", codes, "parameters", params);
    snprintf(path, sizeof path, "results[%zu]", i);
    if (!d)
        rc = ingest_report_oom(c->rep);
    else if ((rc = harness_detail(c, path, d)) == 0)
        rc = harness_event(c, "exit-code", name, c->detail.buf);
    json_decref(d);
    return rc;
}

int harness_hyperfine(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_object(doc))
        return harness_wrong(c, NULL, "a JSON object with \"results\"", doc);
    json_t *results = json_object_get(doc, "results");
    if (!json_is_array(results))
        return harness_wrong(c, "results", "an array", results);
    for (size_t i = 0; i < json_array_size(results); i++)
        if (one_result(c, i, json_array_get(results, i)))
            return -1;
    return 0;
}
