#ifndef BENCHDB_STORE_DIALECT_H
#define BENCHDB_STORE_DIALECT_H
/* What differs between the two engines, kept in the connection layer
 * (docs/architecture.md, "The connection layer"): the few SQL fragments
 * that cannot be written once for both, and the calls whose work differs.
 * Code outside src/store asks for a fragment or makes the call; it does
 * not ask which engine it talks to. SQL both engines run is preferred
 * wherever it exists (docs/postgresql.md, "Saved queries on
 * PostgreSQL"). */
#include <stddef.h>

#include "store/db.h"

struct db_dialect {
    /* "SELECT ..." with ?1: 1 when the text is a time the engine reads
     * (an RFC 3339 date-time), 0 (never an error) when it is not. */
    const char *time_valid;
    /* "SELECT ..." with ?1 and ?2, two such times: 1 when the first is
     * the earlier (offsets applied, to the millisecond), else 0. */
    const char *time_precedes;
    /* What makes sum(total) add a block's series in fork order, as the
     * schema's triggers add them: "" on SQLite (its GROUP BY reads them
     * in the unique index's order), " ORDER BY fork" on PostgreSQL. */
    const char *in_fork_order;
    /* Appended to an ingest's look-up of a plan, host, variant or
     * benchmark id: "" on SQLite (its write transaction excludes every
     * other writer), " FOR KEY SHARE" on PostgreSQL, so that a row once
     * read stays until the commit: another process's delete (benchdb
     * delete removes a plan left without runs) waits for the transaction
     * instead of removing the row under it; ingests only share the lock. */
    const char *name_lock;
    /* The schema's ingest deferral (docs/schema.md, run_cell_data): the
     * statement that marks an ingest's transaction (?1: its archive's
     * id), then, before the commit, the statements (NULL-terminated, each
     * with ?1 the archive's id) that compute what the insert triggers
     * left to it, the last one clearing the mark. */
    const char *defer_mark;
    const char *const *defer_finish;
    /* Where the ingest itself keeps the history points of the runs it
     * opens (their insert trigger stands aside while the transaction is
     * marked, and the ingest adds a point's series up as it stores them,
     * in their order: src/ingest/sink/history.c), one point's row: ?1 its
     * run, ?2 benchmark, ?3 variant, ?4 metric, ?5 its series' count, ?6
     * their n, ?7 their totals' sum, ?8 the first one's unit, the run's
     * host, start and position read as the trigger reads them. NULL on
     * PostgreSQL, whose defer_finish computes them (its triggers stood
     * aside too). */
    const char *history_insert;
    /* A run r's start time as history_point_data keeps it (its triggers'
     * expression; on PostgreSQL the schema's history_started()), for
     * history_insert and for check's fresh points. */
    const char *history_started;
    /* An ingest's look-up again, in a transaction's first round trip, of
     * the names the last one used (src/ingest/sink/names.c), where each
     * look-up costs a round trip: NULL on SQLite; on PostgreSQL a query
     * of ?1 plans, ?2 hosts, ?3 variants and ?4 benchmarks (arrays of
     * names in PostgreSQL's text form, every element quoted; a
     * benchmark's every params) giving (0-3 for the table, id, name,
     * params), each row locked as name_lock locks it. */
    const char *names_again;
    /* An ingest's archive opened and closed by one call each (schema:
     * benchdb_archive_open(), benchdb_archive_close()), where each
     * statement costs the server a parse, a plan and a start: NULL on
     * SQLite. archive_open: ?1 the archive's lock key, ?2 its SHA-256, ?3
     * its name, ?4 its format, ?5 the time, ?6 benchdb's version, ?7-?10
     * names_again's arrays (NULL: none), giving first (-1, id, stored
     * name, 'stored' when stored: nothing written, else NULL), then
     * names_again's rows; archive_close:
     * ?1 the archive's id, ?2 its SHA-256, ?3 its size, ?4 its encoding,
     * ?5 its stored size, then the derived rows (instead of
     * defer_finish). */
    const char *archive_open;
    const char *archive_close;
    /* Whether an ingest looks an archive up before its transaction
     * begins: SQLite's BEGIN IMMEDIATE takes the store's one write lock,
     * which a stored archive then does not wait for; a server's BEGIN
     * takes nothing, and the look-up after the archive's lock, in the
     * transaction's first round trip, suffices. */
    int look_up_before_begin;
    /* Appended to an INSERT whose new row's id is wanted, which is then
     * stepped by db_step_insert_id: " RETURNING id" on PostgreSQL (the id
     * in the statement's own answer, no second round trip); "" on SQLite,
     * whose RETURNING goes through a temporary table per statement (about
     * twice a plain single-row INSERT's cost), the id read from the
     * connection instead. */
    const char *returning_id;
    /* Whether the store has roles and grants (the role benchdb_reader
     * that init and copy make, docs/postgresql.md): 1 on PostgreSQL; 0 on
     * SQLite, whose file's permissions are its only access control. */
    int has_roles;
};

const struct db_dialect *db_dialect(const struct db *db);

/* Begins a transaction that writes: SQLite's BEGIN IMMEDIATE (the
 * store's one write lock, taken now), PostgreSQL's BEGIN (READ COMMITTED:
 * what another writer committed while this one waited for a lock is seen
 * by the next statement). SQLITE_OK or an error code (db_errmsg). */
int db_begin_write(struct db *db);
/* The same, its answer (on PostgreSQL) read with the next statement's
 * (db_step_later): a writer's first round trip carries its BEGIN. */
int db_begin_write_later(struct db *db);
/* Inside a write transaction: a lock keyed by key, held to its end, for
 * writers that would otherwise run side by side (PostgreSQL's advisory
 * lock); nothing on SQLite, whose write transaction excludes every other
 * writer already. SQLITE_OK or an error code; on PostgreSQL taken with
 * the next statement (db_step_later), which waits for it, and a failure
 * to take it (lock_timeout, no grant) is that statement's error. */
int db_lock_key(struct db *db, long long key);
/* Settings for a long run of inserts: SQLite's synchronous = NORMAL (WAL
 * keeps every commit atomic; a power cut may lose the last commits, never
 * half of one) and an 8 MiB page cache; nothing on PostgreSQL. */
int db_tune_for_writing(struct db *db);
/* Steps an INSERT written with returning_id (ON CONFLICT DO NOTHING
 * allowed): SQLITE_ROW with *id the new row's id, SQLITE_DONE (*id 0)
 * when it inserted no row, or an error code; the caller resets it. On
 * SQLite the id is sqlite3_last_insert_rowid (a trigger's own inserts
 * leave it as the statement set it) and no row is sqlite3_changes() == 0
 * (which counts the statement's own rows, not its triggers'). */
int db_step_insert_id(struct db_stmt *st, sqlite3_int64 *id);
/* Whether rows may be sent by COPY (db_copy_in): on PostgreSQL, where a
 * statement per row costs a round trip. */
int db_can_copy(const struct db *db);
/* The file the store is (NULL: a store on a server, or in memory). */
const char *db_filename(const struct db *db);
/* The errno of the last failed system call under db's last error (a
 * full disk: ENOSPC), 0 when none or unknown. */
int db_system_errno(const struct db *db);
/* The most bytes one text value may hold. */
size_t db_max_value_bytes(const struct db *db);

#endif
