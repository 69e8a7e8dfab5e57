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

/* Fixed so that a seed gives the same bytes (with the same libzstd). */
#define SIM_ZSTD_LEVEL 9

const char usage_simulate[] =
    "usage: benchdb simulate [OPTIONS] OUTDIR\n"
    "\n"
    "Write a simulated plan: runs of one unchanged tree on several hosts, one\n"
    "benchdb-run/1 archive per run as OUTDIR/RUN.jsonl.zst. The same options\n"
    "and seed give the same bytes on every machine. The defaults reproduce the\n"
    "shape of a real calibration plan: 2 groups (protobuf-3, protobuf-4) x 3\n"
    "hosts x 2 positions = 12 runs, 40 cells, 5 blocks of native then chill\n"
    "(the order alternating by block), 2 forks x 5 iterations after 3 warmups.\n"
    "The noise model and every option are described in docs/simulate.md.\n"
    "\n"
    "Plan shape:\n"
    "      --plan NAME          plan name (default calibration-sim)\n"
    "      --groups N           groups, attribute profile protobuf-3, -4, ... (1-8, default 2)\n"
    "      --hosts N            hosts per group (1-26, default 3)\n"
    "      --positions N        runs in sequence on each host (1-99, default 2)\n"
    "      --cells N            workload x operation cells (1-120, default 40)\n"
    "      --blocks N           blocks per run (1-1000, default 5)\n"
    "      --forks N            forks per block and variant (1-100, default 2)\n"
    "      --iterations N       measured iterations per fork (1-10000, default 5)\n"
    "      --warmups N          warmup iterations per fork (0-10000, default 3)\n"
    "      --seed N             seed, 0 to 2^64-1 (default 1)\n"
    "Noise (log standard deviations):\n"
    "      --spread SD          median block-to-block spread of a cell's ratio (default 0.032)\n"
    "      --wide N             cells per group with a wide spread (0-120, default 3;\n"
    "                           capped at the cell count)\n"
    "      --wide-spread LO:HI  their spread, widest first (default 0.06:0.34)\n"
    "      --host-offset SD     scale of a host's offset of a cell's ratio: 0.4-1 x SD on\n"
    "                           large-record cells, 0-0.25 x SD on others (default 0.01)\n"
    "      --drift SD           run-to-run drift of a cell's ratio (default 0.002)\n"
    "      --fork-sd SD         a fork's level (default 0.01)\n"
    "      --iteration-sd SD    one iteration's value (default 0.015)\n"
    "      --effect WORKLOAD/OPERATION[/FORMAT]=FACTOR[@RUNS]\n"
    "                           multiply the treatment's time in matching cells by FACTOR,\n"
    "                           in every run or in runs whose name matches RUNS; each part\n"
    "                           is a shell pattern (repeatable), e.g. 'large/*=1.03@p3-vm-a-*'\n"
    "      --host-noise HOSTS=FACTOR\n"
    "                           multiply every run-to-run noise of the hosts matching HOSTS\n"
    "                           (a shell pattern, e.g. '*-vm-b') by FACTOR, 0-100 (repeatable)\n"
    "Output:\n"
    "      --force              overwrite existing archives\n"
    "  -q, --quiet              no summary line\n"
    "\n"
    "Example:\n"
    "  benchdb simulate --seed 7 sim/ && benchdb ingest sim/\n";

static int parse_int(const char *opt, const char *s, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < INT_MIN || v > INT_MAX)
        return bd_usage_error("simulate", "simulate: %s '%s': expected an integer", opt, s);
    *out = (int)v;
    return 0;
}

static int parse_real(const char *opt, const char *s, double *out)
{
    char *end = NULL;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v))
        return bd_usage_error("simulate", "simulate: %s '%s': expected a number", opt, s);
    *out = v;
    return 0;
}

static int parse_seed(const char *s, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || errno)
        return bd_usage_error("simulate", "simulate: --seed '%s': expected an integer from 0 to 2^64-1", s);
    *out = (uint64_t)v;
    return 0;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char *p = strdup(path);
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

