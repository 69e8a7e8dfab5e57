#ifndef BENCHDB_STORE_COPY_H
#define BENCHDB_STORE_COPY_H
/* Copying a whole store into another, on either engine (benchdb copy,
 * docs/copy.md): every table's rows with their ids, in one transaction
 * on the destination, read from one snapshot of the source. What differs
 * between the engines (how the destination's triggers stand aside, how
 * rows are written, an event's value) stays here.
 *
 * The steps, in order: store_copy_open (the source's snapshot; the
 * destination's write transaction, refused unless the destination holds
 * no rows; its triggers set aside: the derived tables are copied as they
 * are, bit for bit), store_copy_rows, store_copy_rearm (the triggers
 * back, the id sequences past the copied ids), then the caller's own
 * writes inside the same transaction, then store_copy_commit (and
 * store_copy_analyze).
 * store_copy_free rolls back whatever was not committed. */
#include "store/db.h"

struct store_copy;

/* Progress: called at each table's start (done 0) and every so many rows,
 * with the table's row count (total) as the snapshot holds it. */
struct store_copy_tick {
    void (*fn)(void *arg, const char *table, long long done, long long total);
    void *arg;
};

/* Returns 0, or -1 with *err (the destination is not empty, naming a
 * table with rows; the source holds a table the copy does not know; the
 * destination's triggers cannot be set aside). */
int store_copy_open(struct db *src, struct db *dst, struct store_copy **out, char **err);
/* Opens dest, a file or a server, to copy into: an existing store is
 * first looked at as it is and refused when it holds rows (one of an
 * older schema is left as it was, not migrated and then refused), then
 * opened to write (STORE_CREATE: a missing file made, an empty or older
 * store brought to the current schema). 0, or -1 with *err; *named says
 * the message names the store (a failure to open it), else it does not
 * (the destination holds rows). *made says the destination existed and
 * is to be brought to the current schema as it opens (an empty database, an
 * empty or older store): those migrations commit on their own, and stay
 * should the copy then fail. */
int store_copy_connect(const char *dest, struct db **out, int *named, int *made, char **partial, char **err);
/* A dest that was no file at all is made in a temporary file beside it
 * (*partial, its path: DEST.partial-XXXXXX), so that an interrupted or
 * failed copy leaves no store there, empty or half-filled: a signal that
 * ends the process removes it (util/tempguard.h). After the commit,
 * store_copy_place closes dst and renames the temporary to dest (0, or -1
 * with *err and the temporary removed); on failure store_copy_discard
 * closes dst and removes it. Both free partial; with partial NULL they
 * only close dst. */
int store_copy_place(struct db *dst, char *partial, const char *dest, char **err);
void store_copy_discard(struct db *dst, char *partial);
/* Every row of every table. 0, or -1 with *err naming the table. */
int store_copy_rows(struct store_copy *c, const struct store_copy_tick *tick, long long *rows, char **err);
int store_copy_rearm(struct store_copy *c, char **err);
int store_copy_commit(struct store_copy *c, char **err);
/* After the commit, on a server: gathers the planner's statistics (ANALYZE)
 * at once rather than when autovacuum comes; nothing on SQLite. A failure
 * loses nothing copied. */
int store_copy_analyze(struct store_copy *c, char **err);
void store_copy_free(struct store_copy *c);

/* A consistent copy of a SQLite store into the file path (SQLite's online
 * backup; other processes may go on writing the store meanwhile). The
 * file must not exist; on failure it is removed. 0, or -1 with *err. */
int store_backup(struct db *db, const char *path, char **err);

#endif
