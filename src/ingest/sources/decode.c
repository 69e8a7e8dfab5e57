#include "ingest/sources/decode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "ingest/sources/kept.h"
#include "ingest/sources/la.h"
#include "util/diag.h"
#include "util/strbuf.h"

enum codec codec_of(const unsigned char *p, size_t n)
{
    if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd)
        return CODEC_ZSTD;
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return CODEC_GZIP;
    if (n >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
        return CODEC_XZ;
    if (n >= 3 && memcmp(p, "BZh", 3) == 0)
        return CODEC_BZIP2;
    return CODEC_NONE;
}

const char *codec_name(enum codec c)
{
    switch (c) {
    case CODEC_ZSTD: return "zstd";
    case CODEC_GZIP: return "gzip";
    case CODEC_XZ: return "xz";
    case CODEC_BZIP2: return "bzip2";
    case CODEC_NONE: break;
    }
    return "plain";
}

/* ---- looking at the first bytes without losing them ---- */

static int peek_fill(struct peeker *k, char **err)
{
    const unsigned char *p;
    size_t n;
    k->state = 1;
    while (k->head_len < CODEC_MAGIC_MAX) {
        int rc = blocks_next(k->in, &p, &n, err);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return 0;
        if (k->head_len == 0 && n >= CODEC_MAGIC_MAX) { /* the usual case: no copy */
            k->rest = p;
            k->rest_n = n;
            k->state = 2;
            return 0;
        }
        size_t take = CODEC_MAGIC_MAX - k->head_len < n ? CODEC_MAGIC_MAX - k->head_len : n;
        memcpy(k->head + k->head_len, p, take);
        k->head_len += take;
        k->rest = p + take;
        k->rest_n = n - take;
    }
    return 0;
}

/* The first bytes (after peek_fill). */
static const unsigned char *peek_head(const struct peeker *k, size_t *n)
{
    if (k->state == 2 && k->head_len == 0) {
        *n = k->rest_n;
        return k->rest;
    }
    *n = k->head_len;
    return k->head;
}

static int peek_next(void *self, const unsigned char **p, size_t *n, char **err)
{
    struct peeker *k = self;
    if (k->state == 0 && peek_fill(k, err))
        return -1;
    if (k->state == 1) {
        k->state = 2;
        if (k->head_len) {
            *p = k->head;
            *n = k->head_len;
            return 1;
        }
    }
    if (k->state == 2) {
        k->state = 3;
        if (k->rest_n) {
            *p = k->rest;
            *n = k->rest_n;
            return 1;
        }
    }
    return blocks_next(k->in, p, n, err);
}

/* ---- layers ---- */

struct decode_layer {
    enum codec codec;
    int window_log;
    struct blocks below;
    uint64_t in_bytes; /* taken from below, for messages */
    struct budget *budget;
    int *decompressed; /* for the budget's message */
    /* zstd */
    struct source_kept *kept; /* where dctx and out go back (NULL: freed) */
    ZSTD_DCtx *dctx;
    const unsigned char *ip;
    size_t in_pos, in_len, zret;
    unsigned char *out;
    int flush, eof;
    /* libarchive */
    struct archive *a;
    int a_eof;
};

static int over_budget(struct budget *b, uint64_t n, char **err)
{
    int rc = budget_expand(b, n);
    if (rc == 0)
        return 0;
    if (rc == -1)
        return bd_fail(err, "more than %llu bytes of data after decompression (the limit; raise it with --max-bytes)",
                       (unsigned long long)b->max);
    return decode_ratio_fail(b, err);
}

int decode_ratio_fail(const struct budget *b, char **err)
{
    uint64_t given, read;
    budget_ratio_numbers(b, &given, &read);
    return bd_fail(err, "decompresses to more than %llu times the bytes read (%llu bytes from %llu: the limit past the "
                        "first %llu MiB; raise it with --max-ratio)",
                   (unsigned long long)b->ratio, (unsigned long long)given, (unsigned long long)read,
                   (unsigned long long)(b->free >> 20));
}

