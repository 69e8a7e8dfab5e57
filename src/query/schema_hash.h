#ifndef BENCHDB_SCHEMA_HASH_H
#define BENCHDB_SCHEMA_HASH_H
#include <sqlite3.h>
#include <stddef.h>

/* The schema an evaluation read (docs/queries.md, "Re-verifying
 * evaluations"): a SHA-256 over the definitions of every table and view
 * the statement reads, of the triggers that write any of them (derived
 * data: run_cell_data from block_score_data from series) and, in turn, of
 * what those triggers read, so that a recorded verdict names the exact
 * definitions it was derived with. The rows of `unit` are definitions too
 * (each unit's kind and factor turn scores into ratios): hashed with it. */

/* The names the read-only guard reported while the statement was
 * prepared (store_guard_readonly_reporting with schema_reads_note). */
struct schema_reads {
    char **names;
    size_t n, cap;
    int nomem;
};
/* The guard's callback: adds name once. */
void schema_reads_note(void *arg, const char *name);
void schema_reads_free(struct schema_reads *r);

/* The hash, hex, of what r names and the triggers behind it; set (when
 * not NULL) gets the names of the tables and views hashed (the closed
 * set). The
 * triggers' writes and reads are found by preparing (never running) an
 * insert, an update of every column and a delete of each table that has
 * triggers, under an authorizer of its own; on return the read-only guard
 * is on again if guard_on, else no authorizer is. Returns 0, or -1 with
 * *err set. */
int schema_hash(sqlite3 *db, const struct schema_reads *r, int guard_on, char out[65], struct schema_reads *set,
                char **err);

/* On PostgreSQL, the check every saved query passes before the server
 * sees it (docs/postgresql.md, "Read-only analysis"): sql (as the saved
 * query holds it, SQLite's parameters) must prepare as one statement that
 * only reads on benchdb's SQLite schema of the store's version, in a
 * private in-memory connection, under the read-only guard; so it names
 * only benchdb's tables and views and the functions SQLite and benchdb
 * have (no pg_read_file, lo_*, set_config, dblink...). reads (or NULL)
 * hears of every table and view it reads, as on SQLite. Returns 0, or -1
 * with *err saying why not (-2 when the guard refused it: it would write
 * or control a transaction). */
struct db;
#include "store/store.h"
int schema_pg_check(struct db *db, const char *sql, const struct store_guard_reads *reads, char **err);

/* The hash on PostgreSQL ("benchdb-schema-pg/1", docs/queries.md) of what
 * r names (schema_pg_check's reads): the set closed over triggers and
 * views is found as on SQLite, on the logical schema; then hashed are, per
 * name of that set in name order, the server's definition from its
 * catalogues (kind; a view's pg_get_viewdef; a table's columns with type,
 * NOT NULL and default, its constraints and its triggers'
 * pg_get_triggerdef), then every function of the store's schema that no
 * extension owns (pg_get_functiondef: what the triggers run and the views
 * call), then the rows of `unit` when it is in the set. Returns 0, or -1
 * with *err set. set (or NULL) hears of every name of the closed set. */
int schema_hash_pg(struct db *db, const struct schema_reads *r, char out[65], struct schema_reads *set,
                   char **err);

/* The engine's own hash (schema_hash on SQLite, guard_on as there;
 * schema_hash_pg on PostgreSQL). */
int schema_hash_db(struct db *db, const struct schema_reads *r, int guard_on, char out[65], struct schema_reads *set,
                   char **err);
/* The hash the statement sql (a saved query's SQL) would be recorded with
 * on db now: the tables and views it reads found on benchdb's schema of
 * the store's version (as schema_pg_check finds them, on either engine),
 * then schema_hash_db. Nothing is run. 0, or -1 with *err. */
int schema_hash_of_sql(struct db *db, const char *sql, int guard_on, char out[65], char **err);

#endif
