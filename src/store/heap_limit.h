#ifndef BENCHDB_STORE_HEAP_LIMIT_H
#define BENCHDB_STORE_HEAP_LIMIT_H
/* SQLite's memory counted, and bounded while a limit is set (heap_limit.c;
 * store.h's store_heap_counting and store_query_limits are the interface). */
#include <sqlite3.h>

/* The limit on the bytes SQLite's allocator holds (0: none); setting it
 * forgets a refusal. Only once counting is installed. */
void heap_limit_set(sqlite3_int64 max_bytes);
/* The bytes held through the counting allocator. */
sqlite3_int64 heap_limit_used(void);
/* Whether an allocation was refused at the limit since it was set. */
int heap_limit_refused(void);

#endif
