#ifndef BENCHDB_INGEST_SINK_STATEMENTS_H
#define BENCHDB_INGEST_SINK_STATEMENTS_H
/* Inside the sink: its state and the helpers its files share
 * (statements.c: statements, transactions, ids; archive.c: archive rows;
 * runs.c: runs; values.c: series, values, gates, events; series_call.c:
 * a small archive's series and values by one call). sink.h is its
 * interface. */
#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>

#include "ingest/core/idmap.h"
#include "ingest/sink/sink.h"
#include "util/strbuf.h"

/* A series' values and warmups are inserted together by statements of
 * 64, 32, 16, 8, 4, 2 and 1 rows, the largest that fits first (the binary
 * digits of their count): "VALUES (?1, ?2, ?3, ?4), (?1, ?5, ?6, ?7), ..."
 * with the series id bound once and (warmup, iteration, value[, count])
 * per row, so that SQLite's per-statement work is paid at most seven times
 * per series. Values with counts (JMH's histogram bins) use the same
 * shapes with a count column. */
#define SAMPLE_SHAPES 7
#define SINK_DEFER_STEPS 6
/* The parameters of S_SERIES_VALUES: series' 11 columns, 6 of offsets
 * and lengths, 3 of values (series_call.c). */
#define SINK_PIPE_COLS 20

enum stmt_id {
    S_ARCHIVE_BY_SHA, S_ARCHIVE_INSERT, S_ARCHIVE_UPDATE, S_ARCHIVE_FORMAT, S_ARCHIVE_DELETE_EMPTY,
    S_PLAN_GET, S_PLAN_INSERT, S_HOST_GET, S_HOST_INSERT, S_VARIANT_GET, S_VARIANT_INSERT,
    S_BENCH_GET, S_BENCH_INSERT,
    S_RUN_FIND, S_RUN_APPENDED_BY, S_RUN_DELETE, S_RUN_INSERT, S_RUN_INSERT_NEW, S_RUN_ATTRS_SET, S_RUN_START_SET, S_RUN_SOURCE_SET,
    S_SERIES_INSERT, S_SERIES_FIND, S_SERIES_UNIT,
    S_GATE_INSERT, S_EVENT_INSERT, S_CHUNK_INSERT, S_MEMBER_INSERT, S_MEMBER_FORMAT,
    S_UNIT_KIND, S_UNIT_ADD,
    S_SERIES_VALUES,
    S_NAMES_AGAIN, S_ARCHIVE_OPEN, S_ARCHIVE_CLOSE, S_HISTORY_INSERT,
    /* The schema's ingest deferral, its texts the store's (store/dialect.h):
     * the mark, then up to SINK_DEFER_STEPS statements before the commit. */
    S_DEFER_MARK, S_DEFER_FINISH,
    S_SAMPLES = S_DEFER_FINISH + SINK_DEFER_STEPS, /* SAMPLE_SHAPES statements without counts, then SAMPLE_SHAPES with */
    S_COUNT = S_SAMPLES + 2 * SAMPLE_SHAPES
};

/* A name table with its cache: plan, host, variant. */
struct names {
    enum stmt_id get, insert;
    struct idmap cache;
};

struct sink {
    struct db *db;
    struct ingest_report *rep;
    struct db_stmt *st[S_COUNT];
    struct names plans, hosts, variants;
    struct idmap benchmarks; /* name NUL canonical-params -> id */
    /* On a server: the names (keys of the four caches above) the last
     * transaction used, looked up again in the next (names.c) when
     * look_again is set. */
    struct idmap again[4];
    int look_again;
    int replace;
    const char *conflict_hint;
    uint64_t max_series; /* per archive (--max-series) */

