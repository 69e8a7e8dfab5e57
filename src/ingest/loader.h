#ifndef BENCHDB_INGEST_LOADER_H
#define BENCHDB_INGEST_LOADER_H
/* Inside the loader: the state shared by loader.c (archives, transactions,
 * idempotence) and records.c (validating and inserting records). */
#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>

#include "ingest/idmap.h"
#include "ingest/ingest.h"
#include "ingest/pipeline.h"
#include "util/strbuf.h"

enum stmt_id {
    S_ARCHIVE_BY_SHA, S_ARCHIVE_INSERT, S_ARCHIVE_UPDATE, S_ARCHIVE_DELETE_EMPTY,
    S_PLAN_GET, S_PLAN_INSERT, S_HOST_GET, S_HOST_INSERT, S_VARIANT_GET, S_VARIANT_INSERT,
    S_BENCH_GET, S_BENCH_INSERT,
    S_RUN_FIND, S_RUN_DELETE, S_RUN_INSERT, S_SERIES_INSERT, S_SAMPLE_INSERT, S_SAMPLE_INSERT_8, S_SAMPLE_INSERT_64,
    S_GATE_INSERT, S_EVENT_INSERT, S_CHUNK_INSERT, S_COUNT
};

/* Values are inserted by statements of 64, 8 and 1 rows, the largest that
 * fits first: "VALUES (?1, ?2, ?3, ?4), (?1, ?2, ?3 + 1, ?5), ...", so that
 * a series' values cost one bind each and SQLite's per-statement work
 * (step, halt, reset) is paid once per 64 of them. */
#define SAMPLE_SHAPES 3

/* A name table with its cache: plan, host, variant. */
struct names {
    enum stmt_id get, insert;
    struct idmap cache;
};

struct ingester {
    sqlite3 *db;
    struct ingest_options opt;
    struct ingest_hooks hooks;
    sqlite3_stmt *st[S_COUNT];
    struct names plans, hosts, variants;
    struct idmap benchmarks; /* name NUL canonical-params -> id */
    struct ingest_totals totals;

    /* The archive being loaded. */
    const char *shown;   /* its name in messages */
    struct pipeline pipe;
    int pipe_started;
    int64_t chunk_seq;
    int64_t archive_id;
    char *err;           /* "field: what" of the first error */
    uint64_t err_line;   /* the line it belongs to, or 0 */
    struct idmap warned; /* "record.key" already warned about */
    struct idmap runs_seen; /* plan NUL run -> line */
    struct strbuf notices;  /* printed after the commit */
    int64_t *replaced;      /* archives that lost a run to --replace */
    size_t n_replaced, cap_replaced;
    struct ingest_totals here; /* this archive's counts */
    uint64_t line;
    int reader_failed; /* the error came from reading, not from a record */

    /* The run being loaded. */
    int64_t run_id;
    struct idmap series_seen; /* benchmark, block, variant, fork -> line */
    struct idmap cell_unit;   /* benchmark, variant -> line << 8 | unit index */

    struct strbuf key, text; /* scratch */
};

/* Sets the error ("field: what", at the current line); returns -1. */
int ingest_fail(struct ingester *g, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The connection's last error as the error; returns -1. */
int ingest_fail_sql(struct ingester *g);
/* Steps a statement that returns no row needed, and resets it: 0 or -1. */
int ingest_step(struct ingester *g, sqlite3_stmt *st);
/* Lets the command clear its progress line before a message. */
void ingest_before_message(struct ingester *g);

/* Validates one parsed line as a record of the current run and inserts it
 * (records.c): 0, or -1 with the error set. */
int ingest_record(struct ingester *g, json_t *rec);
/* Empties the id caches (after a rollback). */
void ingest_forget_ids(struct ingester *g);

#endif
