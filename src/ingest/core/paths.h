#ifndef BENCHDB_INGEST_CORE_PATHS_H
#define BENCHDB_INGEST_CORE_PATHS_H
/* Paths inside an archive: container members and the files a results
 * record names. */
#include "util/strbuf.h"

/* Joins dir (NULL or "" for none) and a relative path, resolving "." and
 * ".." lexically and dropping repeated slashes, into out: 0, or -1 for an
 * absolute path, one that climbs above dir's top, an empty one, or when
 * memory ran out. */
int path_join_inside(const char *dir, const char *path, struct strbuf *out);
/* True when s ends with suf. */
int path_has_suffix(const char *s, const char *suf);

#endif
