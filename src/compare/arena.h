#ifndef BENCHDB_COMPARE_ARENA_H
#define BENCHDB_COMPARE_ARENA_H
/* A bump allocator: everything a comparison builds (labels, cells, tables)
 * lives until the comparison is freed, so it is allocated from chunks and
 * freed at once. Allocation failure is sticky: a failed call returns NULL
 * and sets failed, so a caller may check once at the end. */
#include <stddef.h>

struct arena_chunk;
struct arena {
    struct arena_chunk *head;
    size_t used, size; /* of the head chunk */
    int failed;
};

/* n bytes, aligned for any type, zeroed. */
void *arena_alloc(struct arena *a, size_t n);
/* A copy of s (n bytes) with a NUL after it. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
void arena_free(struct arena *a);

#endif