static int zstd_next(void *self, const unsigned char **p, size_t *n, char **err)
{
    struct decode_layer *L = self;
    size_t outsize = ZSTD_DStreamOutSize();
    for (;;) {
        if (L->in_pos == L->in_len && !L->flush) {
            if (L->eof)
                return 0;
            int rc = blocks_next(L->below, &L->ip, &L->in_len, err);
            if (rc < 0)
                return -1;
            L->in_pos = 0;
            if (rc == 0) {
                L->eof = 1;
                L->in_len = 0;
                if (L->zret != 0)
                    return bd_fail(err, "truncated zstd stream: the last frame ends early, after %llu bytes",
                                   (unsigned long long)L->in_bytes);
                return 0;
            }
            L->in_bytes += L->in_len;
            continue;
        }
        ZSTD_inBuffer ib = {L->ip, L->in_len, L->in_pos};
        ZSTD_outBuffer ob = {L->out, outsize, 0};
        L->zret = ZSTD_decompressStream(L->dctx, &ob, &ib);
        if (ZSTD_isError(L->zret) && ZSTD_getErrorCode(L->zret) == ZSTD_error_frameParameter_windowTooLarge)
            return bd_fail(err, "zstd stream needs a window of more than %d MiB (written with --long or --ultra?): "
                                "the most benchdb gives a zstd frame here, which bounds its memory; recompress it "
                                "without",
                           1 << (L->window_log - 20));
        if (ZSTD_isError(L->zret))
            return bd_fail(err, "corrupt zstd stream (%s) within the first %llu bytes", ZSTD_getErrorName(L->zret),
                           (unsigned long long)L->in_bytes);
        L->in_pos = ib.pos;
        L->flush = ob.pos == ob.size && L->zret != 0; /* 0: the frame is complete and flushed */
        if (ob.pos > 0) {
            if (over_budget(L->budget, ob.pos, err))
                return -1;
            *p = L->out;
            *n = ob.pos;
            return 1;
        }
    }
}

static la_ssize_t archive_below(struct archive *a, void *arg, const void **buf)
{
    struct decode_layer *L = arg;
    const unsigned char *p;
    size_t n;
    char *err = NULL;
    int rc = blocks_next(L->below, &p, &n, &err);
    if (rc < 0) {
        archive_set_error(a, EIO, "%s", err ? err : "read error");
        free(err);
        return -1;
    }
    if (rc == 0)
        return 0;
    L->in_bytes += n;
    *buf = p;
    return (la_ssize_t)n;
}

static int archive_next(void *self, const unsigned char **p, size_t *n, char **err)
{
    struct decode_layer *L = self;
    if (L->a_eof)
        return 0;
    const void *buf;
    size_t len;
    la_int64_t off;
    for (;;) {
        int r = archive_read_data_block(L->a, &buf, &len, &off);
        if (r == ARCHIVE_EOF) {
            L->a_eof = 1;
            return 0;
        }
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
            return bd_fail(err, "corrupt %s data: %s", codec_name(L->codec), archive_error_string(L->a));
        if (len == 0)
            continue;
        if (over_budget(L->budget, len, err))
            return -1;
        *p = buf;
        *n = len;
        return 1;
    }
}

static void layer_free(struct decode_layer *L)
{
    if (!L)
        return;
    kept_give_dctx(L->kept, L->dctx, L->out);
    if (L->a)
        archive_read_free(L->a);
    free(L);
}

