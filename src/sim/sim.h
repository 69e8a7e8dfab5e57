#ifndef BENCHDB_SIM_SIM_H
#define BENCHDB_SIM_SIM_H
#include <stddef.h>
#include <stdint.h>

/* The model behind 'benchdb simulate': a plan of runs of one unchanged
 * tree, each run writing a benchdb-run/1 archive as JSON Lines. Plain C,
 * no SQLite; docs/simulate.md gives the formulas. Every random quantity
 * comes from its own keyed stream (sim/rng.h), so a seed gives the same
 * text on every machine, and changing one option does not reshuffle the
 * draws of quantities it does not touch. */

/* --effect: the treatment of matching cells is multiplied by factor in
 * the runs whose name matches runs (every run when runs is NULL). Each
 * pattern is a shell glob (fnmatch); format defaults to "*". */
struct sim_effect {
    char *workload, *operation, *format, *runs;
    double factor;
};

/* --step RUN:CELL:PCT (history mode): from the matching runs on, the
 * matching cells' times are multiplied by 1 + percent/100. RUN is a night
 * (1-based, on every host) or a shell pattern over run names; CELL is
 * WORKLOAD/OPERATION[/FORMAT], shell patterns, FORMAT defaulting to "*". */
struct sim_step {
    int night;   /* 1..history, or 0 when runs is a pattern */
    char *runs;  /* NULL when night is given */
    char *workload, *operation, *format;
    double percent;
    char *given; /* the step as given, for messages */
};

/* --host-noise: every run-to-run noise of the hosts whose name matches
 * hosts (a shell glob) is multiplied by factor. */
struct sim_host_noise {
    char *hosts;
    double factor;
};

struct sim_config {
    const char *plan;             /* NULL: calibration-sim, or nightly-sim with --history */
    int groups, hosts, positions, cells, blocks, forks, iterations, warmups;
    uint64_t seed;
    double spread;                /* median block-to-block log sd of an ordinary cell */
    int wide;                     /* wide cells per group */
    double wide_lo, wide_hi;      /* their block-to-block log sd range */
    double host_offset;           /* host-offset scale (log sd) of large-record cells */
    double drift;                 /* run-to-run drift of a cell's log ratio (sd) */
    double fork_sd, iteration_sd; /* log sd of a fork's level and of one value */
    struct sim_effect *effects;
    int n_effects;
    /* History mode (--history N > 0; src/sim/history.c): N nightly runs per
     * host of one branch, with injected steps. */
    int history;
    double noise;                 /* run-to-run log sd of a cell's level */
    struct sim_step *steps;       /* --step, in the order given */
    int n_steps;
    int random_steps;             /* --steps K */
    struct sim_host_noise *host_noise;
    int n_host_noise;
};

/* Limits of the options, checked by sim_config_check. */
enum {
    SIM_MAX_GROUPS = 8,
    SIM_MAX_HOSTS = 26,
    SIM_MAX_POSITIONS = 99,
    SIM_MAX_CELLS = 120,
    SIM_MAX_BLOCKS = 1000,
    SIM_MAX_FORKS = 100,
    SIM_MAX_ITERATIONS = 10000,
    SIM_MAX_WARMUPS = 10000,
    SIM_MAX_HISTORY = 9999,
    SIM_MAX_RANDOM_STEPS = 1000,
    SIM_MAX_HOST_NOISE = 100,
};

void sim_config_defaults(struct sim_config *cfg);
/* The plan's name: --plan, else the mode's default. */
const char *sim_plan(const struct sim_config *cfg);
/* 0, or -1 with *err (malloc'd) naming the option and what is wrong. */
int sim_config_check(const struct sim_config *cfg, char **err);
/* Parses WORKLOAD/OPERATION[/FORMAT]=FACTOR[@RUNS] into e; -1 with *err. */
int sim_effect_parse(const char *arg, struct sim_effect *e, char **err);
void sim_effect_free(struct sim_effect *e);
/* Parses RUN:CELL:PCT into s; -1 with *err. */
int sim_step_parse(const char *arg, struct sim_step *s, char **err);
void sim_step_free(struct sim_step *s);

/* Parses HOSTS=FACTOR into h (0 <= FACTOR <= SIM_MAX_HOST_NOISE); -1 with *err. */
int sim_host_noise_parse(const char *arg, struct sim_host_noise *h, char **err);
void sim_host_noise_free(struct sim_host_noise *h);
/* 0, or -1 with *err when a pattern matches none of the plan's hosts. */
int sim_host_noise_check(const struct sim_config *cfg, char **err);
/* The product of the factors of the patterns matching host h of group g. */
double sim_host_noise_factor(const struct sim_config *cfg, int group, int host);
/* The same for the host named name (a history's ci-a, ...). */
double sim_host_noise_of(const struct sim_config *cfg, const char *name);
/* The index of the first --host-noise pattern that matches none of the n
 * host names, or -1. */
int sim_host_noise_unmatched(const struct sim_config *cfg, const char *const *names, int n);
/* The name of host h of group g, e.g. "sim-p3-vm-a". */
void sim_host_name(int group, int host, char *buf, size_t size);

int sim_run_count(const struct sim_config *cfg);
/* The name of run i (0 <= i < sim_run_count), e.g. "p3-vm-a-1". */
void sim_run_name(const struct sim_config *cfg, int i, char *buf, size_t size);

/* Receives the archive text in pieces; returns 0, or nonzero to stop. */
typedef int (*sim_emit_fn)(void *ctx, const char *data, size_t n);
/* Writes run i's archive as JSON Lines through emit; returns 0 or the
 * first nonzero value emit returned (-1 when memory ran out). */
int sim_write_run(const struct sim_config *cfg, int i, sim_emit_fn emit, void *ctx);

/* Counts of what sim_write_run writes for one run. */
long sim_samples_per_run(const struct sim_config *cfg);

#endif
