/* The simulator's model: what a plan looks like and how each value is
 * drawn. docs/simulate.md is the specification; the names below follow it. */
#include "sim/sim.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"
#include "sim/rng.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- the plan's shape ---------------------------------------------------- */

static const char *const workloads[] = {"small", "large", "text", "collections"};
/* Chill's time per operation for the serialize operation, ns. */
static const double workload_ns[] = {120, 16000, 2500, 4000};
/* Multiplier of the median block spread: large records measure tightly. */
static const double workload_spread[] = {1.0, 0.4, 1.1, 1.0};
enum { N_WORKLOADS = 4, LARGE = 1 };

static const char *const operations[] = {
    "serialize", "deserialize", "buildAndSerialize", "serializeSameInstance", "streamCopy",
    "objectCopy", "roundTrip", "deserializeReuse", "duplicate", "snapshotRestore",
};
static const double operation_mult[] = {1.0, 1.4, 1.8, 0.9, 2.1, 1.2, 2.4, 1.2, 0.05, 0.3};
enum { N_OPERATIONS = 10, OBJECT_COPY = 5 };

static const char *const formats[] = {"binary", "json", "delimited"};
static const double format_mult[] = {1.0, 3.0, 1.1};
enum { N_FORMATS = 3, CELLS_PER_FORMAT = N_WORKLOADS * N_OPERATIONS };

/* The cells whose blocks scatter widely in the seed report, widest first. */
struct named_cell {
    int workload, operation;
};
static const struct named_cell wide_preferred[2][3] = {
    {{2, 0}, {2, 2}, {2, 4}}, /* protobuf-3: text serialize, buildAndSerialize, streamCopy */
    {{3, 5}, {3, 3}, {0, 4}}, /* protobuf-4: collections objectCopy, serializeSameInstance; small streamCopy */
};

static const char *const protobuf_versions[] = {"3.25.9", "4.33.6"};

#define SIM_SOURCE "844fd45e700040dbe036acea9f98f95922897d3e"
#define TREATMENT "native"
#define BASELINE "chill"
/* 2026-10-21T03:57:00Z, the start of the seed report's plan. */
#define PLAN_START_DAYS 20747L
#define PLAN_START_SECONDS (3 * 3600 + 57 * 60)

/* Fixed model constants (docs/simulate.md, "Fixed constants"). */
#define HOST_SPEED_SD 0.03   /* a host's overall speed; cancels in the ratio */
#define BLOCK_SPEED_SD 0.02  /* a block's common speed; cancels in the ratio */
#define RUN_TREND_SD 0.01    /* speed trend over a run; cancels in the ratio */
#define CELL_SPREAD_GSD 0.5  /* log sd of an ordinary cell's spread around the median */
#define WARMUP_EXCESS 0.4    /* first warmup iteration is this much slower */
#define WARMUP_DECAY 0.5     /* ... and the excess shrinks by this factor each iteration */
#define RUN_SECONDS 4200.0   /* a default run's measurement: 70 minutes */
#define RUN_SECONDS_SD 0.02
#define OBJECT_COPY_NS 1.4   /* native objectCopy returns the immutable message */

/* Stream tags: each random quantity has its own stream, keyed by its tag
 * and indices. Never renumber these: they are part of the output's identity. */
enum {
    TAG_CELL = 1,
    TAG_WIDE,
    TAG_HOST,
    TAG_HOSTCELL,
    TAG_RUN,
    TAG_DRIFT,
    TAG_BLOCK,
    TAG_BLOCKCELL,
    TAG_SERIES,
};

void sim_config_defaults(struct sim_config *cfg)
{
    *cfg = (struct sim_config){
        .plan = NULL,
        .groups = 2,
        .hosts = 3,
        .positions = 2,
        .cells = 40,
        .blocks = 5,
        .forks = 2,
        .iterations = 5,
        .warmups = 3,
        .seed = 1,
        .spread = 0.032,
        .wide = 3,
        .wide_lo = 0.06,
        .wide_hi = 0.34,
        .host_offset = 0.01,
        .drift = 0.002,
        .fork_sd = 0.01,
        .iteration_sd = 0.015,
        .noise = 0.01,
    };
}

