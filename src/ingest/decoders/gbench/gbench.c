/* Google Benchmark's JSON (--benchmark_out_format=json): iteration rows
 * become values (one per repetition) of the cell named by run_name (or
 * name), real_time the primary metric (its series' detail names it
 * real_time), cpu_time and user counters further
 * metrics; aggregate rows are skipped (a file of nothing else is refused),
 * errored rows become events, the context object run attributes and its
 * date (with its UTC offset) the run's start. docs/formats.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/idmap.h"
#include "ingest/core/jsontext.h"
#include "ingest/decoders/gbench/gbench.h"
#include "ingest/decoders/harness.h"
#include "util/text.h"

/* Keys of a row that are not counters. */
static const char *const row_keys[] = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
    "aggregate_unit", "error_occurred", "error_message", "skipped", "skip_message", "label", "big_o", "rms",
    "complexity", NULL};

static int is_row_key(const char *k)
{
    for (int i = 0; row_keys[i]; i++)
        if (strcmp(row_keys[i], k) == 0)
            return 1;
    return 0;
}

/* A counter's unit: Google Benchmark's two named rates, else "1". */
static const char *counter_unit(const char *k)
{
    if (strcmp(k, "bytes_per_second") == 0)
        return "B/s";
    if (strcmp(k, "items_per_second") == 0)
        return "items/s";
    return "1";
}

/* One cell's values as they are collected, in the order rows appear. */
struct cell {
    char *name;
    const char *unit;
    size_t first_row;
    struct dvec real, cpu;
    json_t *counters; /* name -> array of numbers; NULL until the cell's first counter (most cells have none) */
    json_t *not_finite; /* counter name -> how many rows wrote it NaN or (-)Infinity; NULL when none did */
};

/* The file's cells in the order they first appear, found by name through
 * a hash map (a file may hold 80,000 names: a search of the cells before
 * each row would make reading quadratic). */
struct cells {
    struct cell *v; /* room for one per row */
    size_t n;
    struct idmap index; /* name -> index in v */
};

static void cells_free(struct cells *cs)
{
    for (size_t i = 0; i < cs->n; i++) {
        free(cs->v[i].name);
        dvec_free(&cs->v[i].real);
        dvec_free(&cs->v[i].cpu);
        json_decref(cs->v[i].counters);
        json_decref(cs->v[i].not_finite);
    }
    free(cs->v);
    idmap_free(&cs->index);
}

/* An iteration row's values (real_time, cpu_time, counters) added to its
 * cell; unit is its time_unit. */
static int row_values(struct harness_ctx *c, size_t i, json_t *r, struct cell *cell)
{
    char path[96];
    double real, cpu;
    snprintf(path, sizeof path, "benchmarks[%zu].real_time", i);
    if (!harness_number(json_object_get(r, "real_time"), &real))
        return harness_wrong(c, path, "a number", json_object_get(r, "real_time"));
    snprintf(path, sizeof path, "benchmarks[%zu].cpu_time", i);
    json_t *jcpu = json_object_get(r, "cpu_time");
    if (jcpu && !harness_number(jcpu, &cpu))
        return harness_wrong(c, path, "a number", jcpu);
    if (dvec_push(&cell->real, real, 1) || (jcpu && dvec_push(&cell->cpu, cpu, 1)))
        return ingest_report_oom(c->rep);
    const char *key;
    json_t *v;
    json_object_foreach(r, key, v) {
        if (!is_row_key(key) && json_is_string(v) && strcmp(json_string_value(v), "NaN") * strcmp(json_string_value(v), "Infinity") * strcmp(json_string_value(v), "-Infinity") == 0) {
            /* a counter of no finite value (0/0): no value this row, counted */
            json_t *k = json_object_get(cell->not_finite, key);
            if (!cell->not_finite && !(cell->not_finite = json_object()))
                return ingest_report_oom(c->rep);
            if (json_object_set_new(cell->not_finite, key, json_integer(k ? json_integer_value(k) + 1 : 1)))
                return ingest_report_oom(c->rep);
            continue;
        }
        if (is_row_key(key) || !json_is_number(v))
            continue;
        json_t *arr = json_object_get(cell->counters, key);
        if (!arr) {
            if (!cell->counters && !(cell->counters = json_object()))
                return ingest_report_oom(c->rep);
            arr = json_array();
            if (!arr || json_object_set_new(cell->counters, key, arr))
                return ingest_report_oom(c->rep);
        }
        if (json_array_append(arr, v))
            return ingest_report_oom(c->rep);
    }
    return 0;
}

