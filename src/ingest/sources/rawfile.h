#ifndef BENCHDB_INGEST_SOURCES_RAWFILE_H
#define BENCHDB_INGEST_SOURCES_RAWFILE_H
/* The bytes of a file descriptor as read (or of a buffer in memory):
 * hashed (SHA-256) on the way and passed, in order, to a tee (which
 * stores them as the archive's chunks).
 * The first block holds at least 4 bytes unless the file is shorter, so
 * the tee can tell zstd by its magic bytes from its first call. */
#include <stdatomic.h>
#include <stdint.h>

#include "ingest/sources/blocks.h"
#include "util/sha256.h"

#define RAWFILE_BLOCK (256u * 1024u)

typedef int (*rawfile_tee_fn)(void *arg, const unsigned char *p, size_t n, char **err);

struct rawfile {
    int fd; /* not closed here */
    struct sha256 sha;
    _Atomic uint64_t bytes; /* read so far (read by other threads for progress) */
    rawfile_tee_fn tee;     /* NULL: none */
    void *tee_arg;
    /* 1 after rawfile_init; 0: the bytes are not hashed (a second reading
     * of bytes whose hash the first reading took, rawfile_digest unused) */
    int hashing;

    /* private */
    unsigned char *buf;
    size_t cap; /* buf's size: RAWFILE_BLOCK, or less for a small file */
    int eof;
    const unsigned char *mem; /* rawfile_init_mem: the bytes, mem_len of them, mem_at read */
    size_t mem_len, mem_at;
};

int rawfile_init(struct rawfile *r, int fd, rawfile_tee_fn tee, void *tee_arg);
/* The same over n bytes at p, which stay valid and unchanged while read
 * (one block, pointing into them); fd is -1. */
int rawfile_init_mem(struct rawfile *r, const void *p, size_t n, rawfile_tee_fn tee, void *tee_arg);
struct blocks rawfile_blocks(struct rawfile *r);
/* Reads and hashes whatever is left without passing it on (the hash of a
 * stream refused half-way). */
int rawfile_drain(struct rawfile *r, char **err);
/* Hex SHA-256 of the bytes read; once, at the end. */
void rawfile_digest(struct rawfile *r, char hex[65]);
void rawfile_free(struct rawfile *r);

/* Hashes everything readable from fd: one pass, fixed memory. */
int hash_fd(int fd, char hex[65], uint64_t *size, char **err);

#endif
