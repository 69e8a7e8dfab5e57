#ifndef BENCHDB_STORE_H
#define BENCHDB_STORE_H
#include <sqlite3.h>
#include <stdio.h>
#include <time.h>

#include "store/db.h"

/* How a command opens the store. A store is a regular file holding
 * benchdb's schema: a missing file, a directory, a device or a FIFO is
 * refused in every mode, and an empty file (no tables) is a store only to
 * STORE_CREATE (which makes it one) and STORE_INSPECT (version 0). */
enum store_mode {
    STORE_READ,     /* must exist and be current; opened read-only, query_only, guarded */
    STORE_WRITE,    /* must exist; pending migrations are applied first */
    STORE_CREATE,   /* created when missing or empty; pending migrations are applied */
    STORE_INSPECT,  /* must exist; read-only, any schema version not newer than ours */
    STORE_MIGRATE,  /* must exist; read-write, pending migrations left to the caller */
    STORE_CHECK,    /* as STORE_READ, but a damaged store is opened too (benchdb check) */
};

/* Opens the store at path in the given mode: WAL journal, foreign keys on,
 * SQLITE_DBCONFIG_DEFENSIVE on, extension loading off, busy timeout set, and
 * benchdb's SQL functions registered. Refuses a store whose schema is newer
 * than this binary, a file that is not a benchdb store, a damaged store
 * (named as such, with what to do), and (in STORE_READ mode) a store with
 * pending migrations. On failure returns -1 with a malloc'd message in
 * *err and *out NULL.
 *
 * Read-only modes read wherever the file can be read: a hot journal or a
 * write-ahead log needing recovery (left by a killed process) is first
 * recovered by a brief read-write open, or the message says what to run;
 * where SQLite cannot create the store's -shm file (a read-only directory
 * or file system, a full disk) and no -wal holds changes, the file is read
 * as immutable (no locks). Write modes refuse a store that cannot be
 * written there, naming why and the commands that still read it. */
int store_open(const char *path, enum store_mode mode, sqlite3 **out, char **err);
void store_close(sqlite3 *db);

/* A store in memory with benchdb's schema and functions (what `compare`
 * loads files into), read-write; it goes with db_close. */
int store_open_memory(struct db **out, char **err);

/* ---- a store on either engine (store_pg.c) ---- */

/* Opens the store named name in the given mode through the connection
 * layer: an SQLite file by store_open, or (a postgresql:// URI) a
 * database on a PostgreSQL server. There the read-only modes make every
 * transaction of the session read-only, STORE_CREATE installs the
 * extension benchstats when it is missing (or says why it cannot), and
 * the write modes apply pending migrations of migrations/postgresql; a
 * schema newer than this binary's is refused in every mode. On failure
 * returns -1 with a malloc'd message in *err and *out NULL, naming the
 * store (a file as SQLite's messages do; a server's name first, its
 * password masked). */
int store_connect(const char *name, enum store_mode mode, struct db **out, char **err);
/* Whether db is a PostgreSQL hot standby (in recovery), where a command
 * that writes is refused as it connects; 0 for SQLite. */
int store_is_standby(struct db *db);
/* Whether this session may add rows to the store, asked before a command
 * that exists to write (ingest) reads anything: 0 when it may (always on
 * SQLite, whose file the connection checked), else -1 with *err saying
 * who may, as a refused write is said: "the role ana may only read this
 * store (a member of benchdb_reader); it is written by the role ci, which
 * owns its tables: connect as ci or a member of it". Otherwise a member
 * of benchdb_reader met PostgreSQL's "permission denied for function
 * pg_advisory_xact_lock" (the first thing an ingest asks); and so did a
 * role granted its writes after init, which lacks that lock: said so,
 * with the remedy. */
