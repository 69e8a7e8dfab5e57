#ifndef BENCHDB_INGEST_SINK_SINK_H
#define BENCHDB_INGEST_SINK_SINK_H
/* The sink: everything ingest writes to the store goes through here. It
 * owns every prepared statement (prepared once per command), the id
 * caches of plans, hosts, variants and cells (forgotten when the
 * transaction that read them ends),
 * and the one path that inserts a series and its values. Decoders call it
 * with validated values; it checks what needs the store (a run already
 * stored, a series twice in a run, a cell's unit) and refuses with a
 * message through the session's report. docs/architecture.md. */
#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>

#include "ingest/core/report.h"
#include "store/db.h"

/* What one archive wrote. */
struct sink_counts {
    uint64_t runs;     /* runs opened */
    uint64_t appended; /* stored runs added to (--append) */
    uint64_t series, samples, gates, events, members;
    uint64_t warmups; /* of the samples, warmup values */
    uint64_t rows; /* every row written */
};

struct sink;

/* Prepares the statements on a store opened for writing. NULL with *err. */
struct sink *sink_open(struct db *db, struct ingest_report *rep, char **err);
void sink_close(struct sink *s);

/* ---- transactions and archives ---- */

int sink_begin(struct sink *s);  /* BEGIN IMMEDIATE */
int sink_commit(struct sink *s); /* the archive's run_cell_data rows (once), then COMMIT; forgets the cached ids */
/* Inside the transaction, before looking the archive up: on PostgreSQL
 * waits for another ingest storing the archive with this SHA-256 to end
 * (pg_advisory_xact_lock), so that one stores it and the other skips it;
 * on SQLite nothing (BEGIN IMMEDIATE holds the one write lock). */
int sink_lock_archive(struct sink *s, const char *sha);
void sink_rollback(struct sink *s); /* ROLLBACK; forgets the cached ids, which may name rows it removed */

/* Options for the archives to come: replace runs stored by other
 * archives (--replace); the hint a refused run conflict ends with. */
void sink_set_replace(struct sink *s, int replace);
/* The most series one archive may add (--max-series); beyond, refused. */
void sink_set_max_series(struct sink *s, uint64_t max);
void sink_set_conflict_hint(struct sink *s, const char *hint);

/* An archive with this SHA-256: 1 (with its id and malloc'd name), 0 when
 * none, -1 with the error set. */
int sink_find_archive(struct sink *s, const char *sha, int64_t *id, char **name);
/* Where the store opens an archive by one call (PostgreSQL: its lock,
 * its look-up, its row and the transaction's mark; store/dialect.h,
 * archive_open), does so in the open transaction: 1 when it is stored
 * (*id, *name that one's, malloc'd), 0 when its row was inserted (then
 * sink_archive_begin keeps it), -1 on an error; 2 where the store has no
 * such call (sink_lock_archive and sink_find_archive do it). */
int sink_archive_open(struct sink *s, const char *sha, const char *name, const char *format, int64_t *id,
                      char **stored_name);
/* Starts an archive's row (sha NULL: not known yet, set by sink_archive_end). */
int sink_archive_begin(struct sink *s, const char *name, const char *sha, const char *format);
int sink_archive_format(struct sink *s, const char *format);
/* One stored piece of the archive's bytes, in order. */
int sink_chunk(struct sink *s, const unsigned char *p, size_t n);
/* A member of the archive (a container's file, or a file a results
 * record read); *id is its row. */
int sink_member(struct sink *s, const char *path, const char *sha, uint64_t size, int64_t *id);
/* What a member was loaded as (benchdb-run/1, jmh, ...). */
int sink_member_format(struct sink *s, int64_t member_id, const char *format);
/* Completes the archive's row; refuses an archive that opened no run and
 * added to none; deletes archives --replace left without anything. */
int sink_archive_end(struct sink *s, const char *sha, uint64_t size, int compressed, uint64_t stored);
const struct sink_counts *sink_counts(const struct sink *s);
/* Rows written so far by the archive being loaded (for progress). */
uint64_t sink_rows(const struct sink *s);
/* Clears the state of one archive (after it ended either way). */
void sink_archive_reset(struct sink *s);

/* ---- runs ---- */

struct sink_run {
    const char *plan, *name, *host;
    long long position; /* 0: none */
    const char *source, *started_at, *ended_at, *treatment, *baseline;
    json_t *attributes;     /* an object of scalars, or NULL */
    int append;             /* add to the stored run instead of opening one */
};

/* Opens the run that the records after it belong to: a new run, or with
 * append the stored run (whose host and given fields must agree). A run
 * already stored is refused, or with --replace deleted first (what the
 * archive that stored it wrote into it; refused when other archives added
 * to it). */
int sink_run(struct sink *s, const struct sink_run *r);
/* True while the current run is one appended to. */
int sink_appending(const struct sink *s);
/* Adds attrs' keys that the current run does not have to its attributes
 * (scalars as they are, arrays and objects as their canonical text). */
int sink_run_attributes(struct sink *s, json_t *attrs);
/* Sets the current run's start time (RFC 3339) when it has none, or when
 * t is earlier than the one a harness file gave before in this archive. */
int sink_run_started_at(struct sink *s, const char *t);
/* Sets the current run's source (the measured revision) when it has none
 * (neither the command line, the run record nor an earlier file gave
 * one); a run appended to keeps its own. */
int sink_run_source(struct sink *s, const char *rev);
/* The current run's started_at as stored before this archive (malloc'd
 * or NULL): whether the command line or the run record gave one. */
int sink_run_has_start(const struct sink *s);

/* ---- values ---- */

struct sink_series {
    const char *benchmark;
    const char *params; /* canonical JSON, "{}" when none */
    long long block, fork;
    const char *variant;
    const char *metric; /* NULL or "primary": the primary metric */
    const char *unit;   /* a primary metric's unit is one of units.h's primary units (the caller checked) */
    const char *detail; /* canonical JSON or NULL */
    const char *field;  /* where the values are, for messages ("samples" for a samples record) */
    int64_t member_id;  /* the archive_member they came from, or 0 */
};

/* A series of the current run and its values (and warmups, iteration
 * from 1 each). count may be NULL (every count 1). Checked here: the
 * cell's unit within the run, the series once per run, a total that a
 * double holds. */
int sink_series(struct sink *s, const struct sink_series *x, const double *v, const int64_t *count, size_t n,
                const double *warmup, size_t n_warmup);

struct sink_value {
    enum { SV_NULL, SV_TEXT, SV_INT, SV_REAL } type;
    const char *text;
    size_t len;
    long long i;
    double d;
};

int sink_gate(struct sink *s, const char *name, int passed, const char *at, const char *detail);
int sink_event(struct sink *s, const char *name, const struct sink_value *value, const char *at, const char *detail);

#endif
