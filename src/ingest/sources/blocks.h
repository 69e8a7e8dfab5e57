#ifndef BENCHDB_INGEST_SOURCES_BLOCKS_H
#define BENCHDB_INGEST_SOURCES_BLOCKS_H
/* A byte stream read in blocks: the shape every source has (a file, a
 * decompression layer, a container member), so that one layer reads from
 * any other without copying. */
#include <stddef.h>

struct blocks {
    /* The next block: 1 with *p and *n set (a view valid until the next
     * call, n > 0), 0 at the end, -1 with *err set. */
    int (*next)(void *self, const unsigned char **p, size_t *n, char **err);
    void *self;
};

static inline int blocks_next(struct blocks b, const unsigned char **p, size_t *n, char **err)
{
    return b.next(b.self, p, n, err);
}

#endif