int store_may_write(struct db *db, char **err);
/* The same question for another command that exists to change the store
 * (may_write.c): whether the session holds privilege ("DELETE") on table
 * ("plan"), or with table NULL INSERT, UPDATE or DELETE on any of the
 * store's tables (sql --write). 0 when it does (always on SQLite), else
 * -1 with *err said as store_may_write says it ("the role ana may only
 * read this store (a member of benchdb_reader); it is written by ..."; a
 * role that is no reader: "the role ana may not write this store (it has
 * no DELETE on its table plan); it is written by ..."). Before, each such
 * command met the server's "permission denied for table plan" (delete),
 * "... for table rule" (rule register), said differently by each. */
int store_may_change(struct db *db, const char *privilege, const char *table, char **err);
/* Before the migrations from version from (> 0) to to are applied: 0 when
 * the session may apply them (it owns the store's tables, through a role
 * it is a member of, or is a superuser; always on SQLite), else -1 with
 * *err saying who may and what to run ("the store's schema is at version
 * 15 and needs migrations up to 16, which the role ana may not apply: it
 * may only read this store (a member of benchdb_reader); the role ci owns
 * its tables: connect as ci or a member of it and run 'benchdb migrate'"),
 * instead of "migration 0016_x.sql failed: permission denied for schema
 * public" on a write, or "run 'benchdb migrate'" to a role that cannot. */
int store_may_migrate(struct db *db, int from, int to, char **err);
/* Whether the session acts as the owner of the store's tables (a member
 * of the role, or a superuser), which what needing names takes ("a copy
 * into it": copy sets their foreign keys aside): 0 (always on SQLite),
 * else -1 with *err as store_may_change says it for a reader, or "the role
 * late does not own this store's tables, which NEEDING takes; the role ci
 * owns them: connect as ci or a member of it". */
int store_may_own(struct db *db, const char *needing, char **err);
/* After a write that may have grown the store's tables much (an ingest, a
 * copy): on PostgreSQL, ANALYZE (SKIP_LOCKED) of the store's tables (those
 * of the current schema this role may analyze) whose rows changed since
 * their last analysis by more than autovacuum_analyze_scale_factor x the
 * rows each had then (a table never analyzed: any changed row), which is
 * autovacuum's rule without its fixed threshold of 50 rows, so that the
 * small tables (plan, host, variant) have statistics too: until then the
 * server plans from what the tables held before, or from a guess (a gate
 * run right after an ingest took 2.1 s instead of 0.24 s,
 * docs/postgresql.md). Nothing on SQLite, which plans without statistics.
 * Outside a transaction. How many tables were analyzed, or -1 with *err. */
int store_refresh_statistics(struct db *db, char **err);
/* ---- migrations, on either engine (migrations.c) ----
 * Versions are the same on both engines: version v is the schema
 * migrations/NNNN_name.sql (NNNN = v) gives on SQLite. On PostgreSQL
 * migrations/postgresql/NNNN_baseline.sql makes a new store at version
 * NNNN at once, recording versions 1 to NNNN, and each later file (named
 * as SQLite's) one version more (docs/schema.md, "Changing the schema").
 * The highest version this binary knows for db's engine, and the engine's
 * text that makes version v (PostgreSQL's baseline for every version up to
 * its own); NULL out of range. */
int store_migrations_known(struct db *db);
const char *store_migration_text(struct db *db, int v);
/* Version v's name, one on both engines: SQLite's file name
 * (NNNN_name.sql), which PostgreSQL's later files share and under which its
 * baseline records each version it makes (tests/pg/test_schema.sh holds
 * them to it); NULL out of range (migrate.c). */
const char *store_migration_name(int v);
/* The store's version: 0 for none, -1 with *err. */
int store_version(struct db *db, char **err);
/* The note a command that writes prints when opening the store migrated
 * it: a benchdb older than this one no longer opens it (a team sharing
 * a store learns it from the command that did it). */
void store_note_migrated(const char *name, int from, int to);
int store_pg_version(struct db *db, char **err);
/* Applies the pending migrations up to version target (all with target <
 * 0), each step in its own transaction that takes the lock, re-reads the
 * version, applies and records: how many versions the store went up, or
 * -1 with *err. An empty SQLite store taken to the latest version is made
 * in one step, from what the migrations leave (docs/schema.md, "How a new
 * store is made"); store_replay_migrations applies the files one by one
 * even then (the test that the two make the same store). */
