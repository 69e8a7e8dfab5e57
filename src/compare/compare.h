#ifndef BENCHDB_COMPARE_COMPARE_H
#define BENCHDB_COMPARE_COMPARE_H
/* benchstat v2's comparison (golang.org/x/perf/cmd/benchstat, default
 * options) as a model, built from benchmark results or from the rows of
 * the saved query `compare`, and printed as benchstat's text tables
 * (docs/queries.md, "compare").
 *
 * Results go into tables as benchstat groups them: one table per file
 * configuration (the "key: value" lines of Go benchmark text) and unit,
 * a row per benchmark full name, a column per side; tables, rows, columns
 * and units come in the order they first appear, except that tables of
 * different configurations are ordered by their configuration's text.
 * Each cell is summarised by its median and the distribution-free
 * interval of the median (its "± x%"); every column after the first is
 * compared with the first by the Mann-Whitney U test; a geomean row ends
 * each table. benchdb adds, after benchstat's columns, the change's
 * Hodges-Lehmann interval and a verdict (opts.extras). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/arena.h"
#include "util/strbuf.h"
#include "output/output.h"
#include "stats/rank.h"

#define CMP_MAXWARN 4

enum cmp_adjust { CMP_ADJUST_NONE, CMP_ADJUST_HOLM, CMP_ADJUST_BH };

struct cmp_options {
    double level;            /* the median's interval (benchstat's -confidence), 0.95 */
    double alpha;            /* 0.05 */
    enum mw_method method;   /* MW_BENCHSTAT */
    enum cmp_adjust adjust;
    double threshold;        /* percent: a regression is slower (worse) by more */
    int extras;              /* benchdb's columns after benchstat's */
    const char *metric;      /* only this metric (NULL or "*": all) */
    const char *exact_units; /* comma-separated units assumed exact */
};
void cmp_options_init(struct cmp_options *o);

/* One side's cell of a row. */
struct cmp_cell {
    int present;
    int64_t n;
    double center, lo, hi; /* the median and its interval (+-inf when unbounded) */
    double pm;             /* "±" in percent; NAN when it is not one */
    const char *pct;       /* "±" as shown: "3%", "∞", "?", "0%" */
    const char *warn[CMP_MAXWARN];
    int nwarn;
    /* The comparison with the row's cell in the table's first column. */
    int compared, tested;
    double p_raw, p;       /* p: as judged (adjusted when asked) */
    int64_t n1, n2;
    const char *delta;     /* "~", "0.00%", "?", "+4.62%" */
    double change;         /* percent; NAN when undefined */
    const char *cwarn[CMP_MAXWARN];
    int ncwarn;
    int too_few;           /* neither sample large enough for the test to reach alpha (benchstat's "need >= N samples") */
    int has_ci;            /* the change's Hodges-Lehmann interval, percent */
    double ci_lo, ci_hi;
    const char *verdict;   /* "~", "same", "?", "slower", "faster", "worse", "better", "higher", "lower" */
    int regressed;
};

struct cmp_row {
    const char *label;
    struct cmp_cell *cells; /* one per column */
};

/* A column's geomean. */
struct cmp_sum {
    int has_summary, has_ratio;
    double summary, ratio;
    int64_t n;             /* cells in the column */
    const char *warn[3];
    int nwarn;
};

struct cmp_table {
    const char **cfg;      /* per configuration key (cmp_model.fields), "" when absent */
    const char *unit;      /* shown above the columns */
    const char *metric;    /* the metric (CSV and JSON) */
    int binary;            /* scales by powers of 1024 */
    const char *kind, *direction; /* of the unit, for verdicts */
    int exact;
    int ncols;
    const char **cols;
    size_t nrows;
    struct cmp_row *rows;
    struct cmp_sum *sums;  /* one per column */
};

/* A failure the harness reported (failures.c): a benchmark that errored
 * or was skipped, a command that exited non-zero; said with the answer. */
struct cmp_failure {
    char *name, *what; /* the benchmark as shown, "error: no data" */
    char **sides;      /* the labels of the sides that reported it, in order */
    size_t nsides;
    size_t times;      /* reported this often by the first side (a failed repetition each) */
};
struct cmp_failures {
    struct cmp_failure *v;
    size_t n, cap;
};

