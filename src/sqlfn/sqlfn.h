#ifndef BENCHDB_SQLFN_H
#define BENCHDB_SQLFN_H
/* Shared by the SQL function files: the registration table's row type, the
 * argument readers with benchdb's error texts, and the JSON writer.
 *
 * Error texts have one shape: "Nth argument to NAME() is not EXPECTED: GOT",
 * where EXPECTED is fixed per argument (docs/functions.md lists them) and
 * GOT is the value as SQLite prints it, text quoted, or NULL. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "fnshared/fnshared.h"

#ifdef SQLITE_CORE
#include <sqlite3.h>
#else
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif

typedef void (*sqlfn_cb)(sqlite3_context *, int, sqlite3_value **);

/* One row of the registration table; sqlite3_user_data() points at it. */
struct sqlfn_def {
    const char *name;
    int nargs;
    sqlfn_cb func;                         /* scalars */
    sqlfn_cb step, inverse;                /* aggregates, all window-capable */
    void (*final)(sqlite3_context *);
    void (*value)(sqlite3_context *);
    int kind;                              /* selects a variant of shared code */
    const char *probe;                     /* registered only when this SQL does not prepare */
    int deterministic;                     /* the same result for the same arguments */
};

/* The registration table (catalogue.c, made from src/fnshared/functions.json
 * by tools/gen/functions.py): one row per function and argument count. */
extern const struct sqlfn_def sqlfn_catalogue[];
extern const size_t sqlfn_catalogue_count;

static inline const char *sqlfn_name(sqlite3_context *ctx)
{
    return ((const struct sqlfn_def *)sqlite3_user_data(ctx))->name;
}

static inline int sqlfn_kind(sqlite3_context *ctx)
{
    return ((const struct sqlfn_def *)sqlite3_user_data(ctx))->kind;
}

/* Sets "Nth argument to NAME() is not EXPECTED: GOT"; argi is 0-based. */
void sqlfn_arg_error(sqlite3_context *ctx, int argi, const char *expected, sqlite3_value *got);

/* Distinct from the flags 0 and 1 that sqlfn_flag returns. */
enum { ARG_OK = 0, ARG_NULL = 2, ARG_ERROR = -1 };

/* Numeric text ('2.5') is read as its number, as SQLite's numeric affinity
 * would; other text and blobs are not numbers. */
int sqlfn_number_slow(sqlite3_value *v, double *out);

/* Reads argv[argi] as a number: ARG_OK and *out, ARG_NULL, or ARG_ERROR for
 * anything that is not a number (the caller reports it). Infinities pass. */
static inline int sqlfn_number(sqlite3_value *v, double *out)
{
    switch (sqlite3_value_type(v)) {
    case SQLITE_FLOAT:
        *out = sqlite3_value_double(v);
        return ARG_OK;
    case SQLITE_INTEGER:
        *out = (double)sqlite3_value_int64(v);
        return ARG_OK;
    case SQLITE_NULL:
        return ARG_NULL;
    default:
        return sqlfn_number_slow(v, out);
    }
}

/* A finite number, NULL (ARG_NULL), or an error already set on ctx. */
static inline int sqlfn_finite(sqlite3_context *ctx, sqlite3_value **argv, int argi, const char *expected,
                               double *out)
{
    int rc = sqlfn_number(argv[argi], out);
    if (rc == ARG_OK && !isfinite(*out))
        rc = ARG_ERROR;
    if (rc == ARG_ERROR)
        sqlfn_arg_error(ctx, argi, expected, argv[argi]);
    return rc;
}

/* A boolean flag (any number, nonzero is true): 1, 0, ARG_NULL, or ARG_ERROR
 * with the error set. */
static inline int sqlfn_flag(sqlite3_context *ctx, sqlite3_value **argv, int argi)
{
    sqlite3_value *v = argv[argi];
    if (sqlite3_value_type(v) == SQLITE_INTEGER)
        return sqlite3_value_int64(v) != 0;
    double d;
    int rc = sqlfn_number(v, &d);
    if (rc == ARG_NULL)
        return ARG_NULL;
    if (rc == ARG_ERROR || isnan(d)) {
        sqlfn_arg_error(ctx, argi, EXPECT_BOOLEAN, v);
        return ARG_ERROR;
    }
    return d != 0;
}

/* A per-call constant argument (level, p, k): checks that every row gives
 * the same value; have and stored live in the aggregate state. 0 or -1 with
 * the error set. */
int sqlfn_same(sqlite3_context *ctx, sqlite3_value **argv, int argi, double value, int *have, double *stored);

/* Makes the closed object j (fnshared.h) the result, with subtype 'J'; an
 * error (fn_overflow_message) instead when a member overflowed. */
void sqlfn_json_result(sqlite3_context *ctx, struct fn_json *j);
void sqlfn_overflow_error(sqlite3_context *ctx, const struct fn_overflow *o);

/* The FIFO of fnshared.h on SQLite's allocator. */
void *sqlfn_grow(void *ctx, void *old, size_t bytes);
static inline int sqlfn_fifo_push(struct fn_fifo *f, const void *elem) { return fn_fifo_push(f, elem, sqlfn_grow, NULL); }
void sqlfn_fifo_free(struct fn_fifo *f);