int store_apply_migrations(struct db *db, int target, char **err);
int store_replay_migrations(struct db *db, int target, char **err);

/* What to do about a damaged store, after "the store is damaged (...)": for
 * every message that meets SQLITE_CORRUPT. */
#define STORE_DAMAGED_ADVICE                                                                                    \
    "'benchdb check' shows what is damaged; restore the file from a backup, or ingest the archives again into a " \
    "new store"

/* Installs (on = 1) or removes the read-only guard: an authorizer that
 * refuses writes, schema changes, ATTACH/DETACH, transaction control, every
 * PRAGMA but those known only to read (guard.c lists them; names compared
 * without regard to case), and load_extension. STORE_READ and STORE_CHECK
 * opens install it. Prepared statements are checked when prepared, so a
 * statement prepared under the guard stays guarded. */
void store_guard_readonly(sqlite3 *db, int on);
/* The guard, also reporting to reads->read(reads->arg, NAME) every table
 * and view a statement reads, as SQLite's authorizer names them while the
 * statement is prepared (a view, and each table or view under it; a name
 * may come more than once). reads must outlive the guard: until
 * store_guard_readonly(db, 0) or another call replaces it. */
struct store_guard_reads {
    void (*read)(void *arg, const char *name);
    void *arg;
};
void store_guard_readonly_reporting(sqlite3 *db, const struct store_guard_reads *reads);
/* After a statement failed with SQLITE_AUTH: why the guard refused it when
 * SQLite's message does not say ("PRAGMA optimize is not one of the
 * PRAGMAs that only read", "transaction control (BEGIN) is refused"),
 * else NULL. */
const char *store_guard_refusal(void);
/* Records why a statement was refused, for store_guard_refusal (the
 * PostgreSQL guard's refusals, pg_guard.c). */
void store_guard_set_refusal(const char *msg);

/* ---- read-only work, on either engine (readonly.c) ----
 * Every reader (sql without --write, saved queries and their needs,
 * history --verify, check) runs its statements between these two calls.
 * SQLite: the guard (the authorizer above) is installed, reporting the
 * names each statement reads to reads when reads is not NULL; at the end
 * it stays on a connection opened read-only and is removed from one that
 * writes. PostgreSQL: one REPEATABLE READ, READ ONLY transaction (one
 * snapshot) under the statement guard (pg_guard.c: only statements that
 * read, one per protocol message), with STORE_RO_UNTRUSTED (SQL from
 * outside benchdb) run as the role benchdb_reader where the session may
 * become it; the end rolls it back, settings included. SQLITE_OK, or an
 * error code with db_errmsg saying why: the caller must not run the SQL
 * then. */
#define STORE_RO_UNTRUSTED 1u
int store_begin_readonly(struct db *db, unsigned flags, const struct store_guard_reads *reads);
int store_end_readonly(struct db *db);

/* A time limit for statements run on db (--timeout): once the deadline
 * passes, the running statement fails with SQLITE_INTERRUPT and fired is
 * set. d must outlive the statements; seconds > 0, at most
 * STORE_TIMEOUT_MAX (a larger value is taken as that). */
struct store_deadline {
    struct timespec end;
    double seconds;
    int fired;
};
void store_set_timeout(sqlite3 *db, struct store_deadline *d, double seconds);
/* Removes the time limit (statements after this run to their end). */
void store_clear_timeout(sqlite3 *db);
/* The same on either engine (readonly.c): SQLite's progress handler, or
 * PostgreSQL's statement_timeout (for the session, or the rest of the open
 * transaction). Start returns SQLITE_OK or an error code (db_errmsg).
 * Passed: whether a statement stopped at the limit (d fired on SQLite,
 * the server's statement timeout on PostgreSQL). */