const char *sim_plan(const struct sim_config *cfg)
{
    return cfg->plan ? cfg->plan : cfg->history ? "nightly-sim" : "calibration-sim";
}

/* ---- cells ------------------------------------------------------------- */

struct cell {
    int workload, operation, format;
    double base_ns; /* chill's time per operation */
    double mu;      /* true log ratio native/chill */
    double sigma;   /* block-to-block log sd of the ratio */
    double host_sd; /* log sd of a host's offset of the ratio */
    const char *unit;
    double unit_ns;
};

static void cell_place(int i, struct cell *c)
{
    c->format = i / CELLS_PER_FORMAT;
    c->operation = (i % CELLS_PER_FORMAT) / N_WORKLOADS;
    c->workload = i % N_WORKLOADS;
}

static int effect_matches_cell(const struct sim_effect *e, const struct cell *c)
{
    return fnmatch(e->workload, workloads[c->workload], 0) == 0 &&
           fnmatch(e->operation, operations[c->operation], 0) == 0 &&
           fnmatch(e->format, formats[c->format], 0) == 0;
}

void sim_cell_names(int i, const char **workload, const char **operation, const char **format)
{
    struct cell c;
    cell_place(i, &c);
    *workload = workloads[c.workload];
    *operation = operations[c.operation];
    *format = formats[c.format];
}

double sim_cell_nominal_ns(int i)
{
    struct cell c;
    cell_place(i, &c);
    return workload_ns[c.workload] * operation_mult[c.operation] * format_mult[c.format];
}

int sim_cell_matches(int i, const char *workload, const char *operation, const char *format)
{
    const char *w, *o, *f;
    sim_cell_names(i, &w, &o, &f);
    return fnmatch(workload, w, 0) == 0 && fnmatch(operation, o, 0) == 0 && fnmatch(format, f, 0) == 0;
}

/* Draws group g's cells: their magnitudes, true ratios and spreads. */
static void cells_draw(const struct sim_config *cfg, int g, struct cell *cells)
{
    for (int i = 0; i < cfg->cells; i++) {
        struct cell *c = &cells[i];
        cell_place(i, c);
        struct rng r;
        rng_stream(&r, cfg->seed, (uint64_t[]){TAG_CELL, (uint64_t)g, (uint64_t)i}, 3);
        c->base_ns = workload_ns[c->workload] * operation_mult[c->operation] * format_mult[c->format] *
                     exp(0.3 * rng_normal(&r));
        if (c->operation == OBJECT_COPY)
            c->mu = log(OBJECT_COPY_NS * exp(0.1 * rng_normal(&r)) / c->base_ns);
        else
            c->mu = log(0.3) + rng_uniform(&r) * (log(1.2) - log(0.3));
        c->sigma = cfg->spread * workload_spread[c->workload] * exp(CELL_SPREAD_GSD * rng_normal(&r));
        double u = rng_uniform(&r);
        c->host_sd = c->workload == LARGE ? cfg->host_offset * (0.4 + 0.6 * u) : cfg->host_offset * 0.25 * u;
        if (c->operation != OBJECT_COPY && c->base_ns >= 10000) {
            c->unit = "us/op";
            c->unit_ns = 1000;
        } else {
            c->unit = "ns/op";
            c->unit_ns = 1;
        }
    }

    /* The wide cells: the report's cells first where the plan has them,
     * then others in an order drawn for the group. */
    int order[SIM_MAX_CELLS], n = 0, taken[SIM_MAX_CELLS] = {0};
    if (g < 2)
        for (int k = 0; k < 3; k++) {
            int i = wide_preferred[g][k].operation * N_WORKLOADS + wide_preferred[g][k].workload;
            if (i < cfg->cells) {
                order[n++] = i;
                taken[i] = 1;
            }
        }
    int rest[SIM_MAX_CELLS], m = 0;
    for (int i = 0; i < cfg->cells; i++)
        if (!taken[i])
            rest[m++] = i;
    struct rng r;
    rng_stream(&r, cfg->seed, (uint64_t[]){TAG_WIDE, (uint64_t)g}, 2);
    for (int i = m - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)(rng_next(&r) % (uint64_t)(i + 1));
        int t = rest[i];
        rest[i] = rest[j];
        rest[j] = t;
    }
    for (int i = 0; i < m; i++)
        order[n++] = rest[i];
    int wide = cfg->wide < n ? cfg->wide : n; /* capped at the cell count */
    for (int k = 0; k < wide; k++)
        cells[order[k]].sigma =
            wide == 1 ? cfg->wide_hi : cfg->wide_hi * pow(cfg->wide_lo / cfg->wide_hi, (double)k / (wide - 1));
}

