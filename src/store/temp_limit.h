#ifndef BENCHDB_STORE_TEMP_LIMIT_H
#define BENCHDB_STORE_TEMP_LIMIT_H
/* SQLite's temporary files counted, and bounded while a limit is set
 * (temp_limit.c; store.h's store_query_limits is the interface). */
#include <sqlite3.h>

/* Whether a file SQLite opens with these flags is one of its temporary
 * files: a sorter's or temporary journal (SQLITE_OPEN_TEMP_JOURNAL), a
 * temporary b-tree or materialized view (TEMP_DB, TRANSIENT_DB), a
 * statement journal (SUBJOURNAL). */
int temp_limit_is_temp(int flags);
/* Opens real's file name (NULL: a nameless temporary one) into f, wrapped
 * so that every byte written past the file's high-water mark counts
 * against the limit; f must have room for temp_limit_size(real) bytes. */
int temp_limit_open(sqlite3_vfs *real, const char *name, sqlite3_file *f, int flags, int *out_flags);
int temp_limit_size(const sqlite3_vfs *real);

/* The limit on the temporary bytes held on disk at once (0: none); setting
 * it clears the count of a refused write, not the bytes held. */
void temp_limit_set(sqlite3_int64 max_bytes);
/* The bytes the open temporary files hold (their high-water marks). */
sqlite3_int64 temp_limit_used(void);
/* Whether a write was refused (SQLITE_FULL) at the limit since it was set. */
int temp_limit_refused(void);

#endif