int store_deadline_start(struct db *db, struct store_deadline *d, double seconds);
void store_deadline_clear(struct db *db);
int store_deadline_passed(struct db *db, const struct store_deadline *d);

/* ---- limits on a query's disk and memory (query_limits.c) ----
 * For the commands running SQL for a person (--max-temp-bytes,
 * --max-memory), on SQLite; for the whole process, so that ingest, copy,
 * check and migrate, which never set them, are not limited. temp_bytes:
 * the disk SQLite's temporary files (sorters, temporary b-trees and
 * materialized views, statement journals) may take at once; a write past
 * it fails with SQLITE_FULL. heap_bytes: the memory SQLite's allocator
 * (benchdb's SQL functions' buffers included) may hold, once
 * store_heap_counting is installed; an allocation past it fails with
 * SQLITE_NOMEM. 0: no limit. Setting them forgets a limit passed. */
void store_query_limits(long long temp_bytes, long long heap_bytes);
/* Whether those two limits bound a query on db: 1 on SQLite, 0 on
 * PostgreSQL, where the server does the work under its own settings
 * (work_mem, temp_file_limit; docs/postgresql.md, "Disk and memory"). */
int store_query_limits_apply(const struct db *db);
/* SQLite's allocator wrapped so that the memory it holds is counted
 * (heap_limit.c): before SQLite's first use (main, for the commands
 * taking --max-memory). 0, or -1 when SQLite refused it. */
int store_heap_counting(void);
/* After a statement failed: STORE_OVER_TEMP when a temporary file's write
 * passed the disk limit, STORE_OVER_MEMORY when an allocation passed the
 * memory limit (since the limits were set), else 0. */
#define STORE_OVER_TEMP 1
#define STORE_OVER_MEMORY 2
int store_query_limit_passed(void);

/* The longest time limit and busy timeout: a week, in seconds. */
#define STORE_TIMEOUT_MAX 604800.0

/* Busy timeout: how long a writer waits for another process's write lock
 * before failing with "database is locked". */
#define STORE_BUSY_TIMEOUT_MS 60000
/* The busy timeout store_open sets, in milliseconds: $BENCHDB_BUSY_TIMEOUT
 * seconds (0 to STORE_TIMEOUT_MAX, fractions allowed) when set, else
 * STORE_BUSY_TIMEOUT_MS. -1 with *err (if err is not NULL) for a bad
 * value, which store_open refuses. */
int store_busy_timeout_ms(char **err);
/* Why a write failed with SQLITE_BUSY, for a person: "another process held
 * the store's write lock for longer than the busy timeout (60 s)".
 * malloc'd. */
char *store_busy_text(void);

/* ---- migrations (migrate.c) ---- */

/* The migrations compiled into this binary, numbered 1..count in order. */
int migrations_count(void);
/* The text of migration i (1-based, its name store_migration_name(i));
 * NULL when out of range. */
const char *migration_text(int i);

/* Highest migration applied to the store (0 for an empty file), or -1 with
 * *err set when the file holds tables but is not a benchdb store, or is a
 * damaged one ("the store is damaged (...)"): SQLite finds it malformed, or
 * its schema_migration rows are not the versions 1..N. */
int store_schema_version(sqlite3 *db, char **err);
/* What the file holds, for the callers that treat each case apart;
 * *version as store_schema_version gives it, *err set but for the first
 * two. */
enum store_schema {
    SCHEMA_STORE,      /* a benchdb store at *version >= 1 */
    SCHEMA_EMPTY,      /* no tables at all (an empty file): *version 0 */
    SCHEMA_FOREIGN,    /* not an SQLite database, or someone else's */
    SCHEMA_DAMAGED,    /* "the store is damaged (...)" */
    SCHEMA_UNREADABLE, /* any other failure to read (busy, I/O) */
};
enum store_schema store_schema_state(sqlite3 *db, int *version, char **err);
/* store_apply_migrations on an open SQLite connection (benchdb's SQL
 * functions registered on it first: migrations compute derived rows). */