/* Row i: an aggregate is passed over, an error becomes an event, an
 * iteration adds its values to its cell. */
/* Google Benchmark's time units (its benchmark::TimeUnit as the JSON
 * reporter writes them), each also a row of the unit table. */
static int gbench_time_unit(const char *unit)
{
    return strcmp(unit, "ns") == 0 || strcmp(unit, "us") == 0 || strcmp(unit, "ms") == 0 || strcmp(unit, "s") == 0;
}

static int one_row(struct harness_ctx *c, size_t i, json_t *r, struct cells *cs)
{
    char path[96];
    snprintf(path, sizeof path, "benchmarks[%zu]", i);
    if (!json_is_object(r))
        return harness_wrong(c, path, "an object", r);
    json_t *name = json_object_get(r, "run_name");
    if (!json_is_string(name))
        name = json_object_get(r, "name");
    snprintf(path, sizeof path, "benchmarks[%zu].name", i);
    if (!json_is_string(name) || json_string_length(name) == 0)
        return harness_wrong(c, path, "a non-empty string", name);
    json_t *type = json_object_get(r, "run_type");
    if (json_is_string(type) && strcmp(json_string_value(type), "aggregate") == 0) {
        c->aggregates++;
        return 0; /* mean, median, stddev...: recomputable from the iterations */
    }
    /* SkipWithError: error_occurred; SkipWithMessage (1.8 and later): skipped.
     * Either row's times are 0 and its iterations 0: nothing was measured. */
    int error = json_is_true(json_object_get(r, "error_occurred"));
    if (error || json_is_true(json_object_get(r, "skipped"))) {
        const char *key = error ? "error_message" : "skip_message";
        json_t *d = json_pack("{s:O,s:O*}", "name", name, key, json_object_get(r, key));
        snprintf(path, sizeof path, "benchmarks[%zu].%s", i, key);
        int rc = !d ? ingest_report_oom(c->rep) : harness_detail(c, path, d);
        if (rc == 0)
            rc = harness_event(c, error ? "benchmark-error" : "benchmark-skipped", json_string_value(name),
                               c->detail.buf);
        json_decref(d);
        return rc;
    }
    json_t *tu = json_object_get(r, "time_unit");
    const char *unit = json_is_string(tu) ? json_string_value(tu) : "ns";
    snprintf(path, sizeof path, "benchmarks[%zu].time_unit", i);
    if (tu && (!json_is_string(tu) || !gbench_time_unit(unit)))
        return harness_wrong(c, path, "one of ns, us, ms, s", tu);
    int64_t *ix = idmap_get(&cs->index, json_string_value(name), json_string_length(name));
    struct cell *cell = ix ? &cs->v[*ix] : NULL;
    if (!cell) {
        cell = &cs->v[cs->n++];
        /* gcc -fanalyzer reads a leak of the name on the out-of-memory
         * return: it is counted in cs->n already, so cells_free frees it. */
        cell->name = strdup(json_string_value(name));
        cell->unit = unit;
        cell->first_row = i;
        if (!cell->name ||
            idmap_put(&cs->index, json_string_value(name), json_string_length(name), (int64_t)(cs->n - 1)))
            return ingest_report_oom(c->rep);
    } else if (strcmp(cell->unit, unit) != 0) {
        return harness_fail(c, path, "expected \"%s\" (the time_unit of benchmarks[%zu]), got \"%s\"", cell->unit,
                            cell->first_row, unit);
    }
    return row_values(c, i, r, cell);
}

