/* BenchmarkDotNet's full JSON export (*-report-full.json, and the default
 * *-report-full-compressed.json): each benchmark's Measurements, one per
 * iteration, become values per operation (Nanoseconds / Operations, ns/op)
 * of one series per launch (LaunchIndex, the process):
 *   Workload Actual                      the primary metric
 *   Workload Jitting, Pilot, Warmup      its warmup values
 *   Overhead Actual (and its warm-ups)   metric "overhead"
 *   Workload Result                      metric "result": BenchmarkDotNet's
 *                                        overhead-corrected values, outliers
 *                                        removed, which its Mean is over
 * BytesAllocatedPerOperation is metric "allocated" (B/op, one value);
 * Statistics, Memory and Metrics, the harness's own figures, are kept in
 * series.detail; HostEnvironmentInfo becomes run attributes. The brief
 * export, which has no Measurements, is refused. docs/formats.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/decoders/bdn/bdn.h"
#include "ingest/decoders/harness.h"

enum { S_WORK, S_WORK_WARM, S_OVER, S_OVER_WARM, S_RESULT, S_COUNT };

/* One launch's values, by kind. */
struct launch {
    long long index;
    struct dvec v[S_COUNT];
};

struct launches {
    struct launch *l;
    size_t n, cap;
};

static void launches_free(struct launches *ls)
{
    for (size_t i = 0; i < ls->n; i++)
        for (int k = 0; k < S_COUNT; k++)
            dvec_free(&ls->l[i].v[k]);
    free(ls->l);
    memset(ls, 0, sizeof *ls);
}

static struct launch *launch_get(struct launches *ls, long long index)
{
    for (size_t i = 0; i < ls->n; i++)
        if (ls->l[i].index == index)
            return &ls->l[i];
    if (ls->n == ls->cap) {
        size_t ncap = ls->cap ? 2 * ls->cap : 4;
        struct launch *nl = realloc(ls->l, ncap * sizeof *nl);
        if (!nl)
            return NULL;
        ls->l = nl;
        ls->cap = ncap;
    }
    struct launch *l = &ls->l[ls->n++];
    memset(l, 0, sizeof *l);
    l->index = index;
    return l;
}

/* Which values a measurement is; -2 for none kept (never happens with the
 * stages below), -1 when mode or stage is not one BenchmarkDotNet writes.
 * BenchmarkDotNet 0.10 wrote no IterationStage and named the modes
 * MainTarget, MainWarmup, IdleTarget, IdleWarmup, Pilot, Result. */
static int kind_of(const char *mode, const char *stage)
{
    static const struct {
        const char *mode, *stage;
        int kind;
    } map[] = {
        {"Workload", "Actual", S_WORK},     {"Workload", "Warmup", S_WORK_WARM}, {"Workload", "Pilot", S_WORK_WARM},
        {"Workload", "Jitting", S_WORK_WARM}, {"Workload", "Result", S_RESULT},  {"Overhead", "Actual", S_OVER},
        {"Overhead", "Warmup", S_OVER_WARM}, {"Overhead", "Pilot", S_OVER_WARM}, {"Overhead", "Jitting", S_OVER_WARM},
        {"MainTarget", NULL, S_WORK},        {"MainWarmup", NULL, S_WORK_WARM},  {"Pilot", NULL, S_WORK_WARM},
        {"IdleTarget", NULL, S_OVER},        {"IdleWarmup", NULL, S_OVER_WARM},  {"Result", NULL, S_RESULT},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i].mode, mode) == 0 && (map[i].stage ? stage && strcmp(map[i].stage, stage) == 0 : !stage))
            return map[i].kind;
    return -1;
}

/* The Measurements are read flat (core/jsonflat.h): a record of these
 * fields per measurement, no json_t object each. */
static const char *const measurement_fields[] = {"IterationMode", "IterationStage", "LaunchIndex", "Operations",
                                                 "Nanoseconds", NULL};
enum { F_MODE = 1, F_STAGE, F_LAUNCH, F_OPS, F_NS };
static const char *const measurement_path[] = {"Benchmarks", "*", "Measurements", NULL};
const struct json_flat_spec bdn_flat = {measurement_path, measurement_fields};

