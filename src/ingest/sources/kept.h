#ifndef BENCHDB_INGEST_SOURCES_KEPT_H
#define BENCHDB_INGEST_SOURCES_KEPT_H
/* zstd contexts kept from one archive to the next of one ingest session
 * (docs/architecture.md, "What the source layer keeps"). Creating a zstd
 * context asks the CPU what it supports (cpuid), which on a virtual
 * machine traps to the hypervisor: with three contexts per archive (the
 * sniff's and the read's decompression, the stored chunks' compression)
 * that was about an eighth of the CPU of ingesting a thousand small
 * archives. A context given back is kept only while it is small (at most
 * KEPT_MAX_BYTES with its buffers), at most KEPT_MAX of each kind, so
 * what is kept adds a fixed amount to the memory bound; a context taken is
 * reset (session and parameters) first, so nothing of an archive, even one
 * whose decompression failed half-way, reaches the next. Both pipelines of
 * a session (the archive stored and the one read ahead) take and give from
 * their producer threads: a mutex guards the lists. */
#include <pthread.h>
#include <stddef.h>
#include <zstd.h>

#define KEPT_MAX 2
/* The largest context kept: a decompression context with an 8 MiB window
 * (zstd's levels up to 19; decode.h's inner window) and its buffers; the
 * chunks' level-1 compression context is far smaller. */
#define KEPT_MAX_BYTES ((size_t)9 << 20)

struct source_kept {
    pthread_mutex_t mu;
    ZSTD_DCtx *dctx[KEPT_MAX];
    unsigned char *dout[KEPT_MAX]; /* each dctx's output buffer, ZSTD_DStreamOutSize() bytes */
    int ndctx;
    ZSTD_CCtx *cctx[KEPT_MAX];
    int ncctx;
    /* counts, for the tests: contexts created, and taken from the lists */
    unsigned long created, reused;
};

void kept_init(struct source_kept *k);
/* Frees what is kept. */
void kept_free(struct source_kept *k);

/* A decompression context reset with its window limited to window_log,
 * and its output buffer (ZSTD_DStreamOutSize() bytes): a kept one or a
 * new one (k may be NULL: always new). -1 when memory runs out. */
int kept_take_dctx(struct source_kept *k, int window_log, ZSTD_DCtx **d, unsigned char **out);
/* Keeps (or frees) a context and its buffer; either may be NULL. */
void kept_give_dctx(struct source_kept *k, ZSTD_DCtx *d, unsigned char *out);
/* A compression context, reset (the caller sets its parameters), kept or
 * new; NULL when memory runs out. */
ZSTD_CCtx *kept_take_cctx(struct source_kept *k);
void kept_give_cctx(struct source_kept *k, ZSTD_CCtx *c);

#endif
