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
    S_RUN_FIND, S_RUN_DELETE, S_RUN_INSERT, S_SERIES_INSERT, S_SERIES_FIND,
    S_SAMPLE_ROWS_1, S_SAMPLE_ROWS_2, S_SAMPLE_ROWS_4, S_SAMPLE_ROWS_8, S_SAMPLE_ROWS_16, S_SAMPLE_ROWS_32,
    S_SAMPLE_ROWS_64,
    S_GATE_INSERT, S_EVENT_INSERT, S_CHUNK_INSERT,
    /* harness formats and containers (formats.c, container.c) */
    S_UNIT_KIND, S_UNIT_ADD, S_SAMPLE_INSERT_COUNT, S_MEMBER_INSERT, S_RUN_ATTRS_GET, S_RUN_ATTRS_SET,
    S_ARCHIVE_SET_FORMAT, S_COUNT
};

/* A series' values and warmups are inserted together by statements of
 * 64, 32, 16, 8, 4, 2 and 1 rows, the largest that fits first (the binary
 * digits of their count): "VALUES (?1, ?2, ?3, ?4), (?1, ?5, ?6, ?7), ..."
 * with the series id bound once and (warmup, iteration, value) per row, so
 * that SQLite's per-statement work (step, halt, reset) is paid at most
 * seven times per series: once for the 8 values of a series of 5 values
 * and 3 warmups, 9 times with one row per statement. */
#define SAMPLE_SHAPES 7
#define SAMPLE_SHAPE_MAX 64

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
    struct pipeline *pipe; /* one of pipes: the other may read ahead */
    int pipe_started;
    struct pipeline pipes[2];
    /* The archive after this one (ingester_next), once its reading began
     * on the other pipeline (next_started): its path and descriptor. */
    char *next_path;
    int next_fd, next_started;
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
    /* The run's series as (id, line) in insert order: a duplicate is caught
     * by the series table's UNIQUE key and named with the line of the first
     * from here: 16 bytes a series, where a map of the keys took about 100
     * and grew an ingest's peak memory with its archive. */
    int64_t (*series_lines)[2];
    size_t n_series_lines, cap_series_lines;
    struct idmap cell_unit;   /* benchmark, variant -> line << 8 | unit index */

    struct strbuf key, text; /* scratch */

    /* Harness formats and containers. */
    int64_t member_id;  /* the archive_member the current values come from, or 0 */
    char *xunits[256];  /* units beyond format_units seen in this archive */
    int n_xunits;
    struct idmap members;     /* path -> archive_member id, for this archive */
    char *err_member;         /* the container member an error belongs to, or NULL */
    /* While a container's run stream is read (container.c): its members.
     * Returns 1 with the bytes (valid during the archive), 0 when there is
     * no such member, -1 with the error set. */
    int (*member_get)(void *arg, const char *path, const unsigned char **buf, size_t *len, int64_t *member_id);
    void *member_arg;
    const char *stream_dir;   /* the run stream member's directory ("" at the top) */
    /* --format FORMAT on a bare file (results.c) */
    const void *foreign;      /* const struct fmt_adapter *, or NULL */
    json_t *foreign_run;      /* the run record built from the command line */
    long long foreign_block;
    const char *foreign_variant;
};

/* One series as a harness adapter gives it (formats.c): validated and
 * inserted as a samples record would be. */
struct series_spec {
    const char *benchmark;
    const char *params;  /* canonical JSON ("{}" when none) */
    long long block, fork;
    const char *variant;
    const char *metric;  /* NULL or "primary": the primary metric */
    const char *unit;
    const char *detail;  /* canonical JSON or NULL */
    const char *field;   /* where the values are, for messages: FIELD[i] */
};
/* count may be NULL (every count 1). Returns 0, or -1 with the error set. */
int ingest_series(struct ingester *g, const struct series_spec *s, const double *values, const int64_t *count,
                  size_t n, const double *warmup, size_t n_warmup);
/* An event of the current run; value and detail (canonical JSON) may be NULL. */
int ingest_event(struct ingester *g, const char *name, const char *value, const char *detail);
/* Adds attrs' keys that the current run does not have to its attributes
 * (scalars as they are, arrays and objects as their canonical text). */
int ingest_run_attributes(struct ingester *g, json_t *attrs);
/* Forgets the units added for the archive. */
void ingest_forget_units(struct ingester *g);

/* The field checks of records.c, for results.c: see get_name, get_int. */
int ingest_get_name(struct ingester *g, json_t *obj, const char *rec, const char *key, int required, const char **out);
int ingest_get_int(struct ingester *g, json_t *obj, const char *rec, const char *key, int required, long long min,
                   long long *out, int *present);
int ingest_wrong(struct ingester *g, const char *rec, const char *key, const char *expected, const json_t *v);

/* A results record (results.c): a harness file's values as samples of
 * the current run. */
int ingest_results_record(struct ingester *g, json_t *rec);
/* Joins dir (NULL or "" for none) and a relative path, resolving "." and
 * ".." lexically, into out: 0, or -1 for an absolute path or one that
 * climbs above dir's top. */
int ingest_join_path(const char *dir, const char *path, struct strbuf *out);
/* Inserts the archive row of the archive being loaded (format as given). */
int ingest_archive_row(struct ingester *g, const char *path, const char *sha, const char *format);
/* Sets the archive row's hash, size and stored bytes and deletes archives
 * left without runs by --replace; checks that the archive holds a run. */
int ingest_archive_done(struct ingester *g, const char *sha, uint64_t size, int compressed, uint64_t stored);
/* Inserts one stored piece of the archive's bytes. */
int ingest_chunk(struct ingester *g, const unsigned char *buf, size_t len);
/* Bodies of ingester_archive inside its transaction for a bare harness
 * file (results.c) and a tar or zip container (container.c): 0 or -1. */
int load_foreign(struct ingester *g, int fd, const char *path, const char *sha, uint64_t size);
int load_container(struct ingester *g, int fd, const char *path, const char *sha, uint64_t size);
/* True when the file on fd is a tar (plain or gzip, zstd, xz, bzip2
 * compressed) or zip, judged by its first bytes; fd's offset is kept. */
int container_sniff(int fd);

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
