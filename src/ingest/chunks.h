#ifndef BENCHDB_INGEST_CHUNKS_H
#define BENCHDB_INGEST_CHUNKS_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

/* Writes an archive's stored bytes as archive_chunk rows of at most
 * CHUNK_MAX bytes, numbered from 0: either the original bytes unchanged
 * (content_encoding 'identity', for an original that already is zstd) or
 * the original compressed with zstd as it streams by ('zstd'). */
#define CHUNK_MAX (1u << 20)
#define CHUNK_ZSTD_LEVEL 1 /* on benchmark output level 1 compresses about as well as 3, twice as fast */

struct chunk_writer {
    sqlite3_stmt *insert; /* INSERT INTO archive_chunk(archive_id, seq, data) VALUES (?, ?, ?) */
    int64_t archive_id;
    int64_t seq;
    int compress;
    uint64_t stored; /* bytes written to chunks so far */
    ZSTD_CCtx *cctx;
    unsigned char *buf;
    size_t len;
};

/* Prepares the writer once for a whole command. */
int chunks_init(struct chunk_writer *w, sqlite3 *db, char **err);
/* Starts an archive; compress is decided by the caller from the first bytes. */
void chunks_begin(struct chunk_writer *w, int64_t archive_id, int compress);
int chunks_write(struct chunk_writer *w, const unsigned char *data, size_t n, char **err);
/* Writes what is left (ends the zstd frame). */
int chunks_finish(struct chunk_writer *w, char **err);
void chunks_free(struct chunk_writer *w);

#endif
