#include "ingest/core/jsonparse.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/jsonread.h"
#include "util/diag.h"
#include "util/hugepage.h"

static _Thread_local int alloc_failed, too_big;
static void *(*inner_malloc)(size_t) = malloc;
static void (*inner_free)(void *) = free;
static _Atomic uint64_t tree_bytes; /* of every arena alive */

/* Blocks taken from the inner allocator, the first sized from the text's
 * length (a tree is a few times its text), each next one twice the last. */
struct arena_block {
    struct arena_block *next;
    size_t size, used;
    max_align_t data[];
};
struct json_arena {
    struct arena_block *head;
    size_t bytes;
};

/* jansson's nodes hold pointers, sizes, doubles and long longs: 8 bytes. */
#define ARENA_ALIGN 8
/* Blocks grow to this size at most, so that the last one wastes little. */
#define ARENA_BLOCK_MAX (16u << 20)

/* The arena jansson allocates from (while parsing), and those whose nodes
 * it frees as no-ops (while parsing or held). */
static _Thread_local struct json_arena *alloc_arena;
static _Thread_local const struct json_arena *held[4];

static struct arena_block *block_new(struct json_arena *a, size_t size)
{
    size_t total = sizeof(struct arena_block) + size;
    if (atomic_fetch_add(&tree_bytes, total) + total > JSON_TREES_MAX) {
        atomic_fetch_sub(&tree_bytes, total);
        too_big = 1;
        return NULL;
    }
    struct arena_block *b = inner_malloc(total);
    if (!b) {
        atomic_fetch_sub(&tree_bytes, total);
        return NULL;
    }
    mem_advise_huge(b->data, size); /* a large tree's blocks fill whole */
    *b = (struct arena_block){a->head, size, 0};
    a->head = b;
    a->bytes += total;
    return b;
}

static void *arena_alloc(struct json_arena *a, size_t n)
{
    n = (n + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
    struct arena_block *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t size = b ? 2 * b->size : 0;
        if (size > ARENA_BLOCK_MAX)
            size = ARENA_BLOCK_MAX;
        if (size < n)
            size = n;
        b = block_new(a, size);
        if (!b)
            return NULL;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}

static int arena_owns(const struct json_arena *a, const void *p)
{
    for (const struct arena_block *b = a->head; b; b = b->next)
        if ((const char *)p >= (const char *)b->data && (const char *)p < (const char *)b->data + b->size)
            return 1;
    return 0;
}

static void arena_free(struct json_arena *a)
{
    if (!a)
        return;
    for (struct arena_block *b = a->head, *next; b; b = next) {
        next = b->next;
        inner_free(b);
    }
    atomic_fetch_sub(&tree_bytes, a->bytes);
    inner_free(a);
}

static void *checked_malloc(size_t n)
{
    void *p = alloc_arena ? arena_alloc(alloc_arena, n) : inner_malloc(n);
    if (!p)
        alloc_failed = 1;
    return p;
}

static void checked_free(void *p)
{
    if (!p)
        return;
    for (int i = 0; i < 4; i++)
        if (held[i] && arena_owns(held[i], p))
            return;
    inner_free(p);
}

void json_checked_allocator(void *(*m)(size_t), void (*f)(void *))
{
    inner_malloc = m ? m : malloc;
    inner_free = f ? f : free;
    json_checked_install();
}

void json_checked_install(void)
{
    json_set_alloc_funcs(checked_malloc, checked_free);
}

void json_doc_hold(const struct json_doc *d)
{
    if (!d->arena)
        return;
    for (int i = 0; i < 4; i++)
        if (held[i] == d->arena)
            return;
    for (int i = 0; i < 4; i++)
        if (!held[i]) {
            held[i] = d->arena;
            return;
        }
}

void json_doc_free(struct json_doc *d)
{
    for (int i = 0; i < 4; i++)
        if (d->arena && held[i] == d->arena)
            held[i] = NULL;
    if (d->arena)
        arena_free(d->arena);
    else
        json_decref(d->root);
    memset(d, 0, sizeof *d);
}

enum json_parse_status json_parse(const char *s, size_t n, struct json_doc *doc, struct json_parse_error *e)
{
    return json_parse_flat(s, n, NULL, doc, e);
}

enum json_parse_status json_parse_flat(const char *s, size_t n, const struct json_flat_spec *spec,
                                       struct json_doc *doc, struct json_parse_error *e)
{
    memset(doc, 0, sizeof *doc);
    memset(e, 0, sizeof *e);
    alloc_failed = too_big = 0;
    struct json_arena *a = inner_malloc(sizeof *a);
    if (a) {
        a->head = NULL;
        a->bytes = 0;
        size_t first = n < ARENA_BLOCK_MAX / 4 ? 4 * n + 1024 : ARENA_BLOCK_MAX;
        if (!block_new(a, first) && !too_big) {
            inner_free(a);
            a = NULL;
        }
    }
    json_t *root = NULL;
    if (a && a->head) {
        const struct json_arena *was = held[3];
        alloc_arena = a;
        held[3] = a;
        root = json_read_flat(s, n, spec, &doc->flats, inner_malloc, inner_free, e);
        alloc_arena = NULL;
        held[3] = was;
    }
    if (!a || !a->head || alloc_failed || too_big || (!root && e->status == JSON_NO_MEMORY)) {
        memset(e, 0, sizeof *e);
        e->status = too_big ? JSON_TOO_BIG : JSON_NO_MEMORY;
        if (a)
            arena_free(a);
        memset(doc, 0, sizeof *doc);
        return e->status;
    }
    if (!root) {
        arena_free(a);
        memset(doc, 0, sizeof *doc);
        return JSON_SYNTAX;
    }
    doc->root = root;
    doc->arena = a;
    doc->bytes = a->bytes;
    return JSON_PARSED;
}

char *json_parse_message(const struct json_parse_error *e, int with_line)
{
    if (e->status == JSON_NO_MEMORY)
        return bd_strdupf("out of memory (parsing JSON)");
    if (e->status == JSON_TOO_BIG)
        return bd_strdupf("the parsed JSON needs more than %llu MiB of memory (the limit: about 2 million numbers "
                          "in one record or file; split it)",
                          (unsigned long long)(JSON_TREES_MAX >> 20));
    /* jansson quotes the offending bytes: control characters and non-ASCII
     * bytes are shown as \xNN so that the message stays one line. */
    char text[4 * sizeof e->text];
    size_t k = 0;
    for (const unsigned char *c = (const unsigned char *)e->text; *c && k + 5 < sizeof text; c++) {
        if (*c < 0x20 || *c >= 0x7f)
            k += (size_t)snprintf(text + k, sizeof text - k, "\\x%02x", *c);
        else
            text[k++] = (char)*c;
    }
    text[k] = 0;
    if (with_line)
        return bd_strdupf("invalid JSON at line %d, column %d: %s", e->line, e->column, text);
    return bd_strdupf("invalid JSON at column %d: %s", e->column, text);
}
