#include "ingest/pipeline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/diag.h"

/* jansson 2.14 ignores a failed allocation while it collects a token's
 * text (lex_save): the token is cut short and the line may parse, wrongly
 * (e.g. 12345678901234567 as 12). Its allocator below notes every failure
 * on the thread that met it, and a line parsed under a failure is refused
 * as out of memory, whatever jansson returned. */
static _Thread_local int json_alloc_failed;
static void *(*json_inner_malloc)(size_t) = malloc;
static void (*json_inner_free)(void *) = free;

/* A record's arena: blocks taken from the inner allocator, the first sized
 * from the line's length (a parsed tree is a few times its text), each
 * next one twice the last. */
struct arena_block {
    struct arena_block *next;
    size_t size, used;
    max_align_t data[];
};
struct json_arena {
    struct arena_block *head;
};

/* The arena jansson allocates from (the producer, while it parses), and
 * the one whose nodes it frees as no-ops (the producer while it parses,
 * the consumer while it holds a record). */
static _Thread_local struct json_arena *alloc_arena, *held_arena;

static void *arena_alloc(struct json_arena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct arena_block *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t size = b ? 2 * b->size : 0;
        if (size < n)
            size = n;
        struct arena_block *nb = json_inner_malloc(sizeof *nb + size);
        if (!nb)
            return NULL;
        *nb = (struct arena_block){b, size, 0};
        a->head = b = nb;
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

static struct json_arena *arena_new(size_t first)
{
    struct json_arena *a = json_inner_malloc(sizeof *a);
    if (!a)
        return NULL;
    a->head = NULL;
    struct arena_block *b = json_inner_malloc(sizeof *b + first);
    if (!b) {
        json_inner_free(a);
        return NULL;
    }
    *b = (struct arena_block){NULL, first, 0};
    a->head = b;
    return a;
}

static size_t arena_bytes(const struct json_arena *a)
{
    size_t n = sizeof *a;
    for (const struct arena_block *b = a->head; b; b = b->next)
        n += sizeof *b + b->size;
    return n;
}

static void arena_free(struct json_arena *a)
{
    if (!a)
        return;
    for (struct arena_block *b = a->head, *next; b; b = next) {
        next = b->next;
        json_inner_free(b);
    }
    json_inner_free(a);
}

static void *json_checked_malloc(size_t n)
{
    void *p = alloc_arena ? arena_alloc(alloc_arena, n) : json_inner_malloc(n);
    if (!p)
        json_alloc_failed = 1;
    return p;
}

static void json_inner_free_(void *p)
{
    if (p && held_arena && arena_owns(held_arena, p))
        return;
    json_inner_free(p);
}

void pipeline_json_allocator(void *(*m)(size_t), void (*f)(void *))
{
    json_inner_malloc = m ? m : malloc;
    json_inner_free = f ? f : free;
    pipeline_json_checked();
}

void pipeline_json_checked(void)
{
    json_set_alloc_funcs(json_checked_malloc, json_inner_free_);
}

void pipeline_hold(struct pipe_item *it)
{
    held_arena = it->arena;
}

void pipeline_release(struct pipe_item *it)
{
    if (held_arena && held_arena == it->arena)
        held_arena = NULL;
    if (it->arena)
        arena_free(it->arena);
    else
        json_decref(it->rec);
    free(it->buf);
    free(it->err);
    memset(it, 0, sizeof *it);
}

static void item_free(struct pipe_item *it)
{
    pipeline_release(it);
}

/* Queues an item (taking its contents); -1 when the consumer cancelled. */
static int put(struct pipeline *p, struct pipe_item *it)
{
    pthread_mutex_lock(&p->mu);
    while (!p->cancel && (p->count == (p->go ? PIPE_ITEMS : PIPE_WAKE_ITEMS) ||
                          (p->count > 0 && p->bytes + it->size > (p->go ? PIPE_BYTES : PIPE_WAKE_BYTES)))) {
        if (p->getter_waiting) /* whatever the batch size: never both waiting */
            pthread_cond_signal(&p->can_get);
        p->putter_waiting = 1;
        pthread_cond_wait(&p->can_put, &p->mu);
    }
    p->putter_waiting = 0;
    if (p->cancel) {
        pthread_mutex_unlock(&p->mu);
        item_free(it);
        return -1;
    }
    p->q[(p->head + p->count) % PIPE_ITEMS] = *it;
    p->count++;
    p->bytes += it->size;
    if (p->getter_waiting &&
        (it->kind != PIPE_RECORD || p->count >= PIPE_WAKE_ITEMS || p->bytes >= PIPE_WAKE_BYTES))
        pthread_cond_signal(&p->can_get);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

static int emit_chunk(void *arg, unsigned char *buf, size_t len, char **err)
{
    struct pipe_item it = {.kind = PIPE_CHUNK, .buf = buf, .size = len};
    if (put(arg, &it))
        return bd_fail(err, "cancelled");
    return 0;
}

static int sink(void *arg, const unsigned char *data, size_t n, char **err)
{
    struct pipeline *p = arg;
    if (!p->chunks.begun)
        chunks_begin(&p->chunks, !p->rd.zstd);
    atomic_fetch_add(&p->raw_bytes, n);
    return chunks_write(&p->chunks, data, n, err);
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

/* jansson quotes the offending bytes: control characters and non-ASCII
 * bytes are shown as \xNN so that the message stays one line. */
static char *json_error_text(const json_error_t *je)
{
    char text[4 * sizeof je->text];
    size_t k = 0;
    for (const unsigned char *c = (const unsigned char *)je->text; *c; c++) {
        if (*c < 0x20 || *c >= 0x7f)
            k += (size_t)snprintf(text + k, sizeof text - k, "\\x%02x", *c);
        else
            text[k++] = (char)*c;
    }
    text[k] = 0;
    return bd_strdupf("invalid JSON at column %d: %s", je->column, text);
}

static void *produce(void *arg)
{
    struct pipeline *p = arg;
    const char *line;
    size_t len;
    char *err = NULL;
    uint64_t err_line;
    int rc;
    if (p->hash_first) {
        struct pipe_item it = {.kind = PIPE_HASHED};
        if (hash_fd(p->rd.fd, p->pre_sha, &p->pre_size, &p->pre_err) == 0 && lseek(p->rd.fd, 0, SEEK_SET) != 0)
            p->pre_err = bd_strdupf("%s", strerror(errno));
        if (!p->pre_err && p->sniff)
            p->container = p->sniff(p->rd.fd);
        if (put(p, &it) || p->pre_err || p->container)
            return NULL;
    }
    while ((rc = reader_next_line(&p->rd, &line, &len, &err, &err_line)) > 0) {
        if (is_blank(line, len))
            continue;
        json_error_t je;
        struct pipe_item it = {.kind = PIPE_RECORD, .line = p->rd.lineno, .size = len};
        json_alloc_failed = 0;
        it.arena = arena_new(4 * len + 1024);
        alloc_arena = held_arena = it.arena;
        it.rec = it.arena ? json_loadb(line, len, JSON_REJECT_DUPLICATES, &je) : NULL;
        alloc_arena = held_arena = NULL;
        if (!it.arena || json_alloc_failed) {
            arena_free(it.arena);
            it.arena = NULL;
            it.rec = NULL;
            it.kind = PIPE_ERROR;
            it.err = bd_strdupf("out of memory (parsing JSON)");
            it.size = 0;
            put(p, &it);
            return NULL;
        }
        if (!it.rec) {
            arena_free(it.arena);
            it.arena = NULL;
            it.kind = PIPE_ERROR;
            it.err = json_error_text(&je);
            it.size = 0;
            put(p, &it);
            return NULL;
        }
        it.size += arena_bytes(it.arena); /* what it holds: the tree more than the text */
        if (put(p, &it))
            return NULL;
    }
    if (rc == 0) {
        if (!p->chunks.begun)
            chunks_begin(&p->chunks, 1);
        if (chunks_finish(&p->chunks, &err) == 0) {
            reader_digest(&p->rd, p->sha);
            struct pipe_item it = {.kind = PIPE_END};
            put(p, &it);
            return NULL;
        }
        err_line = 0;
    }
    struct pipe_item it = {.kind = PIPE_ERROR, .line = err_line, .err = err, .reader_failed = 1};
    put(p, &it);
    return NULL;
}

int pipeline_start(struct pipeline *p, int fd, uint64_t max_line, uint64_t max_bytes, int hash_first, char **err)
{
    int (*sniff)(int) = p->sniff;
    memset(p, 0, sizeof *p);
    p->sniff = sniff;
    p->hash_first = hash_first;
    p->go = !hash_first;
    atomic_init(&p->raw_bytes, 0);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->can_get, NULL);
    pthread_cond_init(&p->can_put, NULL);
    if (reader_init(&p->rd, fd, max_line, max_bytes, sink, p) || chunks_init(&p->chunks, emit_chunk, p, err))
        return bd_fail(err, "out of memory");
    if (pthread_create(&p->thread, NULL, produce, p) != 0)
        return bd_fail(err, "cannot start a thread");
    p->running = 1;
    return 0;
}

void pipeline_go(struct pipeline *p)
{
    pthread_mutex_lock(&p->mu);
    p->go = 1;
    if (p->putter_waiting)
        pthread_cond_signal(&p->can_put);
    pthread_mutex_unlock(&p->mu);
}

void pipeline_next(struct pipeline *p, struct pipe_item *it)
{
    pthread_mutex_lock(&p->mu);
    while (p->count == 0) {
        if (p->putter_waiting)
            pthread_cond_signal(&p->can_put);
        p->getter_waiting = 1;
        pthread_cond_wait(&p->can_get, &p->mu);
    }
    p->getter_waiting = 0;
    *it = p->q[p->head];
    p->head = (p->head + 1) % PIPE_ITEMS;
    p->count--;
    p->bytes -= it->size;
    /* A waiting producer resumes once the queue is half empty. */
    if (p->putter_waiting && p->count <= PIPE_ITEMS / 2 && p->bytes <= PIPE_BYTES / 2)
        pthread_cond_signal(&p->can_put);
    pthread_mutex_unlock(&p->mu);
}

void pipeline_stop(struct pipeline *p)
{
    if (!p->running)
        return;
    pthread_mutex_lock(&p->mu);
    p->cancel = 1;
    pthread_cond_broadcast(&p->can_put);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    p->running = 0;
    while (p->count > 0) {
        item_free(&p->q[p->head]);
        p->head = (p->head + 1) % PIPE_ITEMS;
        p->count--;
    }
}

void pipeline_free(struct pipeline *p)
{
    pipeline_stop(p);
    reader_free(&p->rd);
    chunks_free(&p->chunks);
    free(p->pre_err);
    p->pre_err = NULL;
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->can_get);
    pthread_cond_destroy(&p->can_put);
}