struct cmp_model {
    struct arena arena;
    int nfields;
    const char **fields;   /* configuration keys, in order of first appearance */
    size_t ntables;
    struct cmp_table *tables;
    int extras;
    enum cmp_adjust adjust;
    double level;
    double alpha;          /* what p is judged against */
    double threshold;      /* percent: a regression is slower (worse) by more */
    size_t compared;       /* cells compared with a baseline */
    size_t regressed;      /* of them, regressions (the gate) */
    const char **sides;    /* the sides' labels in order, the baseline first */
    int nsides;
    int only_changed;      /* cmp_model_only_changed: changed rows only, no geomean */
    const char *ignore_option; /* the option that leaves a configuration key out ("--ignore"), or NULL */
    struct cmp_failures failures; /* what the harness reported failed, in the order read */
    const char **formats;  /* on files: each side's files' formats ("jmh", "go-bench, csv"); NULL on a store */
    int gate_strict;       /* --gate-strict: the gate also fails (incomplete) on what it could not judge */
};
void cmp_model_free(struct cmp_model *m);

/* ---- failures the harness reported (failures.c) ---- */

/* The first line names this many failures at most (the last place says
 * how many more); the rest are listed after the tables. */
#define CMP_FAILURES_SHOWN 3
/* Adds one: the same name and text again counts another time in the same
 * side, or adds its side. 0. */
int cmp_failures_add(struct cmp_failures *f, const char *side, const char *name, const char *what);
void cmp_failures_free(struct cmp_failures *f);
/* "; the harness reported 2 failures: BM_Err in base and head (error: no data), ..."
 * after the counts, Markdown-escaped when md; nothing when there are none. */
int cmp_failures_clause(struct strbuf *sb, const struct cmp_failures *f, int md);
/* The comment's list of every failure, Markdown; nothing when none. */
int cmp_failures_list(struct strbuf *sb, const struct cmp_failures *f);
/* "NAME in SIDE (WHAT)", malloc'd. */
char *cmp_failure_text(const struct cmp_failure *x);
/* Whether the harness reported a failure in side: of the benchmark name,
 * or of any when name is NULL. */
int cmp_failures_in(const struct cmp_failures *f, const char *name, const char *side);
/* [{"sides": [...], "benchmark": ..., "what": ..., "times": N}, ...], malloc'd. */
char *cmp_failures_json(const struct cmp_failures *f);

/* The geomean row of t (t->sums, one per column, zeroed) from its cells'
 * centers, as a model built from results has it (benchtab's summarizeCol):
 * for a table laid out from rows that hold no geomean of all its cells
 * (compare on a store: ns and s shown as one sec table). 0, or -1 when
 * memory ran out. */
int cmp_table_summarize(struct cmp_table *t, int extras);

/* Prints m as benchstat's text: per table, the configuration lines that
 * changed, the table, its notes; a blank line between tables. 0, or -1
 * on a write error or when memory ran out. */
int cmp_print_text(struct cmp_model *m, FILE *out);

/* ---- building a model from results (builder.c, stats.c) ---- */

struct cmp_builder;
struct cmp_builder *cmp_builder_new(void);
void cmp_builder_free(struct cmp_builder *b);

/* One value of a result: in its tidied unit (shown above the table),
 * with the unit as the input wrote it (its kind and direction decide the
 * verdict) and its metric (NULL: the unit); primary when it is the
 * primary metric (--metric primary selects it whatever its name). */
struct cmp_value {
    double value;
    const char *unit, *orig_unit, *metric;
    int primary;
};
struct cmp_config {
    const char *key, *value;
};
/* Adds a result (a line of Go benchmark text, or one value of a series):
 * column col, the file configuration in effect, the full name, values.
 * -1 when memory ran out. */
int cmp_builder_add(struct cmp_builder *b, const char *col, const struct cmp_config *cfg, size_t ncfg,
                    const char *name, const struct cmp_value *v, size_t nv);