/* ---- runs -------------------------------------------------------------- */

int sim_run_count(const struct sim_config *cfg)
{
    if (cfg->history)
        return cfg->hosts * cfg->history;
    return cfg->groups * cfg->hosts * cfg->positions;
}

struct run_place {
    int group, host, position; /* 0-based */
};

static struct run_place run_place(const struct sim_config *cfg, int i)
{
    return (struct run_place){
        .group = i / (cfg->hosts * cfg->positions),
        .host = i / cfg->positions % cfg->hosts,
        .position = i % cfg->positions,
    };
}

void sim_run_name(const struct sim_config *cfg, int i, char *buf, size_t size)
{
    if (cfg->history) {
        sim_history_run_name(cfg, i, buf, size);
        return;
    }
    struct run_place p = run_place(cfg, i);
    snprintf(buf, size, "p%d-vm-%c-%d", 3 + p.group, 'a' + p.host, p.position + 1);
}

long sim_samples_per_run(const struct sim_config *cfg)
{
    if (cfg->history)
        return cfg->cells;
    return (long)cfg->cells * cfg->blocks * 2 * cfg->forks;
}

/* ---- text -------------------------------------------------------------- */

void sim_json_string(struct strbuf *sb, const char *s)
{
    sb_putc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            sb_putc(sb, '\\');
            sb_putc(sb, (char)*p);
        } else if (*p < 0x20) {
            sb_printf(sb, "\\u%04x", *p);
        } else {
            sb_putc(sb, (char)*p);
        }
    }
    sb_putc(sb, '"');
}

/* Six significant digits: JMH-like precision that also hides last-ulp
 * differences between libm implementations. */
void sim_json_value(struct strbuf *sb, double x)
{
    sb_printf(sb, "%.6g", x);
}

/* RFC 3339 UTC text of a time in seconds since 1970 (days_from_civil's
 * inverse, after H. Hinnant's public-domain algorithm). */
void sim_json_time(struct strbuf *sb, long long t)
{
    long long days = t / 86400, secs = t % 86400;
    long long z = days + 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long y = yoe + era * 400;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    long long d = doy - (153 * mp + 2) / 5 + 1;
    long long m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2)
        y++;
    sb_printf(sb, "\"%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ\"", y, m, d, secs / 3600, secs / 60 % 60, secs % 60);
}

struct out {
    struct strbuf sb;
    sim_emit_fn emit;
    void *ctx;
    int rc;
};

static int out_flush(struct out *o, size_t threshold)
{
    if (o->rc == 0 && o->sb.len >= threshold && o->sb.len > 0) {
        o->rc = o->emit(o->ctx, xsb_text(&o->sb), o->sb.len);
        sb_reset(&o->sb);
    }
    return o->rc;
}

/* ---- one run ------------------------------------------------------------ */

struct run_times {
    long long start, end, gate_at;
    double load, trend;
};

/* The run's timeline: a host starts within three minutes of the plan, and
 * each position starts after the previous one and a 10-20 minute pause. */
