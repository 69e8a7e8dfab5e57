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

/* The hash, hex, of what r names and the triggers behind it. The
 * triggers' writes and reads are found by preparing (never running) an
 * insert, an update of every column and a delete of each table that has
 * triggers, under an authorizer of its own; on return the read-only guard
 * is on again if guard_on, else no authorizer is. Returns 0, or -1 with
 * *err set. */
int schema_hash(sqlite3 *db, const struct schema_reads *r, int guard_on, char out[65], char **err);

#endif