    /* the archive */
    int64_t archive_id, chunk_seq;
    /* Set when the archive was closed by one call with its derived rows
     * (the dialect's archive_close, sink_archive_end): sink_commit then
     * does not compute them again. */
    int finished;
    struct sink_counts here;
    int64_t *replaced; /* archives that lost a run to --replace */
    size_t n_replaced, cap_replaced;
    struct strbuf notices; /* printed after the commit: each ends with a NUL */
    char *xunits[256];     /* units beyond units.h seen in this archive */
    int n_xunits;

    /* the run */
    int64_t run_id;
    int appending;
    json_t *attrs; /* the run's attributes as stored (its own copies: no reference into a parsed line) */
    int start_given;   /* the run record (or the stored run) has started_at */
    double start_best; /* the earliest start a harness file gave (seconds), when start_set */
    int start_set;
    /* The run's series as (id, line) in insert order: a duplicate is caught
     * by the series table's UNIQUE key and named with the line of the first
     * from here: 16 bytes a series. */
    int64_t (*series_lines)[2];
    size_t n_series_lines, cap_series_lines;
    struct idmap cell_unit; /* benchmark, variant[, metric] -> line << 8 | unit index */
    /* The history points of the run, where the sink keeps them
     * (history.c): per point its sums so far, found by benchmark,
     * variant[, metric] -> index; their metrics' names (NUL-ended). */
    struct idmap point_ix;
    struct sink_point {
        int64_t benchmark_id, variant_id, series, n;
        double total;
        size_t metric_at; /* in point_metrics; SIZE_MAX: the primary metric */
        const char *unit; /* units.h's or the archive's (s->xunits, kept until it ends) */
    } *points;
    size_t n_points, cap_points;
    int64_t points_run; /* the run they are of */
    struct strbuf point_metrics;

    struct strbuf key, text; /* scratch */
    /* by_copy (db_can_copy: PostgreSQL): series and their values sent by
     * COPY (sink_copy_flush)
     * before the commit, before the next run, or when the values pass
     * SINK_COPY_BYTES together (nothing reads them before). copy: per
     * series its row of sample_values as COPY's binary fields after the
     * series id (its values, counts and warmups as arrays: no text to
     * format or parse; values.c, copy_series_values);
     * series_rows: the series of the runs this archive opens, as
     * rows without their id (run_id ... archive_id), which the sequence of
     * series.id gives when they are sent, in order (the ids SQLite gives);
     * pend: per series, its id (0: given when sent) and where its row and
     * values end; series_keys: the current run's series keys -> line, for
     * a series given twice. */
    struct strbuf copy, series_rows, sent;
    struct sink_pending { int64_t id; size_t row_end, copy_end; } *pend;
    size_t n_pend, cap_pend;
    struct idmap series_keys;
    int by_copy;
    /* by_copy: pending series at most this many (and their rows and
     * values at most SINK_PIPE_BYTES) go by one call in the pipeline
     * instead (series_call.c; $BENCHDB_TEST_PIPE_SERIES sets it). */
    size_t pipe_series;
    struct strbuf cols[SINK_PIPE_COLS]; /* that INSERT's arrays, as text */
};

extern const char sink_primary_metric[];


/* Statement texts (statements.c). */
extern const char *const sink_stmt_sql[S_SAMPLES];

/* A statement, prepared the first time it is needed (and kept for the
 * command); NULL with the error set. */
struct db_stmt *sink_stmt(struct sink *s, int id);
/* The connection's last error as the error ("the disk is full", "the
 * store is busy" said so); returns -1. */
int sink_fail_sql(struct sink *s);
/* Why a write failed with SQLITE_BUSY once the busy timeout passed: "the
 * store is busy: another process holds its write lock (waited 60 s;
 * $BENCHDB_BUSY_TIMEOUT raises it)". malloc'd. */
char *sink_busy_text(void);
/* Steps a statement whose row (if any) is not needed, and resets it: 0 or -1. */
int sink_step(struct sink *s, struct db_stmt *st);
/* The same for a statement whose failure can only be the store's (a
 * lock, the disk, the connection), not a row's: on a server it is sent
 * with the next statement that waits (db_step_later), which returns its
 * error. 0 or -1. */
