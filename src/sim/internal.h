#ifndef BENCHDB_SIM_INTERNAL_H
#define BENCHDB_SIM_INTERNAL_H
/* Shared by the simulator's two models: the calibration plan (sim.c) and
 * nightly histories (history.c). */
#include "sim/sim.h"
#include "util/strbuf.h"

/* Stream tags of the history model; the calibration model's are 1-9 (sim.c).
 * Never renumber: they are part of the output's identity. */
enum {
    TAG_H_CELL = 101,
    TAG_H_HOST,
    TAG_H_HOSTCELL,
    TAG_H_RUN,
    TAG_H_TIME,
    TAG_H_REVISION,
    TAG_H_STEPS,
};

/* Cell i's names (docs/simulate.md, "Cells"). */
void sim_cell_names(int i, const char **workload, const char **operation, const char **format);
/* Chill's nominal time of cell i's operation, ns, before the cell's draw. */
double sim_cell_nominal_ns(int i);
/* Whether cell i matches the three shell patterns. */
int sim_cell_matches(int i, const char *workload, const char *operation, const char *format);

/* JSON text pieces, written as the calibration model writes them. */
void sim_json_string(struct strbuf *sb, const char *s);
/* Six significant digits. */
void sim_json_value(struct strbuf *sb, double x);
/* RFC 3339 UTC text of seconds since 1970, quoted. */
void sim_json_time(struct strbuf *sb, long long t);

/* Option checks: 0, or -1 with *err naming the option and the range. */
int sim_check_int(char **err, const char *opt, int v, int lo, int hi);
/* A standard deviation: a number from 0 to 1. */
int sim_check_sd(char **err, const char *opt, double v);

/* history.c: what sim.c's entry points do in history mode. */
int sim_history_check(const struct sim_config *cfg, char **err);
/* A history's host h: ci-a, ci-b, ... */
void sim_history_host_name(int host, char *buf, size_t size);
void sim_history_run_name(const struct sim_config *cfg, int i, char *buf, size_t size);
int sim_history_write_run(const struct sim_config *cfg, int i, sim_emit_fn emit, void *ctx);

#endif
