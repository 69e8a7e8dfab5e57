/* The comparison's bump allocator (arena.h). */
#include "compare/arena.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct arena_chunk {
    struct arena_chunk *next;
    alignas(max_align_t) unsigned char data[];
};

#define CHUNK_MIN ((size_t)64 << 10)

void *arena_alloc(struct arena *a, size_t n)
{
    size_t align = alignof(max_align_t);
    n = (n + align - 1) / align * align;
    if (!n)
        n = align;
    if (!a->head || a->size - a->used < n) {
        size_t size = n > CHUNK_MIN ? n : CHUNK_MIN;
        struct arena_chunk *c = xmalloc(sizeof *c + size);
        if (!c) {
            a->failed = 1;
            return NULL;
        }
        c->next = a->head;
        a->head = c;
        a->used = 0;
        a->size = size;
    }
    void *p = a->head->data + a->used;
    a->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (p && n)
        memcpy(p, s, n);
    return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

void arena_free(struct arena *a)
{
    while (a->head) {
        struct arena_chunk *next = a->head->next;
        free(a->head);
        a->head = next;
    }
    a->used = a->size = 0;
    a->failed = 0;
}
