/* The simulator's history model (--history N): N nightly runs of one branch
 * on each host, each run one benchdb-run/1 archive, with steps injected
 * into chosen cells from a chosen run on, and the injected truth recorded
 * in the archives as `injected-step` events. docs/simulate.md ("Histories")
 * is the specification; the names below follow it. */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"
#include "sim/rng.h"
#include "util/diag.h"
#include "util/suggest.h"
#include "util/xalloc.h"

/* 2025-10-22T00:00:00Z: night 1; a year of nights ends 2026-10-21. */
#define HISTORY_START_DAYS 20383L
#define NIGHT_START_SECONDS (2 * 3600) /* 02:00 UTC, plus the host's slot */
#define HOST_SLOT_SECONDS 420          /* hosts start 7 minutes apart */
#define START_JITTER_SECONDS 300
#define SECONDS_PER_VALUE 2.0
#define VARIANT "main"
#define UNIT "ns/op"
/* Fixed model constants (docs/simulate.md, "Histories"). */
#define CELL_BASE_SD 0.3   /* a cell's time around its nominal one */
#define HOST_SPEED_SD 0.03 /* a host's overall speed */
#define HOST_CELL_SD 0.02  /* a host's own level of a cell */
#define RUN_SECONDS_SD 0.05
/* Random steps: size in run-level noise sds, position, spacing. */
#define STEP_MIN_SDS 5.0
#define STEP_MAX_SDS 10.0

/* A step resolved to one history: from night (1-based) on, on host, cell. */
struct step_at {
    int host, night, cell;
    double percent;
    int random; /* from --steps (else --step) */
};

static void run_place(const struct sim_config *cfg, int i, int *host, int *night)
{
    *host = i / cfg->history;
    *night = i % cfg->history + 1;
}

void sim_history_host_name(int host, char *buf, size_t size)
{
    snprintf(buf, size, "ci-%c", 'a' + host);
}

void sim_history_run_name(const struct sim_config *cfg, int i, char *buf, size_t size)
{
    int host, night;
    run_place(cfg, i, &host, &night);
    snprintf(buf, size, "ci-%c-%04d", 'a' + host, night);
}

/* ---- steps --------------------------------------------------------------- */

void sim_step_free(struct sim_step *s)
{
    free(s->runs);
    free(s->workload);
    free(s->operation);
    free(s->format);
    free(s->given);
    *s = (struct sim_step){0};
}

/* What every message about a malformed step ends with: its form. */
#define STEP_FORM                                                                                                   \
    "a step is RUN:CELL:PERCENT (RUN a night number or a run-name pattern, CELL WORKLOAD/OPERATION[/FORMAT], "      \
    "PERCENT greater than -100), e.g. 18:small/serialize:+7 or ci-b-0018:*/deserialize/json:-5"

/* CELL: WORKLOAD/OPERATION[/FORMAT], each part not empty; 0 or -1. */
static int cell_parse(const char *cell, size_t n, struct sim_step *s)
{
    const char *end = cell + n;
    const char *s1 = memchr(cell, '/', n);
    const char *s2 = s1 ? memchr(s1 + 1, '/', (size_t)(end - s1 - 1)) : NULL;
    const char *op_end = s2 ? s2 : end;
    if (!s1 || s1 == cell || op_end == s1 + 1 || (s2 && s2 + 1 == end) ||
        (s2 && memchr(s2 + 1, '/', (size_t)(end - s2 - 1))))
        return -1;
    s->workload = xstrndup(cell, (size_t)(s1 - cell));
    s->operation = xstrndup(s1 + 1, (size_t)(op_end - s1 - 1));
    s->format = s2 ? xstrndup(s2 + 1, (size_t)(end - s2 - 1)) : xstrdup("*");
    return 0;
}

/* The parts are read in order, RUN, CELL, PERCENT, and a message names the
 * part that is wrong, as given, and the form: before, a step of four
 * parts (18:ci-b-0018:small/serialize:+7) read its middle two as the cell
 * and blamed the cell's pattern for matching nothing. */
