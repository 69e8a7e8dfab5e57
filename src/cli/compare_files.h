#ifndef BENCHDB_CLI_COMPARE_FILES_H
#define BENCHDB_CLI_COMPARE_FILES_H
/* `benchdb compare` on files, without a store (docs/queries.md, "compare
 * on files"): each side one or more files of a format ingest reads (or
 * "-"), compared as benchstat compares files. */
#include <stddef.h>

#include "cli/cli.h"
#include "compare/compare.h"

/* A side as given: [LABEL=]PATH[,PATH...] or "-". */
struct compare_side {
    const char *arg;
    char *label;
    char **paths;
    size_t npaths;
};
/* Parses arg. Returns 1 when it names files (every path an existing file
 * or directory, or "-"), 0 when it does not (a run or other name of a
 * store), -1 when memory ran out. The whole argument is a path when it
 * names a file; else LABEL= before its first "=" labels the side, and the
 * rest is split at commas unless it names a file itself. */
int compare_side_parse(const char *arg, struct compare_side *s);
/* A directory among s's paths becomes the harness files below it, as
 * `ingest --plan` takes them (Criterion.rs's target/criterion). 0, or -1
 * after an error naming the directory. */
int compare_side_expand(struct compare_side *s);
/* Whether s names one file twice (the same file, however written, or
 * standard input twice): its values would count twice. 1 with *first and
 * *second the two paths as given; 0 when not. */
int compare_side_twice(const struct compare_side *s, const char **first, const char **second);
void compare_side_free(struct compare_side *s);
/* After the result was printed (failed: printing it failed): flushes
 * standard output; 0, or -1 having said that the output could not be
 * written, and why (a full disk). */
int compare_output_done(int failed);
/* benchstat's tables (format table) led by rep's first note, the
 * summary, on standard error (the answer first on a terminal), the other
 * notes after them; cmp_print_text's result. */
int compare_print_table(struct cmp_model *m, const struct out_notes *rep);
/* --only-changed when no cell changed: what table and vertical output
 * print on stdout instead of nothing (a file redirected from them was
 * empty, the answer only on stderr): "No cell changed (0 slower, 0
 * faster, 9 unchanged).", or "No cell was compared (...)."; NULL when a
 * cell changed. Asked before cmp_model_only_changed drops the rows.
 * CSV keeps its header and JSON its [], Markdown its own line. malloc'd. */
char *compare_none_changed(const struct cmp_model *m);
/* Prints it (when not NULL) for the formats that show it. 0, or -1 on a
 * write error. */
int compare_print_none_changed(const char *line, enum out_format f);

/* The name the k-th (0-based) file of a side is stored under in the
 * side's run ("001/old.txt": a directory each, so that
 * the files a harness file brings along beside it stay apart): distinct, in the order given. malloc'd. */
char *compare_file_name(size_t k, const char *path);

/* The failures the harnesses reported (events benchmark-error,
 * benchmark-skipped, exit-code) of the runs on the sides (their names as
 * --by names them, of plan when not NULL) added to f, in the order
 * stored; none for --by variant (events are a run's). 0, or -1 with *err
 * on a database error. */
struct db;
int compare_read_failures(struct db *db, const char *plan, const char *by, const char *key,
                          const char *const *sides, int nsides, struct cmp_failures *f, char **err);

struct compare_files_opts {
    struct cmp_options cmp;
    const char *const *ignore; /* configuration keys left out (--ignore) */
    size_t nignore;
    struct out_opts out;
    int gate;
    int gate_strict;  /* --gate-strict: exit 5 where the gate would pass without having judged all of A */
    int only_changed; /* --only-changed: the changed cells only */
};

/* Reads the sides' files into a model: Go benchmark text as benchstat
 * reads it, any other harness file through ingest into a store in memory.
 * 0; EXIT_FAIL after printing the error. */
int compare_files_model(const struct compare_files_opts *o, struct compare_side *sides, int nsides,
                        struct cmp_model *m);
/* The whole command on files: the model, printed in o->out's format;
 * with o->gate the exit status says whether a cell regressed. */
int compare_files_run(const struct compare_files_opts *o, struct compare_side *sides, int nsides);

/* The summary of a comparison beside its output: the note "compare:
 * SUMMARY (2 slower, 1 faster, 27 unchanged)", the --envelope's counts,
 * and the Markdown comment's first line. 0, or -1 when memory ran out. */
int compare_summarize(const struct cmp_model *m, const char *summary, struct out_notes *rep);
/* With --gate, the gate's result after the other notes, in the comment's
 * words: "compare: gate: fails (exit 3)", "passes", "nothing compared",
 * and "passes, judging no cell: none has samples enough for p ≤ 0.05"
 * when every cell was inconclusive; nothing for another exit status. */
void compare_gate_note(struct out_notes *rep, const struct cmp_model *m, int gate_rc);
/* Where the gate's line goes: into rep with --envelope (a part of the
 * object), else into gate, which compare_gate_said prints on stderr only
 * once the output was written: a line "compare: gate: fails (exit 3)"
 * before "error: compare: cannot write the output" (exit 1) gave a CI log
 * two statuses. */
struct out_notes *compare_gate_where(const struct out_opts *o, struct out_notes *rep, struct out_notes *gate);
void compare_gate_said(const struct out_notes *gate);
/* The gate's exit status gate_rc, or EXIT_INCOMPLETE where it is EXIT_OK
 * and m->gate_strict finds the gate incomplete (cmp_gate_incomplete). */
int compare_gate_strict(const struct cmp_model *m, int gate_rc);

#endif
