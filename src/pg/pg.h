#ifndef BENCHDB_PG_H
#define BENCHDB_PG_H
/* The PostgreSQL extension benchstats: benchdb's SQL functions for
 * PostgreSQL 15, on the same plain C as the SQLite ones (src/stats for the
 * numbers, src/fnshared for the error texts and the JSON of the results),
 * so that both engines give the same results bit for bit and the same
 * errors. benchstats--0.1.sql declares every function, aggregate and
 * overload; docs/postgresql.md tells how to build and install it.
 *
 * Shared by the function files: the name a function reports (from its SQL
 * name), argument reading with benchdb's error texts, aggregate memory,
 * and jsonb results.
 *
 * An aggregate NAME is backed by SQL functions NAME_step, NAME_inverse,
 * NAME_final, NAME_combine (and a serial/deserial pair per state type):
 * several SQL functions share one C function, which learns which aggregate
 * it serves from its own SQL name (bs_def), as SQLite's functions learn it
 * from their registration row. Errors then name the aggregate. */

/* PostgreSQL 15 leaves PGDLLEXPORT empty on Linux; the module is built
 * with hidden visibility (its internals must not resolve to the server's
 * symbols of the same name), so the entry points say it. */
#define PGDLLEXPORT __attribute__((visibility("default")))

#include "postgres.h"

#include "fmgr.h"
#include "utils/jsonb.h"

#include "fnshared/fnshared.h"

/* Defines a function PostgreSQL calls, exported: PostgreSQL 15's
 * PG_FUNCTION_INFO_V1 exports only its info record.
 *   BS_FUNCTION(bs_name) { ... } */
#define BS_FUNCTION(name)                                                                                              \
    PG_FUNCTION_INFO_V1(name);                                                                                         \
    PGDLLEXPORT Datum name(PG_FUNCTION_ARGS);                                                                          \
    Datum name(PG_FUNCTION_ARGS)

/* What an aggregate is, selecting a variant of shared code. */
enum bs_kind {
    BS_PLAIN = 0,
    BS_VARIANCE, BS_STDDEV, BS_T_CI, BS_MEAN, BS_FSUM,
    BS_POOLED, BS_WELCH,
    BS_MEDIAN, BS_PERCENTILE, BS_TRIMMED, BS_SPREAD, BS_MEDIAN_CI,
};

/* The aggregate (or function) behind the calling SQL function: its name
 * without the _step, _inverse, _final or _combine suffix, and its kind.
 * Looked up once per call site and cached. */
struct bs_def {
    char name[NAMEDATALEN];
    enum bs_kind kind;
};
const struct bs_def *bs_def(FunctionCallInfo fcinfo);

/* Raises "Nth argument to NAME() is not EXPECTED: GOT" for fcinfo's
 * argument i, which is the function's argument argi (0-based; a
 * transition function's argument i = argi + 1, after the state). GOT is
 * the value as PostgreSQL prints it (numbers and booleans bare, anything
 * else quoted and shortened to 40 bytes), or NULL. */
void bs_arg_error(FunctionCallInfo fcinfo, int i, int argi, const char *expected) pg_attribute_noreturn();
/* The same with GOT given. */
void bs_error(FunctionCallInfo fcinfo, int argi, const char *expected, const char *got) pg_attribute_noreturn();
/* GOT for a double, as float8out prints it. */
void bs_describe_double(char *buf, size_t size, double x);

/* Distinct from the flags 0 and 1 that bs_flag returns. */
enum { ARG_OK = 0, ARG_NULL = 2 };

/* The value of argument i of fcinfo as a number, whatever its numeric
 * type (float8, float4, integers, numeric; boolean as 1 or 0): ARG_OK and
 * *out, ARG_NULL, or -1 for another type. */
int bs_number(FunctionCallInfo fcinfo, int i, double *out);
/* A finite number at fcinfo argument i, NULL (ARG_NULL), or an error
 * naming argument argi. */
int bs_finite(FunctionCallInfo fcinfo, int i, int argi, const char *expected, double *out);
/* A boolean flag (a boolean, or any number: nonzero is true): 1, 0 or
 * ARG_NULL; an error for anything else. */
int bs_flag(FunctionCallInfo fcinfo, int i, int argi);
/* A per-call constant (level, p, k, ...) read on every row: the first is
 * kept, a different one is an error ("the same for all rows"). */
void bs_same(FunctionCallInfo fcinfo, int argi, double value, int *have, double *stored);
/* Two partial states' constants, merged (a combine function). */
void bs_same_merge(FunctionCallInfo fcinfo, int argi, int *have, double *stored, int have2, double stored2);

/* The aggregate's memory context; an error outside an aggregate. is_window
 * (may be NULL) says whether it runs as a window function. */
