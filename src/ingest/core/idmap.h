#ifndef BENCHDB_INGEST_CORE_IDMAP_H
#define BENCHDB_INGEST_CORE_IDMAP_H
#include <stddef.h>
#include <stdint.h>

/* A hash map from byte-string keys to 64-bit values: the sink's id
 * caches (plan, host, variant, benchmark names to row ids, for one
 * transaction), the readers' cells and the loader's per-run bookkeeping.
 * Open addressing with linear probing; keys are copied into one arena per
 * map, so an entry costs one slot plus its key bytes. The hash is SipHash
 * keyed with a secret chosen per process, so that keys an archive
 * chooses cannot be made to share slots. Zero-initialise to start. */
struct idmap_slot {
    uint64_t hash;  /* 0 marks an empty slot */
    size_t key_off; /* offset of the key in the arena */
    size_t key_len;
    int64_t value;
};

struct idmap {
    struct idmap_slot *slots;
    size_t cap;   /* power of two, or 0 */
    size_t count;
    char *arena;
    size_t arena_len, arena_cap;
    size_t probes; /* slots looked at, since the map was made or freed (for the tests) */
};

/* Returns a pointer to the value stored for key, or NULL. The pointer is
 * valid until the next idmap_put or idmap_clear. */
int64_t *idmap_get(const struct idmap *m, const void *key, size_t len);
/* Sets key to value (replacing an earlier value); -1 when memory ran out. */
int idmap_put(struct idmap *m, const void *key, size_t len, int64_t value);
/* Empties the map, keeping its memory when it is small. */
void idmap_clear(struct idmap *m);
void idmap_free(struct idmap *m);
/* SipHash-2-4 of data under key (the map's hash, under its own key). */
uint64_t idmap_siphash(const uint64_t key[2], const void *data, size_t len);

#endif
