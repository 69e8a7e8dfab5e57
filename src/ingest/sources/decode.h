#ifndef BENCHDB_INGEST_SOURCES_DECODE_H
#define BENCHDB_INGEST_SOURCES_DECODE_H
/* Decompression, recognised by magic bytes and never by name: zstd (its
 * own decoder; concatenated frames form one stream), gzip, xz and bzip2
 * (libarchive, one filter per layer). A layer's output is looked at again,
 * so a gzip inside a gzip is undone too, up to DECODE_DEPTH_MAX layers.
 * Every layer counts what it produces against the archive's budget
 * (--max-bytes, --max-ratio), so no layer of a bomb goes unbounded. */
#include <stdint.h>

#include "ingest/core/budget.h"
#include "ingest/sources/blocks.h"

#define DECODE_DEPTH_MAX 4
/* The largest zstd window a frame may ask for: 128 MiB (zstd's own limit
 * by default, which --long and --ultra reach) for the file's own
 * compression, 8 MiB (what zstd's levels up to 19 use) for any layer
 * further in (a .jsonl.zst in a .tar.zst, a compressed harness file, zstd
 * inside gzip), so that all windows take at most 128 + 7 x 8 MiB
 * (docs/reliability.md). */
#define DECODE_ZSTD_WINDOW_LOG 27
#define DECODE_ZSTD_INNER_WINDOW_LOG 23

enum codec { CODEC_NONE, CODEC_ZSTD, CODEC_GZIP, CODEC_XZ, CODEC_BZIP2 };

/* The codec whose magic bytes p (n bytes) starts with, or CODEC_NONE. */
enum codec codec_of(const unsigned char *p, size_t n);
/* "zstd", "gzip", "xz", "bzip2" */
const char *codec_name(enum codec c);
/* The most magic bytes codec_of looks at. */
#define CODEC_MAGIC_MAX 6

struct decode_layer;
struct source_kept;

struct peeker {
    struct blocks in;
    unsigned char head[CODEC_MAGIC_MAX];
    size_t head_len;
    const unsigned char *rest; /* what is left of the block that completed head */
    size_t rest_n;
    int state; /* 0 not looked at, 1 head pending, 2 rest pending, 3 passing through */
};

struct decoder {
    struct budget *budget; /* NULL: no limit */
    int count_plain;       /* count the bytes even when no layer decompresses */
    int inner;             /* what a file holds, not the file: the smaller zstd window */
    struct source_kept *kept; /* zstd contexts taken from and given back to (kept.h); NULL: none */
    int depth;             /* decompression layers (0: plain), known after the first block */
    enum codec codecs[DECODE_DEPTH_MAX]; /* outermost first */
    uint64_t out_bytes;    /* bytes given out */

    /* private */
    struct peeker peek[DECODE_DEPTH_MAX + 1];
    struct decode_layer *layer[DECODE_DEPTH_MAX];
    int started;
};

/* Prepares d to decode in. budget may be NULL; count_plain says whether
 * bytes that no layer decompressed count against it (the top of an
 * archive: yes; a container member, whose bytes the container counted
 * already: no). Set d->inner before the first read for what a file holds,
 * and d->kept to reuse zstd contexts across archives. */
void decoder_init(struct decoder *d, struct blocks in, struct budget *budget, int count_plain);
/* The decoded bytes. The first call finds the layers. */
struct blocks decoder_blocks(struct decoder *d);
void decoder_free(struct decoder *d);

/* The message for decompression past the budget's ratio (--max-ratio); -1. */
int decode_ratio_fail(const struct budget *b, char **err);

/* Decodes a whole buffer into out (at most what budget allows). */
struct strbuf;
int decode_buffer(const unsigned char *p, size_t n, struct budget *budget, struct strbuf *out, int *depth, char **err);

#endif
