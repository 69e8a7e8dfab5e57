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

/* The same on PostgreSQL ("benchdb-schema-pg/1", docs/queries.md), for the
 * statement sql (as the saved query holds it, SQLite's parameters): the
 * names it reads and the set closed over triggers and views are found as
 * on SQLite, by preparing sql on benchdb's SQLite schema of the store's
 * version in a private in-memory connection; then hashed are, per name of
 * that set in name order, the server's definition from its catalogues
 * (kind; a view's pg_get_viewdef; a table's columns with type, NOT NULL
 * and default, its constraints and its triggers' pg_get_triggerdef), then
 * every function of the store's schema that no extension owns
 * (pg_get_functiondef: what the triggers run and the views call), then the
 * rows of `unit` when it is in the set. Returns 0, or -1 with *err set. */
struct db;
int schema_hash_pg(struct db *db, const char *sql, char out[65], struct schema_reads *set, char **err);

#endif