/* Writes run i to path through a temporary file renamed into place. */
static int write_archive(const struct sim_config *cfg, int i, const char *path, ZSTD_CCtx *cc)
{
    char *tmp = bd_strdupf("%s.tmp%ld", path, (long)getpid());
    struct zsink z = {.cc = cc, .cap = ZSTD_CStreamOutSize()};
    int rc = -1;
    z.buf = malloc(z.cap);
    z.f = fopen(tmp, "wb");
    if (!z.f) {
        bd_error("simulate: cannot create %s: %s", tmp, strerror(errno));
        goto out;
    }
    ZSTD_CCtx_reset(cc, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, SIM_ZSTD_LEVEL);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    if (!z.buf || sim_write_run(cfg, i, zsink_emit, &z) || zsink_push(&z, "", 0, ZSTD_e_end)) {
        bd_error("simulate: cannot write %s: %s", tmp, ferror(z.f) ? strerror(errno) : "out of memory");
        goto out;
    }
    if (fclose(z.f) != 0) {
        z.f = NULL;
        bd_error("simulate: cannot write %s: %s", tmp, strerror(errno));
        goto out;
    }
    z.f = NULL;
    if (rename(tmp, path) != 0) {
        bd_error("simulate: cannot rename %s to %s: %s", tmp, path, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    if (z.f)
        fclose(z.f);
    if (rc)
        unlink(tmp);
    free(z.buf);
    free(tmp);
    return rc;
}

int cmd_simulate(struct cli *cli, int argc, char **argv)
{
    enum { O_PLAN = 256, O_GROUPS, O_HOSTS, O_POSITIONS, O_CELLS, O_BLOCKS, O_FORKS, O_ITERATIONS, O_WARMUPS,
           O_SEED, O_SPREAD, O_WIDE, O_WIDE_SPREAD, O_HOST_OFFSET, O_DRIFT, O_FORK_SD, O_ITERATION_SD, O_EFFECT,
           O_FORCE, O_HOST_NOISE };
    static const struct option opts[] = {
        {"plan", required_argument, 0, O_PLAN},
        {"groups", required_argument, 0, O_GROUPS},
        {"hosts", required_argument, 0, O_HOSTS},
        {"positions", required_argument, 0, O_POSITIONS},
        {"cells", required_argument, 0, O_CELLS},
        {"blocks", required_argument, 0, O_BLOCKS},
        {"forks", required_argument, 0, O_FORKS},
        {"iterations", required_argument, 0, O_ITERATIONS},
        {"warmups", required_argument, 0, O_WARMUPS},
        {"seed", required_argument, 0, O_SEED},
        {"spread", required_argument, 0, O_SPREAD},
        {"wide", required_argument, 0, O_WIDE},
        {"wide-spread", required_argument, 0, O_WIDE_SPREAD},
        {"host-offset", required_argument, 0, O_HOST_OFFSET},
        {"drift", required_argument, 0, O_DRIFT},
        {"fork-sd", required_argument, 0, O_FORK_SD},
        {"iteration-sd", required_argument, 0, O_ITERATION_SD},
        {"effect", required_argument, 0, O_EFFECT},
        {"host-noise", required_argument, 0, O_HOST_NOISE},
        {"force", no_argument, 0, O_FORCE},
        {"quiet", no_argument, 0, 'q'},
        {0, 0, 0, 0},
    };
    (void)cli;
    struct sim_config cfg;
    sim_config_defaults(&cfg);
    int force = 0, quiet = 0, c, rc = EXIT_USAGE, n_runs = 0;
    char *err = NULL, **paths = NULL;
    ZSTD_CCtx *cc = NULL;
    cli_getopt_reset();
    while ((c = cli_getopt("simulate", argc, argv, "q", opts)) != -1) {
        int bad = 0;
        switch (c) {
        case O_PLAN: cfg.plan = optarg; break;
        case O_GROUPS: bad = parse_int("--groups", optarg, &cfg.groups); break;
        case O_HOSTS: bad = parse_int("--hosts", optarg, &cfg.hosts); break;
        case O_POSITIONS: bad = parse_int("--positions", optarg, &cfg.positions); break;
        case O_CELLS: bad = parse_int("--cells", optarg, &cfg.cells); break;
        case O_BLOCKS: bad = parse_int("--blocks", optarg, &cfg.blocks); break;
        case O_FORKS: bad = parse_int("--forks", optarg, &cfg.forks); break;
        case O_ITERATIONS: bad = parse_int("--iterations", optarg, &cfg.iterations); break;
        case O_WARMUPS: bad = parse_int("--warmups", optarg, &cfg.warmups); break;
        case O_SEED: bad = parse_seed(optarg, &cfg.seed); break;
        case O_SPREAD: bad = parse_real("--spread", optarg, &cfg.spread); break;
        case O_WIDE: bad = parse_int("--wide", optarg, &cfg.wide); break;
        case O_WIDE_SPREAD: {
            const char *colon = strchr(optarg, ':');
            char *lo = colon ? strndup(optarg, (size_t)(colon - optarg)) : NULL;
            if (!lo)
                bad = bd_usage_error("simulate", "simulate: --wide-spread '%s': expected LO:HI", optarg);
            else
                bad = parse_real("--wide-spread", lo, &cfg.wide_lo) ||
                      parse_real("--wide-spread", colon + 1, &cfg.wide_hi);
            free(lo);
            break;
        }
        case O_HOST_OFFSET: bad = parse_real("--host-offset", optarg, &cfg.host_offset); break;
        case O_DRIFT: bad = parse_real("--drift", optarg, &cfg.drift); break;
        case O_FORK_SD: bad = parse_real("--fork-sd", optarg, &cfg.fork_sd); break;
        case O_ITERATION_SD: bad = parse_real("--iteration-sd", optarg, &cfg.iteration_sd); break;
        case O_EFFECT: {
            struct sim_effect *v = realloc(cfg.effects, ((size_t)cfg.n_effects + 1) * sizeof *v);
            if (!v) {
                bad = 1;
                break;
            }
            cfg.effects = v;
            if (sim_effect_parse(optarg, &cfg.effects[cfg.n_effects], &err))
                bad = bd_usage_error("simulate", "simulate: %s", err);
            else
                cfg.n_effects++;
            break;
        }
        case O_HOST_NOISE: {
            struct sim_host_noise *v = realloc(cfg.host_noise, ((size_t)cfg.n_host_noise + 1) * sizeof *v);
            if (!v) {
                bad = 1;
                break;
            }
            cfg.host_noise = v;
            if (sim_host_noise_parse(optarg, &cfg.host_noise[cfg.n_host_noise], &err))
                bad = bd_usage_error("simulate", "simulate: %s", err);
            else
                cfg.n_host_noise++;
            break;
        }
        case O_FORCE: force = 1; break;
        case 'q': quiet = 1; break;
        default: bad = 1; break;
        }
        if (bad)
            goto out;
    }
    if (optind >= argc) {
        bd_usage_error("simulate", "simulate: missing the output directory");
        goto out;
    }
    if (optind + 1 < argc) {
        bd_usage_error("simulate", "simulate: unexpected argument '%s'", argv[optind + 1]);
        goto out;
    }
    const char *outdir = argv[optind];
    if (!*outdir) {
        bd_usage_error("simulate", "simulate: the output directory's name is empty");
        goto out;
    }
    if (sim_config_check(&cfg, &err)) {
        bd_usage_error("simulate", "simulate: %s", err);
        goto out;
    }

    /* Refuse before writing anything, so that a refused command changes nothing. */
    rc = EXIT_FAIL;
    n_runs = sim_run_count(&cfg);
    paths = calloc((size_t)n_runs, sizeof *paths);
    if (!paths)
        goto out;
    for (int i = 0; i < n_runs; i++) {
        char name[64];
        sim_run_name(&cfg, i, name, sizeof name);
        paths[i] = bd_strdupf("%s%s%s.jsonl.zst", outdir, outdir[strlen(outdir) - 1] == '/' ? "" : "/", name);
        if (!force && access(paths[i], F_OK) == 0) {
            bd_error("simulate: %s exists (pass --force to overwrite)", paths[i]);
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
        if (write_archive(&cfg, i, paths[i], cc))
            goto out;
    if (!quiet)
        printf("simulate: wrote %d archives of plan %s (seed %llu, %ld samples records each) to %s\n", n_runs,
               cfg.plan, (unsigned long long)cfg.seed, sim_samples_per_run(&cfg), outdir);
    rc = EXIT_OK;
out:
    ZSTD_freeCCtx(cc);
    for (int i = 0; paths && i < n_runs; i++)
        free(paths[i]);
    free(paths);
    for (int k = 0; k < cfg.n_effects; k++)
        sim_effect_free(&cfg.effects[k]);
    free(cfg.effects);
    for (int k = 0; k < cfg.n_host_noise; k++)
        sim_host_noise_free(&cfg.host_noise[k]);
    free(cfg.host_noise);
    free(err);
    return rc;
}