int sim_step_parse(const char *arg, struct sim_step *s, char **err)
{
    *s = (struct sim_step){0};
    int parts = 1;
    for (const char *p = arg; *p; p++)
        parts += *p == ':';
    if (parts != 3)
        return bd_fail(err, "--step '%s': %d part%s separated by ':', expected 3; " STEP_FORM, arg, parts,
                       parts == 1 ? "" : "s");
    const char *c1 = strchr(arg, ':'), *c2 = strrchr(arg, ':');
    int rlen = (int)(c1 - arg), clen = (int)(c2 - c1 - 1);
    /* RUN: a night number, or a pattern over run names. */
    int digits = rlen > 0;
    for (int i = 0; i < rlen; i++)
        digits &= arg[i] >= '0' && arg[i] <= '9';
    long night = digits && rlen <= 5 ? strtol(arg, NULL, 10) : 0;
    if (rlen == 0 || (digits && (night < 1 || night > SIM_MAX_HISTORY)))
        return bd_fail(err, "--step '%s': RUN '%.*s': expected a night from 1 to %d or a run-name pattern such as "
                            "ci-b-0018; " STEP_FORM,
                       arg, rlen, arg, SIM_MAX_HISTORY);
    if (cell_parse(c1 + 1, (size_t)clen, s)) {
        sim_step_free(s);
        return bd_fail(err, "--step '%s': CELL '%.*s': expected WORKLOAD/OPERATION[/FORMAT], shell patterns, such as "
                            "small/serialize or */deserialize/json; " STEP_FORM,
                       arg, clen, c1 + 1);
    }
    char *endp = NULL;
    double pct = strtod(c2 + 1, &endp);
    if (!c2[1] || *endp || !isfinite(pct) || pct <= -100) {
        sim_step_free(s);
        return bd_fail(err, "--step '%s': PERCENT '%s': expected a number greater than -100, such as +7 or -5; " STEP_FORM,
                       arg, c2 + 1);
    }
    if (digits)
        s->night = (int)night;
    else
        s->runs = xstrndup(arg, (size_t)rlen);
    s->given = xstrdup(arg);
    s->percent = pct;
    return 0;
}

/* A step whose cell pattern matches none of the plan's cells: said with
 * the nearest cells' names. -1 with *err. */
static int no_cell(const struct sim_config *cfg, const struct sim_step *s, char **err)
{
    char(*names)[96] = xcalloc((size_t)cfg->cells, sizeof *names);
    const char **list = xcalloc((size_t)cfg->cells, sizeof *list);
    for (int c = 0; c < cfg->cells; c++) {
        const char *w, *o, *f;
        sim_cell_names(c, &w, &o, &f);
        snprintf(names[c], sizeof names[c], "%s/%s/%s", w, o, f);
        list[c] = names[c];
    }
    char pattern[256];
    snprintf(pattern, sizeof pattern, "%s/%s/%s", s->workload, s->operation, s->format);
    const char *near[3];
    size_t n = suggest_nearest(pattern, list, (size_t)cfg->cells, near, 3);
    bd_fail(err, "--step '%s': CELL %s matches none of the plan's %d cells (the nearest: %s%s%s%s%s)", s->given,
            pattern, cfg->cells, n > 0 ? near[0] : "", n > 1 ? ", " : "", n > 1 ? near[1] : "", n > 2 ? ", " : "",
            n > 2 ? near[2] : "");
    free(list);
    free(names);
    return -1;
}

/* A percent as written to the archive (six significant digits), so that
 * the truth recorded and the factor applied are the same number. */
static double written_percent(double pct)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.6g", pct);
    return strtod(buf, NULL);
}

/* Sd of a run's mean score: the run-level noise and the values' own. */
static double run_sd(const struct sim_config *cfg)
{
    return sqrt(cfg->noise * cfg->noise + cfg->iteration_sd * cfg->iteration_sd / cfg->iterations);
}

static int push_step(struct step_at **v, int *n, int *cap, struct step_at s)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        struct step_at *p = xreallocarray(*v, (size_t)c, sizeof *p);
        if (!p)
            return -1;
        *v = p;
        *cap = c;
    }
    (*v)[(*n)++] = s;
    return 0;
}

/* The steps of the plan, resolved to histories: the --step ones in the
 * order given (each over its matching nights and cells, on host only when
 * host >= 0), then the random ones. -1 when memory ran out. */