int sink_step_later(struct sink *s, struct db_stmt *st);
/* Steps an INSERT ... RETURNING id, *id the new row's: 0 or -1. */
int sink_step_id(struct sink *s, struct db_stmt *st, int64_t *id);
void sink_bind_opt_text(struct db_stmt *st, int i, const char *t);
/* The archive id column of rows added to a run this archive did not open. */
void sink_bind_appender(struct sink *s, struct db_stmt *st, int i);
/* A column's text, malloc'd (NULL when NULL or out of memory). */
char *sink_column_dup(struct db_stmt *st, int i);
/* Ids of a plan, host or variant name, and of a cell, inserted when new
 * (names.c). */
int sink_name_id(struct sink *s, struct names *t, const char *name, int64_t *id);
int sink_benchmark_id(struct sink *s, const char *name, const char *params, int64_t *id);

#define SINK_COPY_BYTES ((size_t)4 << 20)
/* The pending series and values (a small archive's) sent by one INSERT
 * in the pipeline rather than COPY: at most this many series, and this
 * many bytes of their COPY rows. */
#define SINK_PIPE_SERIES 64
#define SINK_PIPE_BYTES ((size_t)64 << 10)
/* Writes field length 8 and v in network order at p (12 bytes). */
static inline void copy_int8(unsigned char *p, uint64_t v)
{
    p[0] = p[1] = p[2] = 0;
    p[3] = 8;
    for (int i = 0; i < 8; i++)
        p[4 + i] = (unsigned char)(v >> (56 - 8 * i));
}
/* Sends the pending series and values (by_copy): 0 or -1. */
int sink_copy_flush(struct sink *s);
/* Whether the pending series (need of them without an id) go by one call
 * (series_call.c): each new, at most s->pipe_series, their rows small. */
int sink_series_call_fits(const struct sink *s, size_t need);
/* Sends them so (S_SERIES_VALUES, in the pipeline), leaving them pending
 * for the caller to forget: 0 or -1 (reported). */
int sink_series_call(struct sink *s);
/* Room for one more element in the array *arr of n elements of size
 * elem (its capacity *cap doubled, from first): 0, or -1 with the error
 * (out of memory) reported. */
int sink_grow(struct sink *s, void *arr, size_t n, size_t *cap, size_t elem, size_t first);
/* Forgets the units this archive added (values.c). */
void sink_forget_units(struct sink *s);

/* History points (history.c), where the store leaves those of the runs
 * an ingest opens to it (store/dialect.h, history_insert): a series
 * stored in such a run added to its point (in the order stored; field
 * for a message); the run's points written (before the next run and at
 * the archive's end, sink_archive_end); forgotten (sink_archive_reset,
 * before an archive and after one that failed). 0 or -1 (reported). */
int sink_history_add(struct sink *s, const char *field, int64_t bench_id, int64_t variant_id, const char *metric,
                     const char *unit, int64_t n, double total);
int sink_history_flush(struct sink *s);
void sink_history_forget(struct sink *s);

/* The names kept from the last transaction (s->again) as the four
 * arrays of the look-up again, bound at first..first + 3 (NULL when
 * there is none to do), and the look-up marked done: 0 or -1 (reported,
 * the statement reset). names.c. */
int sink_names_again_bind(struct sink *s, struct db_stmt *st, int first);
/* A row (kind 0-3, id, name, params) of the look-up again into the
 * caches (other kinds left alone): 0 or -1 (out of memory, reported). */
int sink_names_again_row(struct sink *s, struct db_stmt *st);
/* The advisory lock key of an archive: the first 64 bits of its SHA-256. */
long long sink_archive_key(const char *sha);

/* Marks the archive's transaction in ingest_defer: run_cell_data is then
 * computed once per run by sink_commit, not by the per-row trigger. */
int sink_defer_cells(struct sink *s);

#endif
