#include "ingest/core/idmap.h"

#include <stdlib.h>
#include <string.h>

/* FNV-1a, then a final mix so that linear probing sees spread-out bits. */
static uint64_t hash_bytes(const void *key, size_t len)
{
    const unsigned char *p = key;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h ? h : 1;
}

static struct idmap_slot *find(const struct idmap *m, const void *key, size_t len, uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        struct idmap_slot *s = &m->slots[i];
        if (s->hash == 0)
            return s;
        if (s->hash == h && s->key_len == len && memcmp(m->arena + s->key_off, key, len) == 0)
            return s;
    }
}

int64_t *idmap_get(const struct idmap *m, const void *key, size_t len)
{
    if (m->cap == 0)
        return NULL;
    struct idmap_slot *s = find(m, key, len, hash_bytes(key, len));
    return s->hash ? &s->value : NULL;
}

static int grow(struct idmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    struct idmap_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    struct idmap old = *m;
    m->slots = ns;
    m->cap = ncap;
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].hash)
            *find(m, old.arena + old.slots[i].key_off, old.slots[i].key_len, old.slots[i].hash) = old.slots[i];
    free(old.slots);
    return 0;
}

int idmap_put(struct idmap *m, const void *key, size_t len, int64_t value)
{
    if ((m->count + 1) * 4 > m->cap * 3 && grow(m))
        return -1;
    uint64_t h = hash_bytes(key, len);
    struct idmap_slot *s = find(m, key, len, h);
    if (s->hash) {
        s->value = value;
        return 0;
    }
    if (m->arena_len + len + 1 > m->arena_cap) {
        size_t ncap = m->arena_cap ? m->arena_cap : 1024;
        while (ncap < m->arena_len + len + 1)
            ncap *= 2;
        char *na = realloc(m->arena, ncap);
        if (!na)
            return -1;
        m->arena = na;
        m->arena_cap = ncap;
    }
    memcpy(m->arena + m->arena_len, key, len);
    m->arena[m->arena_len + len] = 0;
    s->hash = h;
    s->key_off = m->arena_len;
    s->key_len = len;
    s->value = value;
    m->arena_len += len + 1;
    m->count++;
    return 0;
}

void idmap_clear(struct idmap *m)
{
    if (m->cap > 4096) {
        idmap_free(m);
        return;
    }
    if (m->slots)
        memset(m->slots, 0, m->cap * sizeof *m->slots);
    m->count = 0;
    m->arena_len = 0;
}

void idmap_free(struct idmap *m)
{
    free(m->slots);
    free(m->arena);
    memset(m, 0, sizeof *m);
}