/* A cell's series: real_time, cpu_time, then each counter. */
static int cell_series(struct harness_ctx *c, struct cell *cell)
{
    char path[96];
    snprintf(path, sizeof path, "benchmarks[%zu].real_time", cell->first_row);
    /* Primary, named as Google Benchmark names it (docs/formats.md), with
     * the counters it wrote as not finite. */
    char *detail = NULL;
    if (cell->not_finite) {
        json_t *d = json_pack("{s:s,s:O}", "metric", "real_time", "not_finite", cell->not_finite);
        detail = d ? json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
        json_decref(d);
        if (!detail)
            return ingest_report_oom(c->rep);
    }
    int rc = harness_series(c, path, cell->name, 0, NULL, cell->unit, detail ? detail : "{\"metric\":\"real_time\"}",
                            cell->real.v, NULL, cell->real.n, NULL, 0);
    free(detail);
    snprintf(path, sizeof path, "benchmarks[%zu].cpu_time", cell->first_row);
    if (rc == 0 && cell->cpu.n)
        rc = harness_series(c, path, cell->name, 0, "cpu_time", cell->unit, NULL, cell->cpu.v, NULL, cell->cpu.n,
                            NULL, 0);
    const char *key;
    json_t *arr;
    json_object_foreach(cell->counters, key, arr) {
        if (rc)
            break;
        struct dvec d = {0};
        for (size_t j = 0; rc == 0 && j < json_array_size(arr); j++) {
            double v = 0;
            harness_number(json_array_get(arr, j), &v);
            if (dvec_push(&d, v, 1))
                rc = ingest_report_oom(c->rep);
        }
        snprintf(path, sizeof path, "benchmarks[%zu].%.60s", cell->first_row, key);
        if (rc == 0)
            rc = harness_series(c, path, cell->name, 0, key, counter_unit(key), NULL, d.v, NULL, d.n, NULL, 0);
        dvec_free(&d);
    }
    return rc;
}

int harness_gbench(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_object(doc))
        return harness_wrong(c, NULL, "a JSON object with \"benchmarks\"", doc);
    json_t *rows = json_object_get(doc, "benchmarks"), *ctx = json_object_get(doc, "context");
    if (!json_is_array(rows))
        return harness_wrong(c, "benchmarks", "an array", rows);
    if (ctx && !json_is_null(ctx) && !json_is_object(ctx))
        return harness_wrong(c, "context", "an object", ctx);
    if (json_is_object(ctx) && harness_attributes(c, ctx))
        return -1;
    json_t *date = json_object_get(ctx, "date");
    if (json_is_string(date) && harness_started_at(c, json_string_value(date)))
        return -1;
    size_t nrows = json_array_size(rows);
    struct cells cs = {calloc(nrows ? nrows : 1, sizeof *cs.v), 0, {0}};
    if (!cs.v)
        return ingest_report_oom(c->rep);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nrows; i++)
        rc = one_row(c, i, json_array_get(rows, i), &cs);
    if (rc == 0)
        rc = harness_params(c, NULL);
    for (size_t k = 0; rc == 0 && k < cs.n; k++)
        rc = cell_series(c, &cs.v[k]);
    cells_free(&cs);
    return rc;
}

int harness_gbench_text(struct harness_ctx *c, const char *text, size_t len)
{
    return harness_json_nonfinite(c, text, len, harness_gbench);
}

int gbench_host_name(const char *text, size_t len, char **host)
{
    *host = NULL;
    size_t bom = utf8_bom_len(text, len);
    struct strbuf q = {0};
    json_t *doc = harness_quote_nonfinite(text + bom, len - bom, &q) ? NULL : json_loadb(q.buf ? q.buf : "", q.len, 0, NULL);
    sb_free(&q);
    json_t *h = json_object_get(json_object_get(doc, "context"), "host_name");
    if (json_is_string(h) && json_string_length(h) > 0)
        *host = strdup(json_string_value(h));
    json_decref(doc);
    return *host ? 1 : 0;
}