/* Numbers column col (the sides' order, before any result names it). */
int cmp_builder_col(struct cmp_builder *b, const char *col);
/* Leaves configuration key out of the tables' configuration (--ignore),
 * whatever file brings it; before any result is added. 0, or -1 when
 * memory ran out. */
int cmp_builder_ignore(struct cmp_builder *b, const char *key);
/* Every configuration key the results carried, left out ones too, in the
 * order first seen: the array (owned by b) and *n. */
const char *const *cmp_builder_keys(const struct cmp_builder *b, int *n);
/* How many values were added so far. */
size_t cmp_builder_values(const struct cmp_builder *b);
/* The unit (tidied) is exact (benchstat's "Unit U assume=exact"). */
int cmp_builder_exact(struct cmp_builder *b, const char *unit);
/* The tables with every statistic computed. 0; -1 with *err set when
 * memory ran out; -2 with *err set when o->metric names no metric of the
 * results (a usage error: *err names the metrics there are). */
int cmp_builder_finish(struct cmp_builder *b, const struct cmp_options *o, struct cmp_model *m, char **err);

/* ---- Go benchmark text (gotext.c) ---- */

/* Reads a file of Go benchmark text (golang.org/x/perf benchfmt) into
 * column col: configuration lines, "Unit" lines, Benchmark lines with
 * their values tidied. A line benchfmt refuses is skipped with a warning
 * "FILE:LINE: what" on stderr, as benchstat does. -1 when
 * memory ran out, -2 on bytes that are not UTF-8 (*err says where). */
int cmp_read_gotext(struct cmp_builder *b, const char *col, const char *file, const char *text, size_t len,
                    char **err);

/* ---- the answer first (comment.c): counts, changed cells, a PR comment ----
 *
 * A benchmark (a row of a table: its full name under its configuration)
 * is counted once per side compared with the baseline, over every metric,
 * by its most telling verdict: slower, worse, faster, better, higher,
 * lower, undetermined (?), then only in the baseline (removed), only in
 * the side (added), else unchanged (~ or the same median) (docs/queries.md,
 * "The pull-request comment"). A cell is changed when it was compared and
 * its verdict is neither ~ nor same. */
enum cmp_class {
    CMP_SLOWER, CMP_WORSE, CMP_FASTER, CMP_BETTER, CMP_HIGHER, CMP_LOWER, CMP_UNKNOWN, CMP_REMOVED, CMP_ADDED,
    CMP_INCONCLUSIVE, /* "~" with too few samples for the test to reach alpha */
    CMP_UNCHANGED, CMP_NCLASS
};
struct cmp_counts {
    size_t n[CMP_NCLASS];
    size_t benchmarks;     /* benchmark and side pairs counted */
    size_t names;          /* distinct benchmarks (full name and configuration) of every side */
    int64_t n1lo, n1hi, n2lo, n2hi; /* the compared cells' sample counts */
    size_t judged;         /* compared cells the test could judge (not inconclusive), in any metric */
    size_t removed_failed; /* of those counted removed, the ones the harness reported failed where missing */
    size_t by_less[2];     /* of those counted slower ([0]) or worse ([1]), the ones no cell of which regressed:
                            * by no more than the threshold */
};
/* (strict.c) Whether every benchmark compared was inconclusive and no cell of any
 * metric could be judged: "no regression" would claim what the test
 * cannot know. (A benchmark judged unchanged in one metric and
 * inconclusive in another counts inconclusive, but a cell was judged.) */
int cmp_counts_none_judged(const struct cmp_counts *c);
/* The first line when no cell could be judged, or NULL when some was:
 * "nothing compared (0 slower, ..., 3 removed, ...): no cell has values
 * both in a and in another side..." or "inconclusive (...): no cell has
 * samples enough for the U test to reach p ≤ 0.05, so none could be judged
 * slower or faster"; *unmet 1 for the first (a gate's unmet need, exit 4).
 * malloc'd; -1 in *unmet when memory ran out. */
char *cmp_nothing_judged(const struct cmp_model *m, const struct cmp_counts *c, int *unmet);
/* The class's word ("slower", "removed"...). */
const char *cmp_class_name(enum cmp_class c);
int cmp_cell_changed(const struct cmp_cell *c);
/* The least two-sided p the U test can give n1 against n2 values, all of
 * one side below all of the other: 2 / C(n1 + n2, n1) (ties only raise
 * it); 1 at most, 0 when it is below 1e-6. Also what a shift's interval
 * misses at most: its confidence is 1 - this at best. */