/* Measurement k's field is not what it should be: its path formatted here,
 * only on error, since a full export has a measurement per iteration. */
static int bad_field(struct harness_ctx *c, size_t i, size_t k, const char *field, const char *want,
                     const struct json_flat_value *got)
{
    char path[128];
    snprintf(path, sizeof path, "Benchmarks[%zu].Measurements[%zu]%s%s", i, k, field ? "." : "", field ? field : "");
    return harness_wrong_flat(c, path, want, got);
}

/* The kind of the last mode and stage met: a file has a few distinct
 * ones, the parser makes each once, so most measurements match it. */
struct kind_cache {
    const json_t *mode, *stage;
    int kind;
};

/* Measurement k of benchmark i: its value per operation, added to its launch. */
static int measurement(struct harness_ctx *c, size_t i, size_t k, const struct json_flat_value *m,
                       struct launches *ls, struct kind_cache *kc)
{
    if (m[0].type != JSON_OBJECT)
        return bad_field(c, i, k, NULL, "an object", &m[0]);
    const struct json_flat_value *mode = &m[F_MODE], *stage = &m[F_STAGE], *launch = &m[F_LAUNCH], *ops = &m[F_OPS],
                                 *ns = &m[F_NS];
    if (mode->type != JSON_STRING)
        return bad_field(c, i, k, "IterationMode", "a string", mode);
    if (stage->type != JSON_FLAT_ABSENT && stage->type != JSON_STRING)
        return bad_field(c, i, k, "IterationStage", "a string", stage);
    const json_t *st = stage->type == JSON_STRING ? stage->u.tree : NULL;
    if (mode->u.tree != kc->mode || st != kc->stage) {
        kc->mode = mode->u.tree;
        kc->stage = st;
        kc->kind = kind_of(json_string_value(mode->u.tree), json_string_value(st));
    }
    int kind = kc->kind;
    if (kind < 0) {
        char path[128];
        snprintf(path, sizeof path, "Benchmarks[%zu].Measurements[%zu].IterationStage", i, k);
        return harness_fail(c, path, "IterationMode \"%s\" with IterationStage \"%s\" is not one BenchmarkDotNet "
                                     "writes (Workload or Overhead: Jitting, Pilot, Warmup, Actual, Result)",
                            json_string_value(mode->u.tree), st ? json_string_value(st) : "(none)");
    }
    if (launch->type != JSON_FLAT_ABSENT && launch->type != JSON_INTEGER)
        return bad_field(c, i, k, "LaunchIndex", "an integer", launch);
    if (ops->type != JSON_INTEGER || ops->u.integer < 1)
        return bad_field(c, i, k, "Operations", "an integer >= 1", ops);
    double t;
    if (ns->type == JSON_INTEGER)
        t = (double)ns->u.integer;
    else if (ns->type == JSON_REAL)
        t = ns->u.real;
    else
        return bad_field(c, i, k, "Nanoseconds", "a number", ns);
    struct launch *l = launch_get(ls, launch->type == JSON_INTEGER ? launch->u.integer : 1);
    if (!l || dvec_push(&l->v[kind], t / (double)ops->u.integer, 1))
        return ingest_report_oom(c->rep);
    return 0;
}

/* "A=1&B=x" (ParameterInstances.PrintInfo) and the job of DisplayInfo
 * ("Type.Method: Job-ABCDEF(...) [A=1, B=x]") as params. */