int store_migrate(sqlite3 *db, int target, char **err);
/* The same with store_replay_migrations. */
int store_migrate_replay(sqlite3 *db, int target, char **err);
/* For each applied migration whose recorded SHA-256 differs from the text
 * in this binary, calls report(number, name); returns how many differ. */
int store_check_migration_hashes(sqlite3 *db, void (*report)(int, const char *, void *), void *arg);

/* A canonical text description of the schema (every table, index, view and
 * trigger, with its SQL normalised: comments dropped, whitespace collapsed),
 * excluding SQLite's internal tables and schema_migration. malloc'd. */
char *store_schema_describe(sqlite3 *db, char **err);
/* Normalises one SQL text the way store_schema_describe does. malloc'd. */
char *sql_normalize(const char *sql);

/* ---- checks for 'benchdb check' (check_*.c), on either engine ----
 * Each prints one "check: ..." line to out and one error line per problem
 * on stderr, adds the problems to *problems, and returns 0, or -1 when the
 * store could not be read. */

/* The schema version and its schema_migration rows (versions 1..N). */
int store_check_schema(struct db *db, FILE *out, int *problems);
/* Every JSON column (each column the schema declares with json_valid in a
 * CHECK constraint; on PostgreSQL a json column, valid by its type, or a
 * text one checked by benchdb_json_valid) holds valid JSON in every row; a
 * bad value is named by table, id and column. */
int store_check_json(struct db *db, FILE *out, int *problems);
/* ---- summaries (check_summaries.c) ----
 * What benchdb keeps beside the values it summarises, so that a query on
 * one plan reads a few rows instead of aggregating the store; a direct
 * write can leave one stale, and a query reading it then says what the
 * values do not (docs/reliability.md, "Summaries"). Each is compared with a
 * fresh computation from what it summarises:
 *   SUMMARY_SERIES          series.n and series.total: the measured values
 *                           in sample (compensated sum, relative 1e-12)
 *   SUMMARY_BLOCK_SCORES    block_score_data: the series, exactly
 *   SUMMARY_RUN_CELLS       run_cell_data: the block ratios, exactly
 *   SUMMARY_HISTORY_POINTS  history_point_data: the series (totals within
 *                           rounding: a deleted series is subtracted) */
enum store_summary { SUMMARY_SERIES, SUMMARY_BLOCK_SCORES, SUMMARY_RUN_CELLS, SUMMARY_HISTORY_POINTS, SUMMARY_COUNT };
struct summary_state {
    long long rows, bad; /* the summary's rows; how many differ (rows missing or extra count too) */
    char first[256];     /* the first that differs, in words ("series 3: total is ...", "run 4, benchmark 2") */
};
/* The table a summary is kept in ("series" for SUMMARY_SERIES), and what it
 * summarises ("their values", "their series", "their block ratios"). */
const char *store_summary_table(enum store_summary s);
const char *store_summary_source(enum store_summary s);
/* each (or NULL) hears of every series that differs, in words. */
typedef void (*summary_each)(void *arg, const char *what);
/* Compares summary s with its source. Returns 0 (out filled), or -1 with
 * *err when the store cannot be read. */
int store_summary_compare(struct db *db, enum store_summary s, struct summary_state *out, summary_each each, void *arg,
                          char **err);
/* check's line for s ("check: 16 block scores: match their series"), an
 * error per differing series or one naming the first differing row. */
int store_check_summary(struct db *db, enum store_summary s, FILE *out, int *problems);
/* run_cell_data and history_point_data (store_check_summary). */
int store_check_summaries(struct db *db, FILE *out, int *problems);
/* The engine's own checks (check_integrity.c): SQLite's integrity_check
 * and foreign_key_check pragmas, or PostgreSQL's stand-ins for them
 * (check_pg.c, store_check_pg_server): benchstats at the expected version,
 * every foreign key validated and enforced, no row referring to a missing
 * row. */
int store_check_integrity(struct db *db, FILE *out, int *problems);
int store_check_pg_server(struct db *db, FILE *out, int *problems);

#endif
