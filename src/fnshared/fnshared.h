#ifndef BENCHDB_FNSHARED_H
#define BENCHDB_FNSHARED_H
/* What benchdb's SQL functions do alike on every engine, in plain C (no
 * SQLite or PostgreSQL types): the error texts, the checks of the per-call
 * parameters, the JSON text of the results, the FIFO of the aggregates
 * that keep their values and the order of a sequence's rows. The SQLite
 * bindings (src/sqlfn) and the PostgreSQL extension (src/pg) both build on
 * it, so that both give the same texts byte for byte. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stats/changepoint.h"
#include "stats/lookback.h"
#include "stats/rank.h"
#include "stats/stats.h"

/* ---- error texts (args.c) ----
 * "Nth argument to NAME() is not EXPECTED: GOT": EXPECTED is fixed per
 * argument (docs/functions.md lists them), GOT is the value as the engine
 * prints it, text quoted, or NULL. */
#define EXPECT_FINITE "a finite number"
#define EXPECT_POSITIVE "a positive finite number"
#define EXPECT_BOOLEAN "a boolean"
#define EXPECT_SAME "the same for all rows"
#define EXPECT_LEVEL "a confidence level strictly between 0 and 1"
#define EXPECT_MEMBERS "a comma-separated list of result members"
#define EXPECT_METHOD "one of 'r', 'exact', 'benchstat'"
#define EXPECT_PERCENT "a number between 0 and 100"
#define EXPECT_TRIM "a non-negative integer"
#define EXPECT_PROBABILITY "a number between 0 and 1"
#define EXPECT_NUMBER "a number"
#define EXPECT_DF "a positive finite number"
#define EXPECT_CI "a JSON interval object with numeric estimate, lo and hi"
#define EXPECT_CI_POSITIVE "an interval of positive numbers (lo > 0)"
#define EXPECT_WINDOW "an integer of at least 2"
#define EXPECT_PVALUE "a number between 0 and 1"
#define EXPECT_MAGNITUDE "a non-negative finite number"
#define EXPECT_SUMMARY "a summary made by moments()"

/* The message for argument argi (0-based) of function name, into msg. */
void fn_arg_message(char *msg, size_t size, int argi, const char *name, const char *expected, const char *got);
/* GOT for a text value: in single quotes, shortened to 40 bytes at a
 * character boundary and marked "..." when longer. */
void fn_describe_text(char *buf, size_t size, const char *text);

/* ---- per-call parameters (args.c) ---- */
enum fn_param {
    FN_LEVEL,     /* level: strictly between 0 and 1 */
    FN_PERCENT,   /* p of percentile: [0, 100] */
    FN_TRIM,      /* k of trimmed_mean: an integer in [0, 9e15) */
    FN_WINDOW,    /* window of change_points: a finite integer >= 2 */
    FN_PVALUE,    /* max_pvalue of change_points: [0, 1] */
    FN_MAGNITUDE, /* min_magnitude of change_points: finite, >= 0 */
};
/* NULL when v is a valid value of the parameter, else its EXPECTED text. */
const char *fn_param_check(enum fn_param p, double v);
/* mann_whitney's method: its enum mw_method, or -1 when text (NULL for a
 * value that is not text) names none. */
int fn_mw_method(const char *text);

/* The members of a two-sample interval (pooled_t_ci, welch_t_ci), in
 * output order; bit i of a mask stands for member i. */
enum { FN_CI_MEMBERS = 12, FN_CI_ALL = (1u << FN_CI_MEMBERS) - 1, FN_CI_P = 1u << 6, FN_CI_LIST_MAX = 64 };
/* The mask of a list such as "estimate,lo,hi": 0 unless every item is a
 * member name, each at most once, and the list is shorter than
 * FN_CI_LIST_MAX bytes. */
unsigned fn_ci_members(const char *list);

/* ---- JSON text of the results (json_out.c) ---- */

/* A member of a result that overflowed to +-Inf. JSON has no number for
 * it and null means "does not exist", so the function fails instead, on
 * both engines with the same text (fn_overflow_message):
 *   hodges_lehmann(): estimate is +Inf (beyond the largest double) */
struct fn_overflow {
    const char *key; /* NULL: none */
    int neg;
};
/* Notes key when x is infinite (the first such member counts). */
void fn_overflow_note(struct fn_overflow *o, const char *key, double x);
void fn_overflow_message(char *msg, size_t size, const char *name, const struct fn_overflow *o);
/* ci_exp's and ci_recip's new estimate, lo, hi: the first infinite one. */
struct fn_overflow fn_ci_overflow(const double v[3]);

/* A JSON object in a fixed buffer (results here are small and bounded). */
struct fn_json {
    char buf[768];
    size_t len;
    struct fn_overflow over; /* a member that is +-Inf: the result is an error */
};
void fn_json_begin(struct fn_json *j);
/* A number in shortest round-trip form; NaN (a value that does not exist)
 * as null; an infinity also as null, noted in j->over: the caller fails. */