static int bdn_params(struct harness_ctx *c, size_t i, json_t *b)
{
    char path[96];
    json_t *params = json_object(), *ps = json_object_get(b, "Parameters"), *disp = json_object_get(b, "DisplayInfo");
    int rc = params ? 0 : ingest_report_oom(c->rep);
    snprintf(path, sizeof path, "Benchmarks[%zu].Parameters", i);
    if (rc == 0 && ps && !json_is_null(ps) && !json_is_string(ps))
        rc = harness_wrong(c, path, "a string", ps);
    const char *s = json_string_value(ps);
    while (rc == 0 && s && *s) {
        const char *amp = strchr(s, '&'), *end = amp ? amp : s + strlen(s), *eq = memchr(s, '=', (size_t)(end - s));
        if (!eq) {
            rc = harness_fail(c, path, "expected NAME=VALUE pairs joined by &, got \"%s\"", json_string_value(ps));
            break;
        }
        char *k = strndup(s, (size_t)(eq - s));
        json_t *v = json_stringn(eq + 1, (size_t)(end - eq - 1));
        if (!k || !v || json_object_set_new(params, k, v))
            rc = ingest_report_oom(c->rep);
        free(k);
        s = amp ? amp + 1 : end;
    }
    /* Several jobs (runtimes, configurations) run the same method: the job
     * tells their values apart. Its id (Job-ABCDEF, a hash of its
     * characteristics, or the name given it) without the characteristics. */
    const char *d = json_string_value(disp), *colon = d ? strstr(d, ": ") : NULL;
    if (rc == 0 && colon) {
        const char *job = colon + 2;
        size_t len = strcspn(job, "( [");
        if (len && !(len == 10 && memcmp(job, "DefaultJob", 10) == 0) &&
            json_object_set_new(params, "job", json_stringn(job, len)))
            rc = ingest_report_oom(c->rep);
    }
    if (rc == 0)
        rc = harness_params(c, params);
    json_decref(params);
    return rc;
}

/* Benchmark i's name: Namespace.Type.Method (Namespace may be null). */
static int bdn_name(struct harness_ctx *c, size_t i, json_t *b, struct strbuf *name)
{
    char path[96];
    json_t *ns = json_object_get(b, "Namespace"), *type = json_object_get(b, "Type"), *method = json_object_get(b, "Method");
    snprintf(path, sizeof path, "Benchmarks[%zu].Method", i);
    if (!json_is_string(method) || json_string_length(method) == 0)
        return harness_wrong(c, path, "a non-empty string", method);
    snprintf(path, sizeof path, "Benchmarks[%zu].Type", i);
    if (type && !json_is_null(type) && !json_is_string(type))
        return harness_wrong(c, path, "a string", type);
    snprintf(path, sizeof path, "Benchmarks[%zu].Namespace", i);
    if (ns && !json_is_null(ns) && !json_is_string(ns))
        return harness_wrong(c, path, "a string", ns);
    sb_reset(name);
    int rc = 0;
    if (json_string_length(ns))
        rc |= sb_printf(name, "%s.", json_string_value(ns));
    if (json_string_length(type))
        rc |= sb_printf(name, "%s.", json_string_value(type));
    rc |= sb_puts(name, json_string_value(method));
    return rc ? ingest_report_oom(c->rep) : 0;
}

/* Statistics (without OriginalValues, the Result values again), Memory,
 * Metrics, DisplayInfo, FullName as the primary series' detail. */
static int bdn_detail(struct harness_ctx *c, size_t i, json_t *b)
{
    char path[96];
    snprintf(path, sizeof path, "Benchmarks[%zu]", i);
    json_t *d = json_object();
    static const char *const keys[] = {"DisplayInfo", "FullName", "Statistics", "Memory", "Metrics", NULL};
    int rc = d ? 0 : ingest_report_oom(c->rep);
    for (int k = 0; rc == 0 && keys[k]; k++) {
        json_t *v = json_object_get(b, keys[k]);
        if (v && !json_is_null(v) && json_object_set_new(d, keys[k], json_deep_copy(v)))
            rc = ingest_report_oom(c->rep);
    }
    if (rc == 0 && json_is_object(json_object_get(d, "Statistics")))
        json_object_del(json_object_get(d, "Statistics"), "OriginalValues");
    if (rc == 0)
        rc = harness_detail(c, path, d);
    json_decref(d);
    return rc;
}

