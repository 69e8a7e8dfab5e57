#ifndef BENCHDB_INGEST_SOURCES_CHUNKS_H
#define BENCHDB_INGEST_SOURCES_CHUNKS_H
#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

/* Cuts an archive's stored bytes into pieces of at most CHUNK_MAX bytes
 * (the archive_chunk rows, in order): either the original bytes unchanged
 * (content_encoding 'identity', for an original that already is zstd) or
 * the original compressed with zstd as it streams by ('zstd'). Each full
 * piece goes to emit, which takes ownership of the malloc'd buffer. */
#define CHUNK_MAX (1u << 20)
#define CHUNK_FIRST (64u * 1024u) /* an archive's first piece's buffer at first (chunks.c, have_room) */
#define CHUNK_ZSTD_LEVEL 1 /* on benchmark output level 1 compresses about as well as 3, twice as fast */
#define CHUNK_ZSTD_LEVEL_WLOG 19 /* level 1's window (zstd's compression tables): 512 KiB */

typedef int (*chunk_emit_fn)(void *arg, unsigned char *buf, size_t len, char **err);

struct chunk_writer {
    chunk_emit_fn emit;
    void *arg;
    int begun;
    int64_t seq; /* pieces emitted */
    int compress;
    uint64_t stored; /* bytes written to chunks so far */
    ZSTD_CCtx *cctx;
    struct source_kept *kept; /* where cctx goes back (kept.h; NULL: freed) */
    unsigned char *buf; /* NULL until the next piece's first byte */
    size_t cap;         /* buf's size */
    size_t len;
    uint64_t size_hint; /* the original's size when known before it is read (0: not known) */
};

struct source_kept;
/* Its compression context from kept (NULL: a new one). */
int chunks_init(struct chunk_writer *w, chunk_emit_fn emit, void *arg, struct source_kept *kept, char **err);
/* Starts an archive; compress is decided by the caller from the first bytes. */
void chunks_begin(struct chunk_writer *w, int compress);
int chunks_write(struct chunk_writer *w, const unsigned char *data, size_t n, char **err);
/* Writes what is left (ends the zstd frame). */
int chunks_finish(struct chunk_writer *w, char **err);
void chunks_free(struct chunk_writer *w);

#endif
