/* benchdb simulate: writes a simulated plan, one benchdb-run/1 archive per
 * run (src/sim/ is the model; this file is options and files). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "cli/cli.h"
#include "sim/sim.h"
#include "util/outfile.h"
#include "util/xalloc.h"

/* Fixed so that a seed gives the same bytes (with the same libzstd). */
#define SIM_ZSTD_LEVEL 9

struct simulate_args {
    struct sim_config cfg;
    int force, quiet;
};
#define SIM(m) offsetof(struct simulate_args, cfg.m)

static int parse_seed(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(arg, &end, 10);
    if (*arg < '0' || *arg > '9' || *end || errno)
        return bd_fail(err, "expected an integer from 0 to 2^64-1");
    *(uint64_t *)dst = (uint64_t)v;
    return 0;
}

/* LO:HI into cfg.wide_lo and the double after it, cfg.wide_hi. */
static int parse_wide_spread(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    struct sim_config *cfg = &((struct simulate_args *)((char *)dst - o->offset))->cfg;
    const char *colon = strchr(arg, ':');
    char *lo = colon ? xstrndup(arg, (size_t)(colon - arg)) : NULL;
    int rc = !lo ? bd_fail(err, "expected LO:HI")
                 : cli_opt_real(o, lo, &cfg->wide_lo, err) || cli_opt_real(o, colon + 1, &cfg->wide_hi, err) ? -1 : 0;
    free(lo);
    return rc;
}

static int parse_effect(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    struct sim_config *cfg = &((struct simulate_args *)((char *)dst - o->offset))->cfg;
    struct sim_effect *v = xreallocarray(cfg->effects, (size_t)cfg->n_effects + 1, sizeof *v);
    if (!v)
        return bd_fail(err, "out of memory");
    cfg->effects = v;
    if (sim_effect_parse(arg, &cfg->effects[cfg->n_effects], err))
        return -2; /* sim's message names --effect and its value */
    cfg->n_effects++;
    return 0;
}

static int parse_step(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    struct sim_config *cfg = &((struct simulate_args *)((char *)dst - o->offset))->cfg;
    struct sim_step *v = xreallocarray(cfg->steps, (size_t)cfg->n_steps + 1, sizeof *v);
    if (!v)
        return bd_fail(err, "out of memory");
    cfg->steps = v;
    if (sim_step_parse(arg, &cfg->steps[cfg->n_steps], err))
        return -2; /* sim's message names --step and its value */
    cfg->n_steps++;
    return 0;
}

static int parse_host_noise(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    struct sim_config *cfg = &((struct simulate_args *)((char *)dst - o->offset))->cfg;
    struct sim_host_noise *v = xreallocarray(cfg->host_noise, (size_t)cfg->n_host_noise + 1, sizeof *v);
    if (!v)
        return bd_fail(err, "out of memory");
    cfg->host_noise = v;
    if (sim_host_noise_parse(arg, &cfg->host_noise[cfg->n_host_noise], err))
        return -2; /* sim's message names --host-noise and its value */
    cfg->n_host_noise++;
    return 0;
}

