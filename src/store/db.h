#ifndef BENCHDB_STORE_DB_H
#define BENCHDB_STORE_DB_H
/* The connection layer: one small interface over the two engines a store
 * lives in, an SQLite file (db_sqlite.c) or a PostgreSQL database
 * (db_pg.c, through libpq). docs/architecture.md, "The connection layer".
 *
 * It has SQLite's shape (prepare, bind, step, column, finalize) and speaks
 * SQLite's vocabulary: result codes are SQLite's (SQLITE_ROW, SQLITE_DONE,
 * SQLITE_CONSTRAINT...), column types SQLite's fundamental types, and a
 * cell of a result is an sqlite3_value, so that the output layer (struct
 * rowset) holds the rows of either engine alike. On SQLite each call is
 * SQLite's own; on PostgreSQL the backend maps them:
 *
 *  - SQL: SQLite's parameters (?, ?NNN, :name, @name, $name) are written
 *    as PostgreSQL's $N before the statement is sent (named ones keep
 *    their names for db_bind_parameter_name). The SQL itself is sent as it
 *    is: a caller whose SQL differs between the engines chooses by
 *    db_engine().
 *  - Values: a bound integer is sent as a bigint, a real as a double
 *    precision (its shortest exact text), text as text of a type the
 *    server infers. In a result, integers (int2/4/8, oid) and booleans
 *    (1/0) are SQLITE_INTEGER; float4/8 and numeric SQLITE_FLOAT (read
 *    with extra_float_digits = 3: the same double the server holds);
 *    bytea SQLITE_BLOB; everything else (text, json, jsonb...)
 *    SQLITE_TEXT. A row's cells are made sqlite3_values by a private
 *    in-memory SQLite connection ("SELECT ?1, ?2, ..."), so every column
 *    accessor behaves as SQLite's does, conversions included.
 *  - Errors: the SQLSTATE's class becomes SQLite's code (23: constraint,
 *    25006 read-only transaction and 42501 not authorized: SQLITE_READONLY,
 *    57014: SQLITE_INTERRUPT, 40001/40P01/55P03: SQLITE_BUSY, 53: SQLITE_FULL,
 *    08: SQLITE_IOERR, others SQLITE_ERROR); db_errmsg is the server's
 *    primary message.
 *  - Results: a query (SELECT, WITH, VALUES, TABLE; no INTO or
 *    data-modifying WITH) run in a transaction that only reads is declared
 *    as a cursor on its first step and its rows fetched in batches (64,
 *    doubling up to 8192, fewer when a batch passes 8 MiB), so the client
 *    holds one batch, never the whole result: a caller that stops stepping
 *    (--max-rows, --max-result-bytes) stops the reading, and db_reset or
 *    db_finalize closes the cursor (the server stops computing). Several
 *    such statements may be stepped at once. statement_timeout
 *    (db_pg_set_timeout) bounds the whole query: each FETCH runs with the
 *    time left. Any other statement (writes, COPY, transaction control, a
 *    query outside a read-only transaction) has its whole result read on
 *    its first step (PQexecParams), as SQLite's shape allows; one run by
 *    db_step_later or db_exec_later is sent in libpq's pipeline mode and
 *    its answer read with the next statement's. */
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

enum db_engine { DB_SQLITE, DB_POSTGRESQL };

struct db;
struct db_stmt;

/* A store name that names a PostgreSQL database: a postgresql:// or
 * postgres:// URI (libpq's connection URI; the scheme in any case), or a
 * string of libpq's keyword=value pairs beginning with one of its
 * keywords (host=db.example dbname=results). store_name.c. */
int db_is_server_name(const char *name);
/* Why name, no server's name, was meant as one that libpq would not read
 * ("postgresq://...", "postgresql:/...", "dbnme=results password=..."),
 * which SQLite would take for a file's and messages would print whole;
 * NULL for any other name. malloc'd. store_name.c. */
char *store_name_mistaken(const char *name);
/* The name as it may be printed: a password, wherever the name holds one
 * (before the host, up to the last @; a password or sslpassword parameter
 * or keyword, also in a name store_name_mistaken refuses), as ***. Any
 * other name as it is. malloc'd; NULL when out
 * of memory. */
char *store_name_masked(const char *name);
/* A message of libpq's about the name, as it may be printed: the name in
 * it masked, and the whole message withheld (with the reason) when it
 * still quotes a password or a piece of one. malloc'd; NULL when out of
 * memory. */
char *store_name_scrub(const char *name, const char *msg);
/* The name as libpq is given it (a URI's scheme in lower case, which is
 * all libpq reads). malloc'd; NULL when out of memory. */
char *store_name_conninfo(const char *name);

/* Wraps an open SQLite connection; with own, db_close closes it. NULL when
 * out of memory. */
struct db *db_from_sqlite(sqlite3 *h, int own);
/* Connects to a PostgreSQL server (name as db_is_server_name accepts it)
 * with benchdb's session settings (UTF-8, extra_float_digits = 3, notices
 * below warnings dropped, cursor_tuple_fraction = 1: a cursor planned for
 * its whole result). NULL with *err set. */
struct db *db_connect_pg(const char *name, char **err);
void db_close(struct db *db); /* NULL is fine */

enum db_engine db_engine(const struct db *db);
/* The SQLite connection, or NULL on PostgreSQL: for what only SQLite has
 * (pragmas, the authorizer, the progress handler). */
sqlite3 *db_sqlite(const struct db *db);

/* ---- statements ---- */

/* Prepares the first statement of sql; *tail (when tail is not NULL)
 * points after it. *st is NULL (and the result SQLITE_OK) when sql holds
 * only blanks and comments. */