static struct run_times run_times(const struct sim_config *cfg, struct run_place p)
{
    struct rng r;
    rng_stream(&r, cfg->seed, (uint64_t[]){TAG_HOST, (uint64_t)p.group, (uint64_t)p.host}, 3);
    (void)rng_normal(&r); /* the host's speed, drawn by host_speed() */
    long long t = PLAN_START_DAYS * 86400LL + PLAN_START_SECONDS + (long long)(rng_uniform(&r) * 180);
    double work = (double)cfg->cells * cfg->blocks * cfg->forks * (cfg->iterations + cfg->warmups) /
                  (40.0 * 5 * 2 * (5 + 3));
    struct run_times rt = {0};
    for (int k = 0; k <= p.position; k++) {
        rng_stream(&r, cfg->seed, (uint64_t[]){TAG_RUN, (uint64_t)p.group, (uint64_t)p.host, (uint64_t)k}, 4);
        long long dur = (long long)floor(RUN_SECONDS * work * exp(RUN_SECONDS_SD * rng_normal(&r)) + 0.5);
        long long gap = 600 + (long long)(rng_uniform(&r) * 600);
        rt.load = 0.02 + 0.3 * rng_uniform(&r);
        rt.trend = RUN_TREND_SD * rng_normal(&r);
        rt.start = t;
        rt.gate_at = t;
        rt.end = t + (dur > 0 ? dur : 1);
        t = rt.end + gap;
    }
    return rt;
}

static double host_speed(const struct sim_config *cfg, struct run_place p)
{
    struct rng r;
    rng_stream(&r, cfg->seed, (uint64_t[]){TAG_HOST, (uint64_t)p.group, (uint64_t)p.host}, 3);
    return exp(HOST_SPEED_SD * rng_normal(&r));
}

static void write_run_record(struct strbuf *sb, const struct sim_config *cfg, int i, struct run_place p,
                             const struct run_times *rt)
{
    char name[64];
    sim_run_name(cfg, i, name, sizeof name);
    sb_puts(sb, "{\"record\":\"run\",\"format\":\"benchdb-run/1\",\"plan\":");
    sim_json_string(sb, sim_plan(cfg));
    char host[64];
    sim_host_name(p.group, p.host, host, sizeof host);
    sb_printf(sb, ",\"run\":\"%s\",\"host\":\"%s\",\"position\":%d,\"source\":\"" SIM_SOURCE "\"", name, host,
              p.position + 1);
    sb_puts(sb, ",\"started_at\":");
    sim_json_time(sb, rt->start);
    sb_puts(sb, ",\"ended_at\":");
    sim_json_time(sb, rt->end);
    sb_puts(sb, ",\"treatment\":\"" TREATMENT "\",\"baseline\":\"" BASELINE "\",\"attributes\":{");
    sb_printf(sb, "\"profile\":\"protobuf-%d\"", 3 + p.group);
    sb_puts(sb, ",\"machine_type\":\"c3-standard-8\",\"zone\":\"asia-northeast1-b\""
                ",\"cpu_platform\":\"Intel Xeon Platinum 8481C\",\"image\":\"ubuntu-2404-noble-amd64-v20261016\""
                ",\"kernel\":\"7.0.0-1014-gcp\",\"jdk\":\"Temurin 17.0.20.1\",\"flink\":\"2.3.0\"");
    if (p.group < 2)
        sb_printf(sb, ",\"protobuf\":\"%s\"", protobuf_versions[p.group]);
    else
        sb_printf(sb, ",\"protobuf\":\"%d.0.0\"", 3 + p.group);
    sb_printf(sb, ",\"simulated\":true,\"sim_seed\":\"%llu\"}}\n", (unsigned long long)cfg->seed);

    sb_puts(sb, "{\"record\":\"event\",\"name\":\"maintenance\",\"value\":\"TERMINATE\",\"at\":");
    sim_json_time(sb, rt->start);
    sb_puts(sb, "}\n{\"record\":\"gate\",\"name\":\"load\",\"passed\":true,\"at\":");
    sim_json_time(sb, rt->gate_at);
    sb_puts(sb, ",\"detail\":{\"load1\":");
    sb_printf(sb, "%.2f", rt->load);
    sb_puts(sb, ",\"max\":0.5}}\n");
}

/* Per cell of run name at p: what acts on this run's ratio beyond the
 * block noise (the host's offset, the drift scaled by noise, the effects
 * that match), into shift. */
