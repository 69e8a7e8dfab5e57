#ifndef BENCHDB_INGEST_READER_H
#define BENCHDB_INGEST_READER_H
#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

#include "util/sha256.h"
#include "util/strbuf.h"

/* The front of the ingest stream: reads an archive from a file descriptor,
 * hashes the original bytes (SHA-256), hands them to a sink (which stores
 * them), decompresses them when they start with the zstd magic bytes
 * (concatenated frames form one stream), and splits the data into lines.
 * Memory is two fixed buffers plus the longest line, which is bounded. */

/* Receives every original byte in order, the first call coming once
 * r->zstd is known; returns 0, or -1 with *err set. */
typedef int (*reader_sink_fn)(void *arg, const unsigned char *data, size_t n, char **err);

#define READER_IN_SIZE (256u * 1024u)

struct reader {
    int fd;
    uint64_t max_line;  /* longest line accepted, in bytes without its terminator */
    uint64_t max_bytes; /* most data bytes (after decompression) accepted */
    reader_sink_fn sink;
    void *sink_arg;

    struct sha256 sha;
    uint64_t raw_bytes;  /* original bytes read so far */
    uint64_t data_bytes; /* data bytes (after decompression) so far */
    uint64_t lineno;     /* number of the line last returned */
    int zstd;            /* the stream is zstd-compressed */

    /* private */
    int eof, started, zflush, sinking;
    size_t zret;
    ZSTD_DCtx *dctx;
    unsigned char *in, *out;
    size_t in_pos, in_len;
    const unsigned char *data;
    size_t data_pos, data_len;
    struct strbuf line;
};

/* Prepares r to read fd (not closed by the reader). */
int reader_init(struct reader *r, int fd, uint64_t max_line, uint64_t max_bytes,
                reader_sink_fn sink, void *sink_arg);
/* The next line, without its "\n" or "\r\n": returns 1 with *line and *len
 * set (valid until the next call; r->lineno is its number), 0 at the end of
 * the stream, or -1 with *err set. *err_line is set to the line an error
 * belongs to, or 0 when it belongs to no line (read or zstd errors). */
int reader_next_line(struct reader *r, const char **line, size_t *len, char **err, uint64_t *err_line);
/* Reads and hashes whatever is left, without decompressing or passing it
 * to the sink (for the hash of a stream that was refused half-way). */
int reader_drain(struct reader *r, char **err);
/* Hex SHA-256 of the original bytes; call once, after the end. */
void reader_digest(struct reader *r, char hex[65]);
void reader_free(struct reader *r);

/* Hashes everything readable from fd: one pass, fixed memory. */
int hash_fd(int fd, char hex[65], uint64_t *size, char **err);

#endif