int db_prepare(struct db *db, const char *sql, struct db_stmt **st);
int db_prepare_tail(struct db *db, const char *sql, struct db_stmt **st, const char **tail);

/* Has the server check the statement now, as SQLite does when it
 * prepares (a missing table or column, a type error): SQLITE_OK or the
 * error (db_errmsg). On SQLite nothing to do. */
int db_describe(struct db_stmt *st);

int db_bind_int(struct db_stmt *st, int i, int v);
int db_bind_int64(struct db_stmt *st, int i, sqlite3_int64 v);
int db_bind_double(struct db_stmt *st, int i, double v);
/* n < 0: up to the NUL. Not copied on SQLite (SQLITE_STATIC: s stays
 * valid while the statement runs, until it is reset or rebound); copied on
 * PostgreSQL. */
int db_bind_text(struct db_stmt *st, int i, const char *s, int n);
int db_bind_null(struct db_stmt *st, int i);
/* Bytes (a bytea on PostgreSQL). Not copied on SQLite (SQLITE_STATIC):
 * p stays valid until the statement is reset and db_clear_bindings runs. */
int db_bind_blob(struct db_stmt *st, int i, const void *p, int n);
int db_clear_bindings(struct db_stmt *st);
int db_bind_parameter_count(struct db_stmt *st);
/* Names as SQLite gives them (":name"), NULL for a positional parameter. */
const char *db_bind_parameter_name(struct db_stmt *st, int i);

int db_step(struct db_stmt *st);
/* Runs a statement whose rows are not needed (to its end) and resets it,
 * for a caller that needs no answer before its next statement. SQLite:
 * now, its code (SQLITE_OK for a row or done). PostgreSQL: sent without
 * waiting (libpq's pipeline mode), its answer read with the next
 * statement's, so that several cost one round trip; SQLITE_OK then, and
 * its failure (the server's message, the transaction aborted) is what
 * the next call that waits for the server returns (db_step, db_exec,
 * db_copy_in, ...). For what fails only when the server does (a lock, the
 * disk, the connection), not on a row's content, whose error should name
 * the row. */
int db_step_later(struct db_stmt *st);
int db_reset(struct db_stmt *st);
int db_finalize(struct db_stmt *st); /* NULL is fine */

int db_column_count(struct db_stmt *st);
const char *db_column_name(struct db_stmt *st, int i);
int db_column_type(struct db_stmt *st, int i);
sqlite3_int64 db_column_int64(struct db_stmt *st, int i);
int db_column_int(struct db_stmt *st, int i);
double db_column_double(struct db_stmt *st, int i);
const unsigned char *db_column_text(struct db_stmt *st, int i);
int db_column_bytes(struct db_stmt *st, int i);
/* The cell as an sqlite3_value, valid until the next step, reset or
 * finalize (sqlite3_value_dup to keep it). */
sqlite3_value *db_column_value(struct db_stmt *st, int i);

/* Whether the statement only reads: SQLite's judgement; on PostgreSQL
 * always 1, the server's read-only transaction deciding. */
int db_stmt_readonly(struct db_stmt *st);
struct db *db_stmt_db(struct db_stmt *st);

/* ---- the connection ---- */

/* Runs every statement of sql (no parameters, rows dropped). On failure
 * *errmsg (when not NULL) gets a malloc'd message. */
int db_exec(struct db *db, const char *sql, char **errmsg);
/* One statement without parameters or rows (BEGIN, COMMIT), as
 * db_step_later runs one. */
int db_exec_later(struct db *db, const char *sql);
const char *db_errmsg(struct db *db);
int db_errcode(struct db *db); /* the primary code */
/* The SQLSTATE of PostgreSQL's last error ("" on SQLite or none). */
const char *db_sqlstate(struct db *db);
/* 1 when no transaction is open. */
int db_autocommit(struct db *db);
/* 1 when the connection to the server is gone (the server stopped, the
 * session was terminated, the network failed): every later statement
 * would fail with "no connection to the server". 0 on SQLite. */
int db_lost(struct db *db);
/* The id the last INSERT gave its row: SQLite's rowid; on PostgreSQL the
 * session's lastval() (every id column takes its value from a sequence),
 * 0 when it cannot be read. */
sqlite3_int64 db_last_insert_id(struct db *db);

/* PostgreSQL: runs sql (a COPY ... FROM STDIN) with the n bytes of data
 * as its input. SQLITE_OK, or an error code (db_errmsg: the server's
 * message). SQLITE_MISUSE on SQLite. */
int db_copy_in(struct db *db, const char *sql, const void *data, size_t n);

/* PostgreSQL: runs sql, several statements in one text (no parameters):
 * SELECTs of one integer column, whose rows go to ids in their order,
 * and COPYs ... FROM STDIN, whose input data gives when the server asks
 * for it (k: 0 for the text's first COPY, then 1, ...), so that the
 * answer to one and the next one's start share a round trip. A callback's
 * -1 stops the text (the COPY refused, the transaction aborted) and gives
 * SQLITE_ABORT (the callback has said why); else as db_copy_in.
 * SQLITE_MISUSE on SQLite. */
struct db_copy_steps {
    void *arg;
    int (*ids)(void *arg, const int64_t *ids, size_t n);
    int (*data)(void *arg, int k, const void **buf, size_t *n);
};
int db_copy_steps(struct db *db, const char *sql, const struct db_copy_steps *cb);

/* Sets statement_timeout (ms, 0: none) on PostgreSQL: for the rest of the
 * transaction when one is open, else for the session. SQLITE_OK or an
 * error code. (SQLite's time limit is store_set_timeout's.) */
int db_pg_set_timeout(struct db *db, long long ms);

#endif