double cmp_best_p(int64_t n1, int64_t n2);
/* The rows' warning (the saved query compare's, and files' rows alike)
 * when a cell's shift interval cannot reach the level: "with 3+3 values
 * the shift's interval cannot reach confidence 0.95". */
#define CMP_SHIFT_SHORT " values the shift's interval cannot reach confidence "
void cmp_shift_short(char *buf, size_t size, int64_t n1, int64_t n2, double level);
/* Counts m's benchmarks. 0, or -1 when memory ran out. */
int cmp_count(const struct cmp_model *m, struct cmp_counts *c);
/* The counts as a JSON object ({"slower": 2, ..., "benchmarks": 30,
 * "gate": "fails"}), malloc'd; NULL when memory ran out. */
char *cmp_counts_json(const struct cmp_model *m, const struct cmp_counts *c);
/* "2 slower, 1 faster, 27 unchanged", malloc'd; NULL when memory ran out. */
char *cmp_counts_words(const struct cmp_counts *c);
/* What follows the verdict's word on the first line: " (2 slower, 1
 * faster, 27 unchanged)", or with a threshold " by more than 5% (...)"
 * (so "no regression by more than 5% (1 slower, ...)"), malloc'd; NULL
 * when memory ran out. */
char *cmp_after_verdict(const struct cmp_model *m, const struct cmp_counts *c);
/* The summary line, Markdown: "**2 slower, 1 faster, 27 unchanged**
 * (unchanged: p > 0.05, Mann–Whitney U test; n = 10+10) — gate: fails",
 * malloc'd; NULL when memory ran out. */
char *cmp_summary_markdown(const struct cmp_model *m, const struct cmp_counts *c);
/* When nothing was compared: the configuration key k whose values alone
 * keep a table of the baseline apart from a table of another side (the
 * same unit and metric, a benchmark in both, every other key equal), its
 * values in each (*va, *vb) and that side's label; -1 when no key does. */
int cmp_apart_key(const struct cmp_model *m, const char **va, const char **vb, const char **side_b);
/* Why nothing was compared, in words: "no cell has values both in A and in
 * another side", and the key of cmp_apart_key with m->ignore_option when
 * there is one; malloc'd, NULL when memory ran out. */
char *cmp_nothing_compared_why(const struct cmp_model *m);
/* Keeps only the rows with a changed cell, and the tables that have one;
 * no geomean rows. */
void cmp_model_only_changed(struct cmp_model *m);
/* The pull-request comment: the summary line, a table of the changed
 * cells (benchstat's columns, names whole, slower first), the benchmarks
 * counted removed or added by name, then the whole comparison as
 * benchstat's text inside <details>. 0, or -1 on a write
 * error or when memory ran out. */
int cmp_print_comment(struct cmp_model *m, FILE *out);

/* ---- the strict gate (strict.c) ---- */

/* Whether m->gate_strict's gate is incomplete (exit 5) where the gate
 * would pass: cells were compared, none regressed, and a benchmark of the
 * baseline is missing from a side compared with it, or the harness
 * reported a failure in such a side, or no cell could be judged. */
int cmp_gate_incomplete(const struct cmp_model *m, const struct cmp_counts *c);
/* Why, in words, Markdown-escaped when md: "1 benchmark of base.json
 * missing from head.json; 1 failure reported in head.json; no cell
 * judged: none has samples enough for p ≤ 0.05" (the parts that hold).
 * malloc'd; NULL when memory ran out. */
char *cmp_gate_incomplete_why(const struct cmp_model *m, const struct cmp_counts *c, int md);

/* ---- the model as rows (rows.c): the saved query's columns ---- */

/* The rows of the saved query `compare` for every comparison of the
 * model, led by the columns a and b (the sides' labels). */
int cmp_model_rows(const struct cmp_model *m, double alpha, double threshold, struct rowset *rs, char **err);

#endif