/* One launch's series: the primary (with its warm-ups), overhead, result. */
static int launch_series(struct harness_ctx *c, const char *path, const char *name, struct launch *l,
                         const char *detail)
{
    int rc = 0;
    if (l->v[S_WORK].n)
        rc = harness_series(c, path, name, l->index, NULL, "ns/op", detail, l->v[S_WORK].v, NULL, l->v[S_WORK].n,
                            l->v[S_WORK_WARM].v, l->v[S_WORK_WARM].n);
    if (rc == 0 && l->v[S_OVER].n)
        rc = harness_series(c, path, name, l->index, "overhead", "ns/op", NULL, l->v[S_OVER].v, NULL, l->v[S_OVER].n,
                            l->v[S_OVER_WARM].v, l->v[S_OVER_WARM].n);
    if (rc == 0 && l->v[S_RESULT].n)
        rc = harness_series(c, path, name, l->index, "result", "ns/op", NULL, l->v[S_RESULT].v, NULL,
                            l->v[S_RESULT].n, NULL, 0);
    return rc;
}

static int one_benchmark(struct harness_ctx *c, size_t i, json_t *b, struct strbuf *name)
{
    char path[96];
    snprintf(path, sizeof path, "Benchmarks[%zu]", i);
    if (!json_is_object(b))
        return harness_wrong(c, path, "an object", b);
    if (bdn_name(c, i, b, name) || bdn_params(c, i, b))
        return -1;
    json_t *ms = json_object_get(b, "Measurements");
    snprintf(path, sizeof path, "Benchmarks[%zu].Measurements", i);
    if (!ms || json_is_null(ms))
        return harness_fail(c, path, "missing: this is BenchmarkDotNet's brief export, which keeps no measured value; "
                                     "load the full one (*-report-full.json or *-report-full-compressed.json)");
    if (!json_is_array(ms))
        return harness_wrong(c, path, "an array", ms);
    struct json_flat_array *made;
    const struct json_flat_array *fa = harness_flat(c, ms, measurement_fields, &made);
    if (!fa)
        return -1;
    struct launches ls = {0};
    struct kind_cache kc = {NULL, NULL, -1};
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < fa->n; k++)
        rc = measurement(c, i, k, json_flat_at(fa, k), &ls, &kc);
    json_flat_array_free(made);
    if (rc == 0 && ls.n == 0)
        rc = harness_fail(c, path, "no measurements");
    if (rc == 0)
        rc = bdn_detail(c, i, b);
    char *detail = rc == 0 ? strdup(c->detail.buf ? c->detail.buf : "{}") : NULL;
    if (rc == 0 && !detail)
        rc = ingest_report_oom(c->rep);
    for (size_t l = 0; rc == 0 && l < ls.n; l++)
        rc = launch_series(c, path, name->buf, &ls.l[l], detail);
    free(detail);
    launches_free(&ls);
    double alloc;
    json_t *a = json_object_get(json_object_get(b, "Memory"), "BytesAllocatedPerOperation");
    snprintf(path, sizeof path, "Benchmarks[%zu].Memory.BytesAllocatedPerOperation", i);
    if (rc == 0 && a && !json_is_null(a))
        rc = harness_number(a, &alloc) ? harness_series(c, path, name->buf, 0, "allocated", "B/op", NULL, &alloc, NULL,
                                                        1, NULL, 0)
                                       : harness_wrong(c, path, "a number", a);
    return rc;
}

int harness_bdn(struct harness_ctx *c, json_t *doc)
{
    if (!json_is_object(doc))
        return harness_wrong(c, NULL, "a JSON object with \"Benchmarks\"", doc);
    json_t *benches = json_object_get(doc, "Benchmarks"), *host = json_object_get(doc, "HostEnvironmentInfo");
    if (!json_is_array(benches))
        return harness_wrong(c, "Benchmarks", "an array", benches);
    if (host && !json_is_null(host) && !json_is_object(host))
        return harness_wrong(c, "HostEnvironmentInfo", "an object", host);
    if (json_is_object(host) && json_object_size(host) && harness_attributes(c, host))
        return -1;
    struct strbuf name = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < json_array_size(benches); i++)
        rc = one_benchmark(c, i, json_array_get(benches, i), &name);
    sb_free(&name);
    return rc;
}