static int resolve_steps(const struct sim_config *cfg, int host, struct step_at **out, int *nout)
{
    struct step_at *v = NULL;
    int n = 0, cap = 0, *order = NULL;
    for (int k = 0; k < cfg->n_steps; k++) {
        const struct sim_step *s = &cfg->steps[k];
        double pct = written_percent(s->percent);
        for (int h = host < 0 ? 0 : host; h < (host < 0 ? cfg->hosts : host + 1); h++)
            for (int night = 1; night <= cfg->history; night++) {
                if (s->runs) {
                    char name[64];
                    sim_history_run_name(cfg, h * cfg->history + night - 1, name, sizeof name);
                    if (fnmatch(s->runs, name, 0) != 0)
                        continue;
                } else if (night != s->night) {
                    continue;
                }
                for (int c = 0; c < cfg->cells; c++)
                    if (sim_cell_matches(c, s->workload, s->operation, s->format) &&
                        push_step(&v, &n, &cap, (struct step_at){h, night, c, pct, 0}))
                        goto nomem;
            }
    }
    /* Random steps: distinct histories (a shuffle of hosts x cells), each a
     * night after the first tenth and a size of 5 to 10 run-level sds,
     * slower. */
    if (cfg->random_steps) {
        int nh = cfg->hosts * cfg->cells, lo = cfg->history / 10 + 2;
        order = xmalloc((size_t)nh * sizeof *order);
        if (!order)
            goto nomem;
        for (int i = 0; i < nh; i++)
            order[i] = i;
        struct rng r;
        rng_stream(&r, cfg->seed, (uint64_t[]){TAG_H_STEPS}, 1);
        for (int k = 0; k < cfg->random_steps; k++) { /* Fisher-Yates, the first K */
            int j = k + (int)(rng_next(&r) % (uint64_t)(nh - k));
            int t = order[k];
            order[k] = order[j];
            order[j] = t;
        }
        for (int k = 0; k < cfg->random_steps; k++) {
            rng_stream(&r, cfg->seed, (uint64_t[]){TAG_H_STEPS, (uint64_t)k}, 2);
            int night = lo + (int)(rng_next(&r) % (uint64_t)(cfg->history - lo + 1));
            double size = STEP_MIN_SDS + (STEP_MAX_SDS - STEP_MIN_SDS) * rng_uniform(&r);
            double pct = written_percent((exp(size * run_sd(cfg)) - 1) * 100);
            struct step_at st = {order[k] / cfg->cells, night, order[k] % cfg->cells, pct, 1};
            if ((host < 0 || st.host == host) && push_step(&v, &n, &cap, st))
                goto nomem;
        }
    }
    free(order);
    *out = v;
    *nout = n;
    return 0;
nomem:
    free(order);
    free(v);
    return -1;
}

/* ---- options ----------------------------------------------------------- */