static const struct cli_opt simulate_opts[] = {
    {NULL, 0, NULL, "Plan shape:", NULL, 0, 0, 0},
    {"plan", 0, "NAME", "plan name (default calibration-sim, nightly-sim\nwith --history)", cli_opt_string, SIM(plan),
     0, 0},
    {"groups", 0, "N", "groups, attribute profile protobuf-3, -4, ...\n(1-8, default 2)", cli_opt_int, SIM(groups), 0, 0},
    {"hosts", 0, "N", "hosts per group (1-26, default 3)", cli_opt_int, SIM(hosts), 0, 0},
    {"positions", 0, "N", "runs in sequence on each host (1-99, default 2)", cli_opt_int, SIM(positions), 0, 0},
    {"cells", 0, "N", "workload x operation cells (1-120, default 40)", cli_opt_int, SIM(cells), 0, 0},
    {"blocks", 0, "N", "blocks per run (1-1000, default 5)", cli_opt_int, SIM(blocks), 0, 0},
    {"forks", 0, "N", "forks per block and variant (1-100, default 2)", cli_opt_int, SIM(forks), 0, 0},
    {"iterations", 0, "N", "measured iterations per fork (1-10000, default 5)", cli_opt_int, SIM(iterations), 0, 0},
    {"warmups", 0, "N", "warmup iterations per fork (0-10000, default 3)", cli_opt_int, SIM(warmups), 0, 0},
    {"seed", 0, "N", "seed, 0 to 2^64-1 (default 1)", parse_seed, SIM(seed), 0, 0},
    {NULL, 0, NULL, "Noise (log standard deviations):", NULL, 0, 0, 0},
    {"spread", 0, "SD", "median block-to-block spread of a cell's ratio\n(default 0.032)", cli_opt_real, SIM(spread),
     0, 0},
    {"wide", 0, "N", "cells per group with a wide spread (0-120,\ndefault 3; capped at the cell count)", cli_opt_int,
     SIM(wide), 0, 0},
    {"wide-spread", 0, "LO:HI", "their spread, widest first (default 0.06:0.34)", parse_wide_spread, SIM(wide_lo), 0,
     0},
    {"host-offset", 0, "SD", "scale of a host's offset of a cell's ratio:\n0.4-1 x SD on large-record cells, "
                             "0-0.25 x SD\non others (default 0.01)", cli_opt_real, SIM(host_offset), 0, 0},
    {"drift", 0, "SD", "run-to-run drift of a cell's ratio (default 0.002)", cli_opt_real, SIM(drift), 0, 0},
    {"fork-sd", 0, "SD", "a fork's level (default 0.01)", cli_opt_real, SIM(fork_sd), 0, 0},
    {"iteration-sd", 0, "SD", "one iteration's value (default 0.015)", cli_opt_real, SIM(iteration_sd), 0, 0},
    {"host-noise", 0, "HOSTS=FACTOR", "multiply every run-to-run noise of the hosts whose\nname matches the shell "
                                      "pattern HOSTS (e.g.\n'*-vm-b'; with --history 'ci-b') by FACTOR,\n0-100 "
                                      "(repeatable)",
     parse_host_noise, SIM(host_noise), 0, 0},
    {"effect", 0, "WORKLOAD/OPERATION[/FORMAT]=FACTOR[@RUNS]",
     "multiply the treatment's time in matching cells\nby FACTOR, in every run or in runs whose name\nmatches RUNS; "
     "each part is a shell pattern\n(repeatable), e.g. 'large/*=1.03@p3-vm-a-*'", parse_effect, SIM(effects), 0, 0},
    {NULL, 0, NULL, "Histories (nightly runs per host; docs/simulate.md):", NULL, 0, 0, 0},
    {"history", 0, "N", "N nightly runs per host instead of a calibration\nplan (1-9999)", cli_opt_int, SIM(history), 1,
     SIM_MAX_HISTORY},
    {"noise", 0, "SD", "run-to-run log sd of a cell's level (default 0.01)", cli_opt_real, SIM(noise), 0, 0},
    {"step", 0, "RUN:CELL:PCT", "from night RUN on, cells matching CELL are PCT\npercent slower (repeatable)",
     parse_step, SIM(steps), 0, 0},
    {"steps", 0, "K", "K random steps in K distinct histories", cli_opt_int, SIM(random_steps), 0, 0},
    {NULL, 0, NULL, "Output:", NULL, 0, 0, 0},
    {"force", 0, NULL, "overwrite existing archives", cli_opt_flag, offsetof(struct simulate_args, force), 0, 0},
    {"quiet", 'q', NULL, "no summary line", cli_opt_flag, offsetof(struct simulate_args, quiet), 0, 0},
    {0},
};

const struct cli_spec spec_simulate = {
    .name = "simulate",
    .synopsis = (const char *const[]){"simulate [OPTIONS] OUTDIR", NULL},
    .about = "Write a simulated plan: runs of one unchanged tree on several hosts, one\n"
             "benchdb-run/1 archive per run as OUTDIR/RUN.jsonl.zst. The same options\n"
             "and seed give the same bytes on every machine. The defaults reproduce the\n"
             "shape of a real calibration plan: 2 groups (protobuf-3, protobuf-4) x 3\n"
             "hosts x 2 positions = 12 runs, 40 cells, 5 blocks of native then chill\n"
             "(the order alternating by block), 2 forks x 5 iterations after 3 warmups.\n"
             "The noise model and every option are described in docs/simulate.md.\n",
    .opts = simulate_opts,
    .more = "Example:\n"
            "  benchdb simulate --seed 7 sim/ && benchdb ingest sim/\n",
    .min_args = 1,
    .max_args = 1,
    .missing = "missing the output directory",
};

/* mkdir -p */
static int make_dirs(const char *path)
{
    char *p = xstrdup(path);
    int rc = 0;
    for (char *s = p + 1; !rc; s++) {
        if (*s == '/' || *s == 0) {
            char c = *s;
            *s = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST)
                rc = -1;
            *s = c;
            if (!c)
                break;
        }
    }
    struct stat st;
    if (!rc && (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))) {
        errno = ENOTDIR;
        rc = -1;
    }
    if (rc)
        bd_error("simulate: cannot create directory %s: %s", path, strerror(errno));
    free(p);
    return rc;
}

/* Compresses what the model emits into one zstd frame. */
struct zsink {
    ZSTD_CCtx *cc;
    FILE *f;
    char *buf;
    size_t cap;
};

