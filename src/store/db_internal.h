#ifndef BENCHDB_STORE_DB_INTERNAL_H
#define BENCHDB_STORE_DB_INTERNAL_H
/* What the two backends of the connection layer (db_sqlite.c, db_pg.c and
 * the PostgreSQL backend's parts: pg_guard.c, pg_wait.c) and the store's
 * engine-neutral calls (readonly.c, store_pg.c) share: the handles and the
 * PostgreSQL backend's entry points. Nothing outside src/store includes
 * it. */
#include "store/db.h"

struct pg_conn; /* libpq's PGconn, kept out of this header */

struct db {
    enum db_engine engine;
    /* SQLite: the store's connection. PostgreSQL: a private in-memory
     * connection that makes a row's cells sqlite3_values. */
    sqlite3 *lite;
    int own;
    /* PostgreSQL only. */
    void *pg;         /* PGconn * */
    char *errmsg;     /* the last error's primary message */
    int errcode;      /* SQLite's code for it */
    char sqlstate[6]; /* its SQLSTATE */
    /* Why the connection was lost, as first said (the server's reason:
     * "terminating connection due to administrator command"), and its
     * SQLSTATE: every later error of the lost connection says it, not
     * libpq's "no connection to the server" of each call after. */
    char *lost;
    char lost_state[6];
    long long timeout_ms; /* statement_timeout as db_pg_set_timeout set it (0: none) */
    unsigned cursors;     /* cursors declared so far (their names) */
    int txn_readonly;     /* the open transaction: 0 not known, 1 only reads, 2 may write */
    /* What a transaction begun by a plain BEGIN is (txn_readonly's values):
     * the session's default, known once asked, forgotten at any statement
     * that may change it (SET, BEGIN READ ONLY...). */
    int begin_readonly;
    int plain_begin;      /* the open transaction was begun by a plain BEGIN */
    /* Statements sent in libpq's pipeline mode whose answers are not read
     * yet (db_step_later, db_pg.c "Statements sent without waiting"). */
    int pending;
    /* The read-only guard (pg_guard.c): guard_connection for every
     * statement of a session opened read-only, guard while
     * db_begin_readonly's transaction is open. */
    int guard_connection, guard;
    int reader;           /* may the session read as benchdb_reader: 0 not asked yet, 1 yes, 2 no */
    /* Waiting for locks (pg_wait.c): whether to say so, the store's name
     * to open a second connection by, and that connection. */
    int watch_locks;
    char *conninfo;
    void *monitor;        /* PGconn * */
};

struct db_stmt {
    struct db *db;
    sqlite3_stmt *lite; /* SQLite: the statement */
    /* PostgreSQL only. */
    char *sql;            /* the statement with $N parameters */
    int nparams;
    char **param_names;   /* ":name", or NULL for a positional parameter */
    unsigned char *seen;  /* whether the SQL uses parameter i + 1 */
    char **values;        /* bound values as text; NULL: SQL NULL */
    unsigned *types;      /* their type oids (0: the server infers it) */
    void *res;            /* PGresult * of the executed statement */
    void *desc;           /* PGresult * describing it before it ran */
    int refused;          /* the server refused to describe it (db's error says why) */
    int row, nrows, ncols;
    sqlite3_stmt *row_values; /* "SELECT ?1, ..., ?N": the current row's cells */
    /* A query of a read-only transaction runs as a cursor, res holding one
     * batch of its rows at a time (db_pg.c, "Reading in batches"). */
    char cursor[32];    /* its name; "" when the result is read whole or the cursor closed */
    int batch;          /* rows to fetch next */
    double started;     /* when it was declared (ms, monotonic), for statement_timeout */
};

/* Serialises what changes the schema (the extension, each migration)
 * among benchdb processes on one PostgreSQL database: an advisory lock of
 * the transaction, keyed by the database (advisory locks are per
 * database), so that two inits at once do not both create
 * schema_migration (migrations.c, store_pg.c). */
#define STORE_PG_SCHEMA_LOCK "SELECT pg_advisory_xact_lock(7146405339181958401)"

void db_pg_close(struct db *db);
int db_pg_prepare(struct db *db, const char *sql, struct db_stmt **st, const char **tail);
/* type: SQLITE_INTEGER (i), SQLITE_FLOAT (d), SQLITE_TEXT (s, n bytes) or
 * SQLITE_NULL. */
int db_pg_bind(struct db_stmt *st, int i, int type, sqlite3_int64 iv, double d, const char *s, int n);
int db_pg_step(struct db_stmt *st);
int db_pg_reset(struct db_stmt *st);
void db_pg_free(struct db_stmt *st);
const char *db_pg_column_name(struct db_stmt *st, int i);
int db_pg_column_count(struct db_stmt *st);
int db_pg_exec(struct db *db, const char *sql, char **errmsg);
int db_pg_copy_in(struct db *db, const char *sql, const void *data, size_t n);
int db_pg_copy_steps(struct db *db, const char *sql, const struct db_copy_steps *cb);
int db_pg_autocommit(struct db *db);
int db_pg_lost(struct db *db);
int db_pg_step_later(struct db_stmt *st);
int db_pg_exec_later(struct db *db, const char *sql);
/* Reads the answers of the statements sent without waiting: SQLITE_OK,
 * or the first one's error (recorded on db). Called before anything else
 * talks to the server; nothing to do when none is pending. */
int db_pg_sync(struct db *db);
int db_pg_timeout(struct db *db, long long ms);
/* Records an error on db: SQLite's code, the SQLSTATE, the message. */
void db_pg_set_error(struct db *db, int code, const char *state, const char *msg);

/* The read-only guard (pg_guard.c): SQLITE_OK when the statement sql
 * (one statement, as db_pg_prepare cut it) may run in a read-only
 * session, else SQLITE_AUTH with the refusal recorded on db (and as
 * store_guard_refusal's text). */
int db_pg_guard_check(struct db *db, const char *sql);
int db_pg_begin_readonly(struct db *db, unsigned flags);
int db_pg_end_readonly(struct db *db);

/* Waits until what was sent on db's connection has its result ready,
 * saying once on stderr, when the wait is long and the server says the
 * session waits for a lock, which lock and who holds it (pg_wait.c). */
void db_pg_await(struct db *db);
/* Closes the second connection pg_wait.c may have opened. */
void db_pg_wait_close(struct db *db);

/* Why SQLite cannot create or write files beside path, or NULL when no
 * reason shows: a missing directory, a full disk, a read-only file
 * system, a directory or a file this user cannot write (store.c). */
const char *store_unwritable_because(const char *path);

/* A new SQLite file made whole or not at all (partial.c): made under a
 * temporary name beside path, PATH.partial-XXXXXX (mkstemp: O_CREAT |
 * O_EXCL, the mode SQLite gives a new database), guarded with SQLite's
 * files beside it (-journal, -wal, -shm) so that a signal that ends the
 * process removes them (util/tempguard.h), then renamed to path once
 * whole. store_partial_new: the temporary's path, or NULL with errno (the
 * caller says what it could not make). store_partial_place: renames it to path
 * only while path does not exist; 0, or -1 with *err and the temporary
 * removed. store_partial_discard: removes it and SQLite's files beside it.
 * Both free tmp and stop guarding it. */
char *store_partial_new(const char *path);
int store_partial_place(char *tmp, const char *path, char **err);
void store_partial_discard(char *tmp);

#endif