/* The state of the aggregates that keep their values (fn_values.c,
 * fn_rank.c): the FIFO, a copy for xValue reused between rows, and one
 * per-call parameter (p, k, level, method) that sqlfn_same checks. */
struct sqlfn_values {
    struct fn_fifo f;
    void *scratch;
    size_t scratch_bytes;
    int have_param;
    double param;
};
/* The aggregate's state with its element size set; NULL when memory ran
 * out (error set). */
struct sqlfn_values *sqlfn_values_state(sqlite3_context *ctx, size_t esize);
/* The live elements, in place when final, else copied into the scratch
 * buffer; NULL when memory ran out (error set). */
void *sqlfn_values_items(sqlite3_context *ctx, struct sqlfn_values *s, int is_final);
void sqlfn_values_release(struct sqlfn_values *s);
/* Reads seq (argv[0]) and x (argv[1]): ARG_OK, ARG_NULL (the row is
 * skipped), or ARG_ERROR (not finite numbers), with the error set on ctx
 * when report is nonzero. */
int sqlfn_seq_row_read(sqlite3_context *ctx, sqlite3_value **argv, struct fn_seq_row *r, int report);
/* The rows of a group or window frame, put in order by the aggregate
 * (fn_seq_row_cmp). Zero-initialised in the aggregate state. */
struct sqlfn_seq_rows {
    struct fn_fifo f;
    struct fn_seq_row *scratch; /* xValue's copy of the frame */
    size_t scratch_len;
};
/* 0, or -1 when memory ran out. */
int sqlfn_seq_rows_push(struct sqlfn_seq_rows *s, const struct fn_seq_row *r);
/* xInverse: removes the row of argv. */
void sqlfn_seq_rows_remove(sqlite3_context *ctx, struct sqlfn_seq_rows *s, sqlite3_value **argv);
/* The rows sorted (s->f.len of them): in place for xFinal, a copy for
 * xValue; NULL when memory ran out (the error is set). */
struct fn_seq_row *sqlfn_seq_rows_sorted(sqlite3_context *ctx, struct sqlfn_seq_rows *s, int is_final);
void sqlfn_seq_rows_free(struct sqlfn_seq_rows *s);

/* Callbacks, one file per group. */
void sqlfn_geomean_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_geomean_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_geomean_final(sqlite3_context *);
void sqlfn_geomean_value(sqlite3_context *);
void sqlfn_moments_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_moments_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_moments_final(sqlite3_context *);
void sqlfn_moments_value(sqlite3_context *);
void sqlfn_band_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_band_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_band_final(sqlite3_context *);
void sqlfn_band_value(sqlite3_context *);
void sqlfn_two_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_two_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_two_final(sqlite3_context *);
void sqlfn_two_value(sqlite3_context *);
void sqlfn_values_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_values_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_values_final(sqlite3_context *);
void sqlfn_values_value(sqlite3_context *);
void sqlfn_mw_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_mw_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_mw_final(sqlite3_context *);
void sqlfn_mw_value(sqlite3_context *);
void sqlfn_hl_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_hl_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_hl_final(sqlite3_context *);
void sqlfn_hl_value(sqlite3_context *);
void sqlfn_mci_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_mci_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_mci_final(sqlite3_context *);
void sqlfn_mci_value(sqlite3_context *);
void sqlfn_string_agg_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_string_agg_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_string_agg_final(sqlite3_context *);
void sqlfn_string_agg_value(sqlite3_context *);
void sqlfn_least_greatest(sqlite3_context *, int, sqlite3_value **);
void sqlfn_t_quantile(sqlite3_context *, int, sqlite3_value **);
void sqlfn_t_cdf(sqlite3_context *, int, sqlite3_value **);
void sqlfn_normal_quantile(sqlite3_context *, int, sqlite3_value **);
void sqlfn_ci_exp(sqlite3_context *, int, sqlite3_value **);
void sqlfn_ci_recip(sqlite3_context *, int, sqlite3_value **);
void sqlfn_ci_excludes(sqlite3_context *, int, sqlite3_value **);
void sqlfn_version(sqlite3_context *, int, sqlite3_value **);

/* kinds */
enum {
    KIND_VARIANCE = 1, KIND_STDDEV, KIND_T_CI,
    KIND_POOLED, KIND_WELCH,
    KIND_MEDIAN, KIND_PERCENTILE, KIND_TRIMMED, KIND_SPREAD,
    KIND_MEDIAN_CI, KIND_LEAST, KIND_GREATEST
};

/* change_points (fn_changepoint.c) */
void sqlfn_cp_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_cp_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_cp_final(sqlite3_context *);
void sqlfn_cp_value(sqlite3_context *);

/* lookback_baseline (fn_lookback.c) */
void sqlfn_lookback_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_lookback_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_lookback_final(sqlite3_context *);
void sqlfn_lookback_value(sqlite3_context *);

#endif
