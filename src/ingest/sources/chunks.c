#include "ingest/sources/chunks.h"

#include <stdlib.h>
#include <string.h>

#include "ingest/sources/kept.h"
#include "util/diag.h"

int chunks_init(struct chunk_writer *w, chunk_emit_fn emit, void *arg, struct source_kept *kept, char **err)
{
    memset(w, 0, sizeof *w);
    w->emit = emit;
    w->arg = arg;
    w->kept = kept;
    w->cctx = kept_take_cctx(kept);
    if (!w->cctx)
        return bd_fail(err, "out of memory");
    return 0;
}

void chunks_free(struct chunk_writer *w)
{
    kept_give_cctx(w->kept, w->cctx);
    free(w->buf);
    memset(w, 0, sizeof *w);
}

/* Room in the buffer of the next piece, allocated when the first byte of
 * it comes (the last piece's successor is never needed: a small archive's
 * one piece costs one buffer, not two). An archive's first piece starts
 * at CHUNK_FIRST and doubles as it fills, so that a small archive's piece
 * costs a small buffer (under AddressSanitizer a block of 128 KB or more
 * is mapped and unmapped on its own, which the allocation sweep of
 * tests/unit/test_ingest_oom.c paid on every run); once one piece has
 * filled, the next ones are CHUNK_MAX at once. Pieces are cut at
 * CHUNK_MAX whatever the buffer's size. */
static int have_room(struct chunk_writer *w, char **err)
{
    if (w->buf && w->len < w->cap)
        return 0;
    size_t cap = w->buf ? 2 * w->cap : w->seq == 0 ? CHUNK_FIRST : CHUNK_MAX;
    if (cap > CHUNK_MAX)
        cap = CHUNK_MAX;
    unsigned char *b = realloc(w->buf, cap);
    if (!b)
        return bd_fail(err, "out of memory");
    w->buf = b;
    w->cap = cap;
    return 0;
}

void chunks_begin(struct chunk_writer *w, int compress)
{
    w->begun = 1;
    w->seq = 0;
    w->len = 0;
    w->stored = 0;
    w->compress = compress;
    if (compress) {
        ZSTD_CCtx_reset(w->cctx, ZSTD_reset_session_and_parameters);
        ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, CHUNK_ZSTD_LEVEL);
        ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1);
        /* A window no larger than the original: level 1's 512 KiB window
         * (and the input buffer of its size) for a file of a few KiB
         * costs more to set up than to compress. The same ratio (every
         * byte of the original within the window); a hint that proves
         * short (a file still growing) costs only ratio. */
        if (w->size_hint > 0 && w->size_hint < (uint64_t)1 << CHUNK_ZSTD_LEVEL_WLOG) {
            int wlog = ZSTD_cParam_getBounds(ZSTD_c_windowLog).lowerBound;
            while (((uint64_t)1 << wlog) < w->size_hint)
                wlog++;
            ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_windowLog, wlog);
        }
    }
}

static int flush(struct chunk_writer *w, char **err)
{
    if (w->len == 0)
        return 0;
    unsigned char *full = w->buf;
    size_t len = w->len;
    w->buf = NULL;
    w->cap = 0;
    w->len = 0;
    w->stored += len;
    w->seq++;
    return w->emit(w->arg, full, len, err);
}

int chunks_write(struct chunk_writer *w, const unsigned char *data, size_t n, char **err)
{
    if (!w->compress) {
        while (n > 0) {
            if (have_room(w, err))
                return -1;
            size_t k = w->cap - w->len < n ? w->cap - w->len : n;
            memcpy(w->buf + w->len, data, k);
            w->len += k;
            data += k;
            n -= k;
            if (w->len == CHUNK_MAX && flush(w, err))
                return -1;
        }
        return 0;
    }
    ZSTD_inBuffer in = {data, n, 0};
    while (in.pos < in.size) {
        if (have_room(w, err))
            return -1;
        ZSTD_outBuffer out = {w->buf, w->cap, w->len};
        size_t r = ZSTD_compressStream2(w->cctx, &out, &in, ZSTD_e_continue);
        if (ZSTD_isError(r))
            return bd_fail(err, "zstd compression failed: %s", ZSTD_getErrorName(r));
        w->len = out.pos;
        if (w->len == CHUNK_MAX && flush(w, err))
            return -1;
    }
    return 0;
}

int chunks_finish(struct chunk_writer *w, char **err)
{
    if (w->compress) {
        ZSTD_inBuffer in = {NULL, 0, 0};
        size_t r;
        do {
            if (have_room(w, err))
                return -1;
            ZSTD_outBuffer out = {w->buf, w->cap, w->len};
            r = ZSTD_compressStream2(w->cctx, &out, &in, ZSTD_e_end);
            if (ZSTD_isError(r))
                return bd_fail(err, "zstd compression failed: %s", ZSTD_getErrorName(r));
            w->len = out.pos;
            if ((w->len == CHUNK_MAX || r == 0) && flush(w, err))
                return -1;
        } while (r != 0);
        return 0;
    }
    return flush(w, err);
}