int sim_history_check(const struct sim_config *cfg, char **err)
{
    if (!cfg->history)
        return bd_fail(err, "%s: only with --history N",
                       cfg->n_steps ? "--step" : cfg->random_steps ? "--steps" : "--noise");
    struct sim_config d;
    sim_config_defaults(&d);
    /* The calibration plan's options mean nothing here: refuse them. */
    const char *unused = cfg->groups != d.groups             ? "--groups"
                         : cfg->positions != d.positions     ? "--positions"
                         : cfg->blocks != d.blocks           ? "--blocks"
                         : cfg->forks != d.forks             ? "--forks"
                         : cfg->warmups != d.warmups         ? "--warmups"
                         : cfg->spread != d.spread           ? "--spread"
                         : cfg->wide != d.wide               ? "--wide"
                         : cfg->wide_lo != d.wide_lo || cfg->wide_hi != d.wide_hi ? "--wide-spread"
                         : cfg->host_offset != d.host_offset ? "--host-offset"
                         : cfg->drift != d.drift             ? "--drift"
                         : cfg->fork_sd != d.fork_sd         ? "--fork-sd"
                         : cfg->n_effects                    ? "--effect"
                                                             : NULL;
    if (unused)
        return bd_fail(err, "%s: not used with --history (a nightly run has one series of --iterations values per "
                            "cell; see docs/simulate.md)", unused);
    if (sim_check_int(err, "--history", cfg->history, 1, SIM_MAX_HISTORY) ||
        sim_check_int(err, "--hosts", cfg->hosts, 1, SIM_MAX_HOSTS) ||
        sim_check_int(err, "--cells", cfg->cells, 1, SIM_MAX_CELLS) ||
        sim_check_int(err, "--iterations", cfg->iterations, 1, SIM_MAX_ITERATIONS) ||
        sim_check_int(err, "--steps", cfg->random_steps, 0, SIM_MAX_RANDOM_STEPS) ||
        sim_check_int(err, "--steps (one per history: hosts x cells)", cfg->random_steps, 0,
                      cfg->hosts * cfg->cells) ||
        sim_check_sd(err, "--noise", cfg->noise) || sim_check_sd(err, "--iteration-sd", cfg->iteration_sd))
        return -1;
    for (int k = 0; k < cfg->n_steps; k++) {
        const struct sim_step *s = &cfg->steps[k];
        int cell_hit = 0, run_hit = 0;
        for (int c = 0; c < cfg->cells && !cell_hit; c++)
            cell_hit = sim_cell_matches(c, s->workload, s->operation, s->format);
        if (!cell_hit)
            return no_cell(cfg, s, err);
        if (!s->runs) {
            if (s->night > cfg->history)
                return bd_fail(err, "--step '%s': RUN %d: there are only %d runs per host (--history %d)", s->given,
                               s->night, cfg->history, cfg->history);
            continue;
        }
        for (int i = 0; i < cfg->hosts * cfg->history && !run_hit; i++) {
            char name[64];
            sim_history_run_name(cfg, i, name, sizeof name);
            run_hit = fnmatch(s->runs, name, 0) == 0;
        }
        if (!run_hit) {
            char last[64];
            sim_history_run_name(cfg, cfg->hosts * cfg->history - 1, last, sizeof last);
            return bd_fail(err, "--step '%s': RUN %s matches none of the plan's run names (ci-a-0001 to %s)", s->given,
                           s->runs, last);
        }
    }
    if (cfg->random_steps && cfg->history / 10 + 2 > cfg->history)
        return bd_fail(err, "--steps: a random step needs a run after the first tenth of a history: --history %d is "
                            "too short", cfg->history);
    char buf[SIM_MAX_HOSTS][16];
    const char *names[SIM_MAX_HOSTS];
    for (int h = 0; h < cfg->hosts; h++) {
        sim_history_host_name(h, buf[h], sizeof buf[h]);
        names[h] = buf[h];
    }
    int k = sim_host_noise_unmatched(cfg, names, cfg->hosts);
    if (k >= 0)
        return bd_fail(err, "--host-noise %s: matches none of the plan's %d hosts (ci-a ...)",
                       cfg->host_noise[k].hosts, cfg->hosts);
    return 0;
}

/* ---- one run ------------------------------------------------------------ */

static void write_revision(struct strbuf *sb, const struct sim_config *cfg, int night)
{
    struct rng r;
    rng_stream(&r, cfg->seed, (uint64_t[]){TAG_H_REVISION, (uint64_t)night}, 2);
    char hex[49];
    for (int k = 0; k < 3; k++)
        snprintf(hex + 16 * k, 17, "%016llx", (unsigned long long)rng_next(&r));
    sb_printf(sb, "\"%.40s\"", hex);
}

/* The step's record: the truth a back-test scores against. */
static void write_step_event(struct strbuf *sb, const struct step_at *s, long long at)
{
    const char *w, *o, *f;
    sim_cell_names(s->cell, &w, &o, &f);
    sb_puts(sb, "{\"record\":\"event\",\"name\":\"injected-step\",\"value\":");
    sim_json_value(sb, s->percent);
    sb_puts(sb, ",\"at\":");
    sim_json_time(sb, at);
    sb_puts(sb, ",\"detail\":{\"benchmark\":");
    sim_json_string(sb, o);
    sb_puts(sb, ",\"metric\":\"primary\",\"params\":{\"format\":");
    sim_json_string(sb, f);
    sb_puts(sb, ",\"workload\":");
    sim_json_string(sb, w);
    sb_puts(sb, "},\"percent\":");
    sim_json_value(sb, s->percent);
    sb_printf(sb, ",\"source\":\"%s\",\"variant\":\"" VARIANT "\"}}\n", s->random ? "--steps" : "--step");
}