static void cell_shifts(const struct sim_config *cfg, struct run_place p, const struct cell *cells, const char *name,
                        double noise, double *shift)
{
    const uint64_t g = (uint64_t)p.group, h = (uint64_t)p.host, pos = (uint64_t)p.position;
    for (int c = 0; c < cfg->cells; c++) {
        struct rng r;
        rng_stream(&r, cfg->seed, (uint64_t[]){TAG_HOSTCELL, g, h, (uint64_t)c}, 4);
        double offset = cells[c].host_sd * rng_normal(&r);
        rng_stream(&r, cfg->seed, (uint64_t[]){TAG_DRIFT, g, h, pos, (uint64_t)c}, 5);
        double drift = noise * cfg->drift * rng_normal(&r);
        double effect = 0;
        for (int k = 0; k < cfg->n_effects; k++) {
            const struct sim_effect *e = &cfg->effects[k];
            if (effect_matches_cell(e, &cells[c]) && (!e->runs || fnmatch(e->runs, name, 0) == 0))
                effect += log(e->factor);
        }
        shift[c] = offset + drift + effect;
    }
}

/* One samples record: cell cl's fork f of block b (0-based), the
 * treatment's when native, with its warmups and values. */
static void write_samples(struct strbuf *sb, const struct sim_config *cfg, const struct cell *cl, int b, int native,
                          int f, const double *warm, const double *vals)
{
    sb_printf(sb, "{\"record\":\"samples\",\"benchmark\":\"%s\",\"params\":{\"workload\":\"%s\","
                  "\"format\":\"%s\"},\"block\":%d,\"variant\":\"%s\",\"fork\":%d,\"unit\":\"%s\"",
              operations[cl->operation], workloads[cl->workload], formats[cl->format], b + 1,
              native ? TREATMENT : BASELINE, f, cl->unit);
    if (cfg->warmups > 0) {
        sb_puts(sb, ",\"warmup\":[");
        for (int w = 0; w < cfg->warmups; w++) {
            if (w)
                sb_putc(sb, ',');
            sim_json_value(sb, warm[w]);
        }
        sb_putc(sb, ']');
    }
    sb_puts(sb, ",\"values\":[");
    for (int v = 0; v < cfg->iterations; v++) {
        if (v)
            sb_putc(sb, ',');
        sim_json_value(sb, vals[v]);
    }
    sb_puts(sb, "]}\n");
}

