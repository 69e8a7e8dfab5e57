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

/* Bytes held in memory, as one block. */
struct membuf {
    const unsigned char *p;
    size_t n;
    int done;
};

static inline int membuf_next(void *self, const unsigned char **p, size_t *n, char **err)
{
    (void)err;
    struct membuf *m = self;
    if (m->done || m->n == 0)
        return 0;
    m->done = 1;
    *p = m->p;
    *n = m->n;
    return 1;
}

static inline struct blocks membuf_blocks(struct membuf *m)
{
    return (struct blocks){membuf_next, m};
}

#endif