int sim_history_write_run(const struct sim_config *cfg, int i, sim_emit_fn emit, void *ctx)
{
    int host, night;
    run_place(cfg, i, &host, &night);
    const uint64_t h = (uint64_t)host, r_ = (uint64_t)(night - 1);
    struct step_at *steps = NULL;
    int nsteps = 0;
    struct strbuf sb = {0};
    /* The buffer is flushed once it holds 64 KiB, so it never holds more
     * than that plus one line: growing it once here means no later append
     * can fail. */
    size_t line_max = 4096 + 2 * strlen(sim_plan(cfg)) + 16 * (size_t)cfg->iterations;
    if (resolve_steps(cfg, host, &steps, &nsteps) || sb_grow(&sb, (1u << 16) + line_max)) {
        free(steps);
        sb_free(&sb);
        return -1;
    }
    struct rng r;
    rng_stream(&r, cfg->seed, (uint64_t[]){TAG_H_TIME, h, r_}, 3);
    long long start = (HISTORY_START_DAYS + night - 1) * 86400LL + NIGHT_START_SECONDS + host * HOST_SLOT_SECONDS +
                      (long long)(rng_uniform(&r) * START_JITTER_SECONDS);
    long long dur = (long long)floor(SECONDS_PER_VALUE * cfg->cells * cfg->iterations *
                                         exp(RUN_SECONDS_SD * rng_normal(&r)) + 0.5);
    rng_stream(&r, cfg->seed, (uint64_t[]){TAG_H_HOST, h}, 2);
    double speed = exp(HOST_SPEED_SD * rng_normal(&r));

    char name[64], hname[16];
    sim_history_run_name(cfg, i, name, sizeof name);
    sim_history_host_name(host, hname, sizeof hname);
    /* --host-noise scales this host's run-to-run noise and each value's:
     * it draws nothing, so a factor of 1 changes no byte. */
    const double hn = sim_host_noise_of(cfg, hname);
    sb_puts(&sb, "{\"record\":\"run\",\"format\":\"benchdb-run/1\",\"plan\":");
    sim_json_string(&sb, sim_plan(cfg));
    sb_printf(&sb, ",\"run\":\"%s\",\"host\":\"%s\",\"position\":%d,\"source\":", name, hname, night);
    write_revision(&sb, cfg, night - 1);
    sb_puts(&sb, ",\"started_at\":");
    sim_json_time(&sb, start);
    sb_puts(&sb, ",\"ended_at\":");
    sim_json_time(&sb, start + (dur > 0 ? dur : 1));
    sb_printf(&sb, ",\"attributes\":{\"branch\":\"main\",\"machine_type\":\"c3-standard-8\",\"simulated\":true,"
                   "\"sim_seed\":\"%llu\"}}\n",
              (unsigned long long)cfg->seed);
    int rc = 0;
    for (int k = 0; k < nsteps && rc == 0; k++)
        if (steps[k].host == host && steps[k].night == night) {
            write_step_event(&sb, &steps[k], start);
            if (sb.len >= (1u << 16)) {
                rc = emit(ctx, xsb_text(&sb), sb.len);
                sb_reset(&sb);
            }
        }
    for (int c = 0; c < cfg->cells && rc == 0; c++) {
        rng_stream(&r, cfg->seed, (uint64_t[]){TAG_H_CELL, (uint64_t)c}, 2);
        double level = sim_cell_nominal_ns(c) * exp(CELL_BASE_SD * rng_normal(&r)) * speed;
        rng_stream(&r, cfg->seed, (uint64_t[]){TAG_H_HOSTCELL, h, (uint64_t)c}, 3);
        level *= exp(HOST_CELL_SD * rng_normal(&r));
        for (int k = 0; k < nsteps; k++)
            if (steps[k].host == host && steps[k].cell == c && steps[k].night <= night)
                level *= 1 + steps[k].percent / 100;
        rng_stream(&r, cfg->seed, (uint64_t[]){TAG_H_RUN, h, r_, (uint64_t)c}, 4);
        level *= exp(hn * cfg->noise * rng_normal(&r));
        const char *w, *o, *f;
        sim_cell_names(c, &w, &o, &f);
        sb_printf(&sb, "{\"record\":\"samples\",\"benchmark\":\"%s\",\"params\":{\"workload\":\"%s\",\"format\":\"%s\"},"
                       "\"block\":1,\"variant\":\"" VARIANT "\",\"unit\":\"" UNIT "\",\"values\":[",
                  o, w, f);
        for (int v = 0; v < cfg->iterations; v++) {
            if (v)
                sb_putc(&sb, ',');
            sim_json_value(&sb, level * exp(hn * cfg->iteration_sd * rng_normal(&r)));
        }
        sb_puts(&sb, "]}\n");
        if (sb.len >= (1u << 16)) {
            rc = emit(ctx, xsb_text(&sb), sb.len);
            sb_reset(&sb);
        }
    }
    if (rc == 0 && sb.len)
        rc = emit(ctx, xsb_text(&sb), sb.len);
    sb_free(&sb);
    free(steps);
    return rc;
}