static struct decode_layer *layer_new(enum codec c, struct blocks below, struct budget *b, int window_log,
                                      struct source_kept *kept, char **err)
{
    struct decode_layer *L = calloc(1, sizeof *L);
    if (!L) {
        bd_fail(err, "out of memory");
        return NULL;
    }
    L->codec = c;
    L->window_log = window_log;
    L->below = below;
    L->budget = b;
    if (c == CODEC_ZSTD) {
        L->kept = kept;
        if (kept_take_dctx(kept, window_log, &L->dctx, &L->out)) {
            layer_free(L);
            bd_fail(err, "out of memory");
            return NULL;
        }
        return L;
    }
    int code = c == CODEC_GZIP ? ARCHIVE_FILTER_GZIP : c == CODEC_XZ ? ARCHIVE_FILTER_XZ : ARCHIVE_FILTER_BZIP2;
    if (la_load(err)) {
        layer_free(L);
        return NULL;
    }
    L->a = archive_read_new();
    struct archive_entry *e;
    int r = !L->a ? ARCHIVE_FATAL : archive_read_support_format_raw(L->a);
    if (r == ARCHIVE_OK)
        r = archive_read_support_format_empty(L->a);
    if (r == ARCHIVE_OK)
        r = archive_read_append_filter(L->a, code);
    if (r == ARCHIVE_OK)
        r = archive_read_open(L->a, L, NULL, archive_below, NULL);
    if (r == ARCHIVE_OK) {
        r = archive_read_next_header(L->a, &e);
        if (r == ARCHIVE_EOF) { /* decompresses to nothing */
            L->a_eof = 1;
            r = ARCHIVE_OK;
        }
    }
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
        bd_fail(err, "corrupt %s data: %s", codec_name(c), L->a ? archive_error_string(L->a) : "out of memory");
        layer_free(L);
        return NULL;
    }
    return L;
}

/* ---- the stack ---- */

void decoder_init(struct decoder *d, struct blocks in, struct budget *budget, int count_plain)
{
    memset(d, 0, sizeof *d);
    d->budget = budget;
    d->count_plain = count_plain;
    d->peek[0].in = in;
}

static int start(struct decoder *d, char **err)
{
    d->started = 1;
    for (;;) {
        struct peeker *k = &d->peek[d->depth];
        if (peek_fill(k, err))
            return -1;
        size_t n;
        const unsigned char *h = peek_head(k, &n);
        enum codec c = codec_of(h, n);
        if (c == CODEC_NONE || d->depth == DECODE_DEPTH_MAX)
            return 0;
        int window_log = d->inner || d->depth > 0 ? DECODE_ZSTD_INNER_WINDOW_LOG : DECODE_ZSTD_WINDOW_LOG;
        struct decode_layer *L = layer_new(c, (struct blocks){peek_next, k}, d->budget, window_log, d->kept, err);
        if (!L)
            return -1;
        d->layer[d->depth] = L;
        d->codecs[d->depth] = c;
        struct blocks out = {c == CODEC_ZSTD ? zstd_next : archive_next, L};
        d->depth++;
        d->peek[d->depth].in = out;
    }
}

static int decoder_next(void *self, const unsigned char **p, size_t *n, char **err)
{
    struct decoder *d = self;
    if (!d->started && start(d, err))
        return -1;
    int rc = peek_next(&d->peek[d->depth], p, n, err);
    if (rc > 0) {
        d->out_bytes += *n;
        if (d->depth == 0 && d->count_plain && d->budget && budget_take(d->budget, *n))
            return bd_fail(err, "more than %llu bytes of data (the limit; raise it with --max-bytes)",
                           (unsigned long long)d->budget->max);
    }
    return rc;
}

struct blocks decoder_blocks(struct decoder *d)
{
    return (struct blocks){decoder_next, d};
}

void decoder_free(struct decoder *d)
{
    for (int i = 0; i < DECODE_DEPTH_MAX; i++) {
        layer_free(d->layer[i]);
        d->layer[i] = NULL;
    }
}

/* ---- a whole buffer ---- */

int decode_buffer(const unsigned char *p, size_t n, struct budget *budget, struct strbuf *out, int *depth, char **err)
{
    struct membuf m = {p, n, 0};
    struct decoder d;
    decoder_init(&d, membuf_blocks(&m), budget, 0);
    d.inner = 1;
    struct blocks b = decoder_blocks(&d);
    const unsigned char *q;
    size_t k;
    int rc;
    while ((rc = blocks_next(b, &q, &k, err)) > 0) {
        if (sb_append(out, q, k)) {
            rc = bd_fail(err, "out of memory");
            break;
        }
    }
    if (depth)
        *depth = d.depth;
    decoder_free(&d);
    return rc < 0 ? -1 : 0;
}
