#include "ingest/sources/kept.h"

#include <stdlib.h>

void kept_init(struct source_kept *k)
{
    *k = (struct source_kept){0};
    pthread_mutex_init(&k->mu, NULL);
}

void kept_free(struct source_kept *k)
{
    for (int i = 0; i < k->ndctx; i++) {
        ZSTD_freeDCtx(k->dctx[i]);
        free(k->dout[i]);
    }
    for (int i = 0; i < k->ncctx; i++)
        ZSTD_freeCCtx(k->cctx[i]);
    k->ndctx = k->ncctx = 0;
    pthread_mutex_destroy(&k->mu);
}

int kept_take_dctx(struct source_kept *k, int window_log, ZSTD_DCtx **d, unsigned char **out)
{
    *d = NULL;
    *out = NULL;
    if (k) {
        pthread_mutex_lock(&k->mu);
        if (k->ndctx > 0) {
            k->ndctx--;
            *d = k->dctx[k->ndctx];
            *out = k->dout[k->ndctx];
            k->reused++;
        } else {
            k->created++;
        }
        pthread_mutex_unlock(&k->mu);
    }
    if (*d) /* whatever the last archive left, even a frame failed half-way */
        ZSTD_DCtx_reset(*d, ZSTD_reset_session_and_parameters);
    else
        *d = ZSTD_createDCtx();
    if (!*out)
        *out = malloc(ZSTD_DStreamOutSize());
    if (!*d || !*out || ZSTD_isError(ZSTD_DCtx_setParameter(*d, ZSTD_d_windowLogMax, window_log))) {
        ZSTD_freeDCtx(*d);
        free(*out);
        *d = NULL;
        *out = NULL;
        return -1;
    }
    return 0;
}

void kept_give_dctx(struct source_kept *k, ZSTD_DCtx *d, unsigned char *out)
{
    if (k && d && out && ZSTD_sizeof_DCtx(d) <= KEPT_MAX_BYTES) {
        pthread_mutex_lock(&k->mu);
        int kept = k->ndctx < KEPT_MAX;
        if (kept) {
            k->dctx[k->ndctx] = d;
            k->dout[k->ndctx] = out;
            k->ndctx++;
        }
        pthread_mutex_unlock(&k->mu);
        if (kept)
            return;
    }
    ZSTD_freeDCtx(d);
    free(out);
}

ZSTD_CCtx *kept_take_cctx(struct source_kept *k)
{
    ZSTD_CCtx *c = NULL;
    if (k) {
        pthread_mutex_lock(&k->mu);
        if (k->ncctx > 0) {
            c = k->cctx[--k->ncctx];
            k->reused++;
        } else {
            k->created++;
        }
        pthread_mutex_unlock(&k->mu);
    }
    if (c) {
        ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
        return c;
    }
    return ZSTD_createCCtx();
}

void kept_give_cctx(struct source_kept *k, ZSTD_CCtx *c)
{
    if (k && c && ZSTD_sizeof_CCtx(c) <= KEPT_MAX_BYTES) {
        pthread_mutex_lock(&k->mu);
        int kept = k->ncctx < KEPT_MAX;
        if (kept)
            k->cctx[k->ncctx++] = c;
        pthread_mutex_unlock(&k->mu);
        if (kept)
            return;
    }
    ZSTD_freeCCtx(c);
}