int sim_write_run(const struct sim_config *cfg, int i, sim_emit_fn emit, void *ctx)
{
    if (cfg->history)
        return sim_history_write_run(cfg, i, emit, ctx);
    struct run_place p = run_place(cfg, i);
    struct cell cells[SIM_MAX_CELLS];
    cells_draw(cfg, p.group, cells);
    const uint64_t g = (uint64_t)p.group, h = (uint64_t)p.host, pos = (uint64_t)p.position;
    char name[64];
    sim_run_name(cfg, i, name, sizeof name);

    /* --host-noise scales every quantity that varies from run to run on a
     * host (its draws unchanged, so 1 gives the same text). */
    const double noise = sim_host_noise_factor(cfg, p.group, p.host);

    /* Per cell: what acts on this run's ratio beyond the block noise. */
    double shift[SIM_MAX_CELLS];
    cell_shifts(cfg, p, cells, name, noise, shift);

    struct run_times rt = run_times(cfg, p);
    double speed = host_speed(cfg, p);
    struct out o = {.emit = emit, .ctx = ctx};
    /* The buffer is flushed once it holds 64 KiB, so it never holds more
     * than that plus one line: growing it once here means no later append
     * can fail. A line holds at most 16 bytes per value. */
    size_t line_max = 4096 + 2 * strlen(sim_plan(cfg)) + 16 * ((size_t)cfg->warmups + (size_t)cfg->iterations);
    if (sb_grow(&o.sb, (1u << 16) + line_max))
        return -1;
    write_run_record(&o.sb, cfg, i, p, &rt);

    double *warm = xmalloc(((size_t)cfg->warmups + 1) * sizeof *warm);
    double *vals = xmalloc((size_t)cfg->iterations * sizeof *vals);
    if (!warm || !vals)
        o.rc = -1;
    for (int b = 0; b < cfg->blocks && o.rc == 0; b++) {
        struct rng r;
        rng_stream(&r, cfg->seed, (uint64_t[]){TAG_BLOCK, g, h, pos, (uint64_t)b}, 5);
        double block_speed = speed * exp(noise * BLOCK_SPEED_SD * rng_normal(&r)) *
                             exp(noise * rt.trend * (cfg->blocks > 1 ? (double)b / (cfg->blocks - 1) : 0));
        for (int k = 0; k < 2 && o.rc == 0; k++) {
            /* The treatment goes first in odd blocks, the baseline in even ones. */
            int native = (k == 0) == (b % 2 == 0);
            for (int c = 0; c < cfg->cells && o.rc == 0; c++) {
                const struct cell *cl = &cells[c];
                double t = cl->base_ns * block_speed;
                if (native) {
                    rng_stream(&r, cfg->seed, (uint64_t[]){TAG_BLOCKCELL, g, h, pos, (uint64_t)c, (uint64_t)b}, 6);
                    t *= exp(cl->mu + shift[c] + noise * cl->sigma * rng_normal(&r));
                }
                for (int f = 0; f < cfg->forks; f++) {
                    rng_stream(&r, cfg->seed,
                               (uint64_t[]){TAG_SERIES, g, h, pos, (uint64_t)c, (uint64_t)b, (uint64_t)native,
                                            (uint64_t)f},
                               8);
                    double level = t * exp(noise * cfg->fork_sd * rng_normal(&r)) / cl->unit_ns;
                    double excess = WARMUP_EXCESS;
                    for (int w = 0; w < cfg->warmups; w++, excess *= WARMUP_DECAY)
                        warm[w] = level * (1 + excess) * exp(noise * cfg->iteration_sd * rng_normal(&r));
                    for (int v = 0; v < cfg->iterations; v++)
                        vals[v] = level * exp(noise * cfg->iteration_sd * rng_normal(&r));
                    write_samples(&o.sb, cfg, cl, b, native, f, warm, vals);
                    out_flush(&o, 1 << 16);
                }
            }
        }
    }
    out_flush(&o, 0);
    free(warm);
    free(vals);
    sb_free(&o.sb);
    return o.rc;
}

/* ---- options ------------------------------------------------------------ */

void sim_effect_free(struct sim_effect *e)
{
    free(e->workload);
    free(e->operation);
    free(e->format);
    free(e->runs);
    *e = (struct sim_effect){0};
}

int sim_effect_parse(const char *arg, struct sim_effect *e, char **err)
{
    *e = (struct sim_effect){0};
    const char *eq = strrchr(arg, '=');
    if (!eq)
        return bd_fail(err, "--effect '%s': expected WORKLOAD/OPERATION[/FORMAT]=FACTOR[@RUNS]", arg);
    const char *s1 = memchr(arg, '/', (size_t)(eq - arg));
    if (!s1 || s1 == arg)
        return bd_fail(err, "--effect '%s': expected WORKLOAD/OPERATION[/FORMAT]=FACTOR[@RUNS]", arg);
    const char *s2 = memchr(s1 + 1, '/', (size_t)(eq - s1 - 1));
    const char *end_op = s2 ? s2 : eq;
    if (end_op == s1 + 1 || (s2 && s2 + 1 == eq) || (s2 && memchr(s2 + 1, '/', (size_t)(eq - s2 - 1))))
        return bd_fail(err, "--effect '%s': expected WORKLOAD/OPERATION[/FORMAT]=FACTOR[@RUNS]", arg);
    const char *at = strchr(eq + 1, '@');
    char *num = at ? xstrndup(eq + 1, (size_t)(at - eq - 1)) : xstrdup(eq + 1);
    char *endp = NULL;
    double factor = num && *num ? strtod(num, &endp) : NAN;
    int bad = !num || !*num || *endp || !isfinite(factor) || factor <= 0;
    free(num);
    if (bad)
        return bd_fail(err, "--effect '%s': FACTOR: expected a finite number > 0", arg);
    if (at && !at[1])
        return bd_fail(err, "--effect '%s': expected a run pattern after '@'", arg);
    e->workload = xstrndup(arg, (size_t)(s1 - arg));
    e->operation = xstrndup(s1 + 1, (size_t)(end_op - s1 - 1));
    e->format = s2 ? xstrndup(s2 + 1, (size_t)(eq - s2 - 1)) : xstrdup("*");
    e->runs = at ? xstrdup(at + 1) : NULL;
    e->factor = factor;
    return 0;
}