MemoryContext bs_agg_context(FunctionCallInfo fcinfo, int *is_window);
/* fn_grow_fn on a MemoryContext (ctx). */
void *bs_grow(void *ctx, void *old, size_t bytes);

/* A double result: NaN is NULL, as in SQLite. */
#define BS_RETURN_DOUBLE(x)                                                                                            \
    do {                                                                                                               \
        double bs_x_ = (x);                                                                                            \
        if (isnan(bs_x_))                                                                                              \
            PG_RETURN_NULL();                                                                                          \
        PG_RETURN_FLOAT8(bs_x_);                                                                                       \
    } while (0)

/* The jsonb of JSON text. */
Datum bs_jsonb(const char *json);
/* The jsonb of a closed object, or the error of fn_overflow_message when a
 * member overflowed (as sqlfn_json_result on SQLite). */
Datum bs_json_result(FunctionCallInfo fcinfo, const struct fn_json *j);
void bs_overflow_error(FunctionCallInfo fcinfo, const struct fn_overflow *o);

/* A fixed-size plain state (no pointers) as bytea and back: the
 * serialization of the parallel aggregates. */
Datum bs_serial_plain(const void *state, size_t size);
void *bs_deserial_plain(FunctionCallInfo fcinfo, size_t size);
/* The states of a combine function: 1 when both exist (merge *s2 into
 * *s1), else 0 with *result the combined state (s1, or a copy of s2 in the
 * aggregate's memory, or NULL). */
int bs_combine_plain(FunctionCallInfo fcinfo, size_t size, void **s1, void **s2, Datum *result);

/* A transition's plain state of size bytes (argument 0), created zeroed
 * in the aggregate's memory when NULL. A transition always returns a
 * state, even for a row it ignores: the moving-aggregate form may not
 * return NULL, and an empty state gives NULL as no state does. */
void *bs_plain_state(FunctionCallInfo fcinfo, size_t size);
/* The state argument of an inverse transition or combine function, or NULL. */
#define BS_STATE(T, i) (PG_ARGISNULL(i) ? (T *)NULL : (T *)PG_GETARG_POINTER(i))
/* Returns state s, or SQL NULL when there is none. */
#define BS_RETURN_STATE(s)                                                                                             \
    do {                                                                                                               \
        if (!(s))                                                                                                      \
            PG_RETURN_NULL();                                                                                          \
        PG_RETURN_POINTER(s);                                                                                          \
    } while (0)
/* In a combine function of plain states of type T: a and b, both there,
 * or the function returns the one that is (a copy of b in the aggregate's
 * memory), or NULL. */
#define BS_COMBINE_PLAIN(T, a, b)                                                                                      \
    T *a, *b;                                                                                                          \
    do {                                                                                                               \
        Datum bs_r_;                                                                                                   \
        if (!bs_combine_plain(fcinfo, sizeof(T), (void **)&a, (void **)&b, &bs_r_)) {                                  \
            if (!bs_r_)                                                                                                \
                PG_RETURN_NULL();                                                                                      \
            return bs_r_;                                                                                              \
        }                                                                                                              \
    } while (0)
/* PREFIX_serial and PREFIX_deserial of a plain state of type T. */
#define BS_PLAIN_SERIAL(prefix, T)                                                                                     \
    BS_FUNCTION(prefix##_serial) { return bs_serial_plain(PG_GETARG_POINTER(0), sizeof(T)); }                          \
    BS_FUNCTION(prefix##_deserial) { PG_RETURN_POINTER(bs_deserial_plain(fcinfo, sizeof(T))); }

/* ---- the aggregates that keep their rows (keep.c) ----
 * median, percentile, trimmed_mean, spread, median_ci (doubles),
 * mann_whitney, hodges_lehmann (struct mw_obs), change_points and
 * lookback_baseline (struct fn_seq_row): the rows in a FIFO, the call's
 * constants, and a scratch copy for window use. */
struct bs_keep {
    struct fn_fifo f;
    MemoryContext cx; /* where f.data and scratch live */
    void *scratch;
    size_t scratch_bytes;
    int param_arg;    /* the argument (0-based) that param[0] comes from */
    int have[3];
    double param[3];
};
/* A transition's state (argument 0), created empty, with elements of
 * esize bytes and its constants from argument param_arg on, when NULL. */
struct bs_keep *bs_keep_state(FunctionCallInfo fcinfo, size_t esize, int param_arg);
void bs_keep_push(struct bs_keep *s, const void *elem);
/* The live elements: in place when not in a window (they may be
 * reordered: the state stays the same multiset), else a scratch copy. */
void *bs_keep_items(FunctionCallInfo fcinfo, struct bs_keep *s);

#endif