void fn_json_num(struct fn_json *j, const char *key, double x);
void fn_json_int(struct fn_json *j, const char *key, int64_t x);
void fn_json_bool(struct fn_json *j, const char *key, int b);
/* Closes the object; j->buf holds its text (j->len bytes). */
void fn_json_end(struct fn_json *j);

/* The objects of the functions' results, each closed. */
void fn_json_t_ci(struct fn_json *j, const struct t_interval *t);
/* pooled_t_ci, welch_t_ci: the members of mask (0: all). */
void fn_json_two_sample(struct fn_json *j, const struct t_interval *t, unsigned mask);
void fn_json_mann_whitney(struct fn_json *j, const struct mw_result *r);
void fn_json_hodges_lehmann(struct fn_json *j, const struct hl_result *r);
void fn_json_median_ci(struct fn_json *j, const struct median_ci *r);
void fn_json_lookback(struct fn_json *j, const struct lookback *lb);

/* spread(x): the largest of x[0..n) over the smallest (n >= 1, x > 0). */
double fn_spread(const double *x, size_t n);

/* A row of the rank aggregates into *o, padding zeroed: the FIFO finds a
 * row to remove by its bytes (and a struct assignment need not copy
 * padding). */
static inline void fn_mw_obs(struct mw_obs *o, double x, int first)
{
    memset(o, 0, sizeof *o);
    o->x = x;
    o->first = first;
}

/* ---- a FIFO of fixed-size elements (fifo.c) ----
 * for the aggregates that keep their values. Window frames remove the
 * oldest row first, so removal pops the front in O(1); a value not at the
 * front is searched for. Memory comes from the engine's allocator:
 * grow(ctx, old, bytes) reallocates (old may be NULL), returning NULL when
 * memory ran out, and the binding frees data itself. */
typedef void *(*fn_grow_fn)(void *ctx, void *old, size_t bytes);
struct fn_fifo {
    unsigned char *data;
    size_t esize, start, len, cap; /* in elements */
};
/* 0, or -1 when memory ran out. */
int fn_fifo_push(struct fn_fifo *f, const void *elem, fn_grow_fn grow, void *ctx);
/* Appends n elements (a PostgreSQL combine): 0, or -1. */
int fn_fifo_append(struct fn_fifo *f, const void *elems, size_t n, fn_grow_fn grow, void *ctx);
void fn_fifo_remove(struct fn_fifo *f, const void *elem);
static inline void *fn_fifo_items(const struct fn_fifo *f)
{
    return f->data + f->start * f->esize;
}

/* ---- the rows of an aggregate over a sequence (seq_order.c) ----
 * (seq, x), seq as the engine gave it (integer or real). No padding, as
 * the FIFO finds a row to remove by its bytes. */
struct fn_seq_row {
    double x;
    double seq_real;
    int64_t seq_int;
    int64_t seq_is_int;
};
/* The order the aggregates put their rows in (qsort comparator): by seq
 * (integers compared exactly, integers with reals by exact value), rows
 * with equal seq by x, then an integer seq before an equal real one, then
 * bytes: a total order, so that the sorted series is the same whatever
 * order the rows arrived in. */
int fn_seq_row_cmp(const void *a, const void *b);
/* Whether rows[0..n) are already in that order (a window frame's mostly
 * are: no copy, no sort). */
int fn_seq_rows_ordered(const struct fn_seq_row *rows, size_t n);

/* change_points' computation over n sorted rows: its parameters (given:
 * have[i] ? param[i] : the default, for window (50), max_pvalue (0.001)
 * and min_magnitude (0)); fn_changepoints_setup returns the bytes of
 * workspace fn_changepoints_find needs (aligned for a double). */
struct fn_changepoints {
    size_t n, window;
    double max_pvalue, min_magnitude;
};
size_t fn_changepoints_setup(struct fn_changepoints *c, size_t n, const int have[3], const double param[3]);
/* The change points of rows[0..c->n), in order, into *cp (pointing into
 * work, room for n); returns their number. */
size_t fn_changepoints_find(const struct fn_changepoints *c, const struct fn_seq_row *rows, void *work,
                            struct changepoint **cp);

/* change_points' result for the change points cp[0..m) of the sorted
 * rows: the JSON array's text into out, which has room for
 * fn_json_changepoints_size(m) bytes; returns its length. *over names a
 * member that is +-Inf (the caller fails then). */
size_t fn_json_changepoints_size(size_t m);
size_t fn_json_changepoints(char *out, const struct fn_seq_row *rows, const struct changepoint *cp, size_t m,
                            struct fn_overflow *over);

#endif
