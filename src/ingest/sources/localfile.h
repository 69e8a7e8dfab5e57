#ifndef BENCHDB_INGEST_SOURCES_LOCALFILE_H
#define BENCHDB_INGEST_SOURCES_LOCALFILE_H
/* A file beside a bare run stream that a results record names: it must
 * resolve (symbolic links followed) to a regular file inside the stream's
 * own directory, and its bytes count against the archive's --max-bytes.
 * So an archive cannot make ingest read /etc/shadow, /proc/self/environ,
 * /dev/zero or a FIFO. */
#include "ingest/core/budget.h"
#include "util/strbuf.h"

/* Reads rel (a relative path without "..", see path_join_inside) inside
 * dir (NULL or "": the working directory) into out. -1 with *err naming
 * rel and what is wrong. */
int localfile_read(const char *dir, const char *rel, struct budget *b, struct strbuf *out, char **err);

/* Reads fd to its end into out, offering each block's size to take first
 * (NULL: none), which may refuse it (-1 with *err set). */
int read_to_end(int fd, struct strbuf *out, int (*take)(void *arg, size_t n, char **err), void *arg, char **err);

#endif