static int zsink_push(struct zsink *z, const char *data, size_t n, ZSTD_EndDirective mode)
{
    ZSTD_inBuffer in = {data, n, 0};
    for (;;) {
        ZSTD_outBuffer out = {z->buf, z->cap, 0};
        size_t left = ZSTD_compressStream2(z->cc, &out, &in, mode);
        if (ZSTD_isError(left)) {
            bd_error("simulate: zstd: %s", ZSTD_getErrorName(left));
            return -1;
        }
        if (out.pos && fwrite(z->buf, 1, out.pos, z->f) != out.pos)
            return -1;
        if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size)
            return 0;
    }
}

static int zsink_emit(void *ctx, const char *data, size_t n)
{
    return zsink_push(ctx, data, n, ZSTD_e_continue);
}

/* Writes run i to path, whole or not at all (util/outfile.h). */
static int write_archive(const struct sim_config *cfg, int i, const char *path, ZSTD_CCtx *cc)
{
    struct zsink z = {.cc = cc, .cap = ZSTD_CStreamOutSize()};
    struct outfile o;
    char *err = NULL;
    z.buf = xmalloc(z.cap);
    if (!z.buf) {
        bd_error("simulate: out of memory");
        return -1;
    }
    if (outfile_open_own(&o, path, &err)) {
        bd_error("simulate: %s", err);
        free(err);
        free(z.buf);
        return -1;
    }
    z.f = o.f;
    ZSTD_CCtx_reset(cc, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, SIM_ZSTD_LEVEL);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    int rc = 0;
    if (sim_write_run(cfg, i, zsink_emit, &z) || zsink_push(&z, "", 0, ZSTD_e_end)) {
        bd_error("simulate: cannot write %s: %s", path, ferror(z.f) ? strerror(errno) : "out of memory");
        outfile_abort(&o);
        rc = -1;
    } else if (outfile_commit(&o, &err)) {
        bd_error("simulate: %s", err);
        rc = -1;
    }
    free(err);
    free(z.buf);
    return rc;
}

int cmd_simulate(struct cli *cli, int argc, char **argv)
{
    (void)cli;
    struct simulate_args a = {0};
    struct sim_config *cfg = &a.cfg;
    sim_config_defaults(cfg);
    int rc = EXIT_USAGE, n_runs = 0, first;
    char *err = NULL, **paths = NULL;
    ZSTD_CCtx *cc = NULL;
    if (cli_parse(&spec_simulate, argc, argv, &a, &first))
        goto out;
    const char *outdir = argv[first];
    if (!*outdir) {
        bd_usage_error("simulate", "simulate: the output directory's name is empty");
        goto out;
    }
    if (sim_config_check(cfg, &err)) {
        bd_usage_error("simulate", "simulate: %s", err);
        goto out;
    }

    /* Refuse before writing anything, so that a refused command changes nothing. */
    rc = EXIT_FAIL;
    n_runs = sim_run_count(cfg);
    paths = xcalloc((size_t)n_runs, sizeof *paths);
    if (!paths)
        goto out;
    for (int i = 0; i < n_runs; i++) {
        char name[64];
        sim_run_name(cfg, i, name, sizeof name);
        paths[i] = bd_strdupf("%s%s%s.jsonl.zst", outdir, outdir[strlen(outdir) - 1] == '/' ? "" : "/", name);
        struct stat st;
        if (!a.force && lstat(paths[i], &st) == 0) {
            bd_error("simulate: %s exists (pass --force to overwrite)", paths[i]);
            goto out;
        }
        if (lstat(paths[i], &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
            bd_error("simulate: %s exists and is no regular file (--force replaces only a file or a link)", paths[i]);
            goto out;
        }
    }
    if (make_dirs(outdir))
        goto out;
    cc = ZSTD_createCCtx();
    if (!cc) {
        bd_error("simulate: out of memory");
        goto out;
    }
    for (int i = 0; i < n_runs; i++)
        if (write_archive(cfg, i, paths[i], cc))
            goto out;
    if (!a.quiet)
        cli_say("simulate: wrote %d archives of plan %s (seed %llu, %ld samples records each) to %s", n_runs,
               sim_plan(cfg), (unsigned long long)cfg->seed, sim_samples_per_run(cfg), outdir);
    rc = EXIT_OK;
out:
    ZSTD_freeCCtx(cc);
    for (int i = 0; paths && i < n_runs; i++)
        free(paths[i]);
    free(paths);
    for (int k = 0; k < cfg->n_effects; k++)
        sim_effect_free(&cfg->effects[k]);
    free(cfg->effects);
    for (int k = 0; k < cfg->n_host_noise; k++)
        sim_host_noise_free(&cfg->host_noise[k]);
    free(cfg->host_noise);
    for (int k = 0; k < cfg->n_steps; k++)
        sim_step_free(&cfg->steps[k]);
    free(cfg->steps);
    free(err);
    return rc;
}