int sim_check_int(char **err, const char *opt, int v, int lo, int hi)
{
    if (v < lo || v > hi)
        return bd_fail(err, "%s: expected an integer from %d to %d, got %d", opt, lo, hi, v);
    return 0;
}

int sim_check_sd(char **err, const char *opt, double v)
{
    if (!(v >= 0 && v <= 1))
        return bd_fail(err, "%s: expected a number from 0 to 1, got %g", opt, v);
    return 0;
}

int sim_config_check(const struct sim_config *cfg, char **err)
{
    const char *plan = sim_plan(cfg);
    if (!*plan || strlen(plan) > 200)
        return bd_fail(err, "--plan: expected a name of 1 to 200 bytes");
    for (const unsigned char *s = (const unsigned char *)plan; *s; s++)
        if (*s < 0x20 || *s == 0x7f)
            return bd_fail(err, "--plan: the name holds a control character");
    struct sim_config d;
    sim_config_defaults(&d);
    if (cfg->history || cfg->n_steps || cfg->random_steps || cfg->noise != d.noise)
        return sim_history_check(cfg, err);
    if (sim_check_int(err, "--groups", cfg->groups, 1, SIM_MAX_GROUPS) ||
        sim_check_int(err, "--hosts", cfg->hosts, 1, SIM_MAX_HOSTS) ||
        sim_check_int(err, "--positions", cfg->positions, 1, SIM_MAX_POSITIONS) ||
        sim_check_int(err, "--cells", cfg->cells, 1, SIM_MAX_CELLS) ||
        sim_check_int(err, "--blocks", cfg->blocks, 1, SIM_MAX_BLOCKS) ||
        sim_check_int(err, "--forks", cfg->forks, 1, SIM_MAX_FORKS) ||
        sim_check_int(err, "--iterations", cfg->iterations, 1, SIM_MAX_ITERATIONS) ||
        sim_check_int(err, "--warmups", cfg->warmups, 0, SIM_MAX_WARMUPS) ||
        sim_check_int(err, "--wide", cfg->wide, 0, SIM_MAX_CELLS))
        return -1;
    if (sim_check_sd(err, "--spread", cfg->spread) || sim_check_sd(err, "--host-offset", cfg->host_offset) ||
        sim_check_sd(err, "--drift", cfg->drift) || sim_check_sd(err, "--fork-sd", cfg->fork_sd) ||
        sim_check_sd(err, "--iteration-sd", cfg->iteration_sd))
        return -1;
    if (!(cfg->wide_lo > 0 && cfg->wide_lo <= cfg->wide_hi && cfg->wide_hi <= 1))
        return bd_fail(err, "--wide-spread: expected LO:HI with 0 < LO <= HI <= 1, got %g:%g", cfg->wide_lo,
                       cfg->wide_hi);
    if (sim_host_noise_check(cfg, err))
        return -1;
    for (int k = 0; k < cfg->n_effects; k++) {
        const struct sim_effect *e = &cfg->effects[k];
        int cell_hit = 0, run_hit = !e->runs;
        for (int i = 0; i < cfg->cells && !cell_hit; i++) {
            struct cell c;
            cell_place(i, &c);
            cell_hit = effect_matches_cell(e, &c);
        }
        for (int i = 0; i < sim_run_count(cfg) && !run_hit; i++) {
            char name[64];
            sim_run_name(cfg, i, name, sizeof name);
            run_hit = fnmatch(e->runs, name, 0) == 0;
        }
        if (!cell_hit)
            return bd_fail(err, "--effect %s/%s/%s: matches none of the plan's %d cells", e->workload, e->operation,
                           e->format, cfg->cells);
        if (!run_hit)
            return bd_fail(err, "--effect @%s: matches none of the plan's %d runs", e->runs, sim_run_count(cfg));
    }
    return 0;
}
