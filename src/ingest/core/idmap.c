#include "ingest/core/idmap.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* Keys come from the input (member paths, benchmark names, block
 * numbers), so the hash is keyed with a secret chosen per process:
 * whoever writes an archive cannot know which keys share a slot, and
 * cannot make the table's probing quadratic (docs/reliability.md, "Hash
 * flooding"). SipHash-2-4, a keyed pseudo-random function built for hash
 * tables, with a 128-bit key from getrandom. */
static uint64_t sip_key[2];
static pthread_once_t sip_once = PTHREAD_ONCE_INIT;

static void sip_seed(void)
{
    unsigned char k[16];
    size_t got = 0;
    while (got < sizeof k) {
        ssize_t n = getrandom(k + got, sizeof k - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    if (got < sizeof k) { /* no getrandom (an old kernel): the kernel's pool through the file */
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        while (fd >= 0 && got < sizeof k) {
            ssize_t n = read(fd, k + got, sizeof k - got);
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        if (fd >= 0)
            close(fd);
    }
    memcpy(sip_key, k, sizeof sip_key);
    if (got < sizeof k) { /* neither: still differs per process and run */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sip_key[0] ^= (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
        sip_key[1] ^= (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)&ts;
    }
}

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                                                       \
    do {                                                                                                               \
        v0 += v1;                                                                                                      \
        v1 = ROTL(v1, 13);                                                                                             \
        v1 ^= v0;                                                                                                      \
        v0 = ROTL(v0, 32);                                                                                             \
        v2 += v3;                                                                                                      \
        v3 = ROTL(v3, 16);                                                                                             \
        v3 ^= v2;                                                                                                      \
        v0 += v3;                                                                                                      \
        v3 = ROTL(v3, 21);                                                                                             \
        v3 ^= v0;                                                                                                      \
        v2 += v1;                                                                                                      \
        v1 = ROTL(v1, 17);                                                                                             \
        v1 ^= v2;                                                                                                      \
        v2 = ROTL(v2, 32);                                                                                             \
    } while (0)

uint64_t idmap_siphash(const uint64_t key[2], const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t v0 = 0x736f6d6570736575ULL ^ key[0], v1 = 0x646f72616e646f6dULL ^ key[1];
    uint64_t v2 = 0x6c7967656e657261ULL ^ key[0], v3 = 0x7465646279746573ULL ^ key[1];
    size_t whole = len - len % 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t m = 0;
        for (int j = 7; j >= 0; j--)
            m = m << 8 | p[i + (size_t)j];
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t b = (uint64_t)len << 56;
    for (size_t j = len % 8; j > 0; j--)
        b |= (uint64_t)p[whole + j - 1] << (8 * (j - 1));
    v3 ^= b;
    SIPROUND;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t hash_bytes(const void *key, size_t len)
{
    pthread_once(&sip_once, sip_seed);
    uint64_t h = idmap_siphash(sip_key, key, len);
    return h ? h : 1;
}

static struct idmap_slot *find(const struct idmap *m, const void *key, size_t len, uint64_t h)
{
    size_t mask = m->cap - 1;
    struct idmap *counted = (struct idmap *)m; /* probes: a statistic, not the map's content */
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        struct idmap_slot *s = &m->slots[i];
        counted->probes++;
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
