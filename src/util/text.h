#ifndef BENCHDB_TEXT_H
#define BENCHDB_TEXT_H
#include <stddef.h>

/* Room for an RFC 3339 UTC time with milliseconds and its NUL. */
#define TIME_TEXT_MAX 48

/* The current time as RFC 3339 UTC: 2026-10-21T03:57:00Z, or with
 * millis 2026-10-21T03:57:00.123Z. */
void time_now_rfc3339(char out[TIME_TEXT_MAX], int millis);

/* True when s holds nothing but whitespace, SQL comments and semicolons:
 * no statement is left to run. */
int sql_is_blank(const char *s);

/* The whole of a file ("-": standard input), NUL-terminated, malloc'd;
 * *len (if not NULL) gets its size. NULL with *err set (naming the path)
 * when it cannot be read. */
char *file_read_all(const char *path, size_t *len, char **err);

#endif
