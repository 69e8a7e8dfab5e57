#include "ingest/sources/pipeline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/core/paths.h"
#include "ingest/sources/container.h"
#include "ingest/sources/decode.h"
#include "ingest/sources/lines.h"
#include "util/diag.h"
#include "util/sha256.h"
#include "util/strbuf.h"

enum pipe_job pipe_job_for(enum content_kind k)
{
    switch (k) {
    case KIND_RUN_STREAM:
    case KIND_JSON:
    case KIND_EMPTY: return JOB_STREAM;
    case KIND_TAR:
    case KIND_ZIP: return JOB_CONTAINER;
    default: return JOB_NONE;
    }
}

/* ---- the queue ---- */

static void item_free(struct pipe_item *it)
{
    json_doc_free(&it->doc);
    if (!(it->kind == PIPE_MEMBER && (it->flags & MEMBER_LENT)))
        free(it->buf);
    free(it->text);
    free(it->member);
    memset(it, 0, sizeof *it);
}

static size_t item_limit(const struct pipeline *p)
{
    return p->go ? PIPE_ITEMS : PIPE_WAKE_ITEMS;
}

static size_t byte_limit(const struct pipeline *p)
{
    return p->go ? PIPE_BYTES : PIPE_WAKE_BYTES;
}

/* Waits (producer) while the queue is full or need more bytes would pass
 * the limit with anything in flight; -1 when the consumer cancelled. */
static int wait_room(struct pipeline *p, size_t need, int one_more_item)
{
    while (!p->cancel && ((one_more_item && p->count >= item_limit(p)) ||
                          (p->bytes > 0 && p->bytes + need > byte_limit(p)))) {
        if (p->getter_waiting) /* never both waiting */
            pthread_cond_signal(&p->can_get);
        p->putter_waiting = 1;
        pthread_cond_wait(&p->can_put, &p->mu);
    }
    p->putter_waiting = 0;
    return p->cancel ? -1 : 0;
}

/* Before parsing a line of n bytes: waits until it may be held with what
 * is in flight. */
static int room_for_line(struct pipeline *p, size_t n)
{
    pthread_mutex_lock(&p->mu);
    int rc = wait_room(p, n, 0);
    pthread_mutex_unlock(&p->mu);
    return rc;
}

/* Queues an item (taking its contents); -1 when the consumer cancelled. */
static int put(struct pipeline *p, struct pipe_item *it)
{
    pthread_mutex_lock(&p->mu);
    if (wait_room(p, it->size, 1)) {
        pthread_mutex_unlock(&p->mu);
        item_free(it);
        return -1;
    }
    p->q[(p->head + p->count) % PIPE_ITEMS] = *it;
    p->count++;
    p->bytes += it->size;
    if (p->getter_waiting &&
        (it->kind != PIPE_RECORD || p->count >= PIPE_WAKE_ITEMS || p->bytes >= PIPE_WAKE_BYTES))
        pthread_cond_signal(&p->can_get);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

static int put_error(struct pipeline *p, char *err, uint64_t line, const char *member, int flags)
{
    struct pipe_item it = {.kind = PIPE_ERROR, .line = line, .text = err, .flags = flags};
    it.member = member ? strdup(member) : NULL;
    put(p, &it);
    return -1;
}

void pipeline_next(struct pipeline *p, struct pipe_item *it)
{
    pthread_mutex_lock(&p->mu);
    while (p->count == 0) {
        if (p->putter_waiting)
            pthread_cond_signal(&p->can_put);
        p->getter_waiting = 1;
        pthread_cond_wait(&p->can_get, &p->mu);
    }
    p->getter_waiting = 0;
    *it = p->q[p->head];
    p->head = (p->head + 1) % PIPE_ITEMS;
    p->count--;
    pthread_mutex_unlock(&p->mu);
}

void pipeline_release(struct pipeline *p, struct pipe_item *it)
{
    if (it->size) {
        pthread_mutex_lock(&p->mu);
        p->bytes -= it->size;
        /* A waiting producer resumes once the queue is half empty. */
        if (p->putter_waiting && p->count <= PIPE_ITEMS / 2 && p->bytes <= byte_limit(p) / 2)
            pthread_cond_signal(&p->can_put);
        pthread_mutex_unlock(&p->mu);
    }
    item_free(it);
}

/* ---- lines into records ---- */

/* Every line of a run stream as PIPE_RECORD items: 0 at its end, -1 after
 * queueing an error (or when cancelled). */
static int produce_records(struct pipeline *p, struct lines *ln, const char *member)
{
    const char *line;
    size_t len;
    char *err = NULL;
    uint64_t err_line;
    int rc;
    while ((rc = lines_next(ln, &line, &len, &err, &err_line)) > 0) {
        if (line_is_blank(line, len))
            continue;
        if (room_for_line(p, len))
            return -1;
        struct pipe_item it = {.kind = PIPE_RECORD, .line = ln->lineno, .size = len};
        struct json_parse_error je;
        if (json_parse(line, len, &it.doc, &je) != JSON_PARSED)
            return put_error(p, json_parse_message(&je, 0), ln->lineno, member, 0);
        it.size += it.doc.bytes; /* what it holds: the tree more than the text */
        if (put(p, &it))
            return -1;
    }
    if (rc < 0)
        return put_error(p, err, err_line, member, ERROR_READING);
    return 0;
}

/* ---- reading ahead ---- */

/* Until pipeline_go, a file read ahead is read no further than
 * PIPE_WAKE_BYTES of decoded bytes (so it holds no long line, no large
 * decompression window, while the archive before it is stored). */
struct gate {
    struct blocks in;
    struct pipeline *p;
    uint64_t seen;
};

static int gate_next(void *self, const unsigned char **b, size_t *n, char **err)
{
    struct gate *g = self;
    struct pipeline *p = g->p;
    if (g->seen >= PIPE_WAKE_BYTES) {
        pthread_mutex_lock(&p->mu);
        while (!p->go && !p->cancel) {
            if (p->getter_waiting)
                pthread_cond_signal(&p->can_get);
            p->putter_waiting = 1;
            pthread_cond_wait(&p->can_put, &p->mu);
        }
        p->putter_waiting = 0;
        int cancelled = p->cancel;
        pthread_mutex_unlock(&p->mu);
        if (cancelled)
            return bd_fail(err, "cancelled");
    }
    int rc = blocks_next(g->in, b, n, err);
    if (rc > 0)
        g->seen += *n;
    return rc;
}

/* ---- a bare run stream ---- */

static int tee_chunks(void *arg, const unsigned char *b, size_t n, char **err)
{
    struct pipeline *p = arg;
    if (!p->chunks.begun) /* zstd originals are kept as they are */
        chunks_begin(&p->chunks, codec_of(b, n) != CODEC_ZSTD);
    return chunks_write(&p->chunks, b, n, err);
}

static int emit_chunk(void *arg, unsigned char *buf, size_t len, char **err)
{
    struct pipe_item it = {.kind = PIPE_CHUNK, .buf = buf, .size = len};
    if (put(arg, &it))
        return bd_fail(err, "cancelled");
    return 0;
}

/* Standard input is read once: its first bytes are held back to tell what
 * it is, then handed on. */
struct prefix {
    struct blocks in;
    unsigned char *buf;
    size_t len;
    int eof, replayed;
};

#define PREFIX_BYTES (64u * 1024u)

static int prefix_fill(struct prefix *x, char **err)
{
    x->buf = malloc(PREFIX_BYTES);
    if (!x->buf)
        return bd_fail(err, "out of memory");
    while (x->len < PREFIX_BYTES) {
        const unsigned char *b;
        size_t n;
        int rc = blocks_next(x->in, &b, &n, err);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            x->eof = 1;
            break;
        }
        /* The budget counted these bytes already; a block that does not
         * fit whole would be split: keep it whole by growing. */
        if (x->len + n > PREFIX_BYTES) {
            unsigned char *nb = realloc(x->buf, x->len + n);
            if (!nb)
                return bd_fail(err, "out of memory");
            x->buf = nb;
        }
        memcpy(x->buf + x->len, b, n);
        x->len += n;
    }
    return 0;
}

static int prefix_next(void *self, const unsigned char **p, size_t *n, char **err)
{
    struct prefix *x = self;
    if (!x->replayed) {
        x->replayed = 1;
        if (x->len) {
            *p = x->buf;
            *n = x->len;
            return 1;
        }
    }
    if (x->eof)
        return 0;
    return blocks_next(x->in, p, n, err);
}

/* The hash of the bytes read, into p->sha: a buffer in memory
 * (pipeline_start_mem) was hashed by its writer and is not read hashed. */
static void raw_digest(struct pipeline *p)
{
    if (p->raw.hashing)
        rawfile_digest(&p->raw, p->sha);
    else
        memcpy(p->sha, p->pre_sha, sizeof p->sha);
}

static void stream_job(struct pipeline *p)
{
    struct decoder dec;
    decoder_init(&dec, rawfile_blocks(&p->raw), &p->budget, 1);
    dec.kept = p->kept;
    struct gate gate = {decoder_blocks(&dec), p, 0};
    struct blocks src = {gate_next, &gate};
    struct prefix x = {.in = src};
    char *err = NULL;
    struct lines ln;
    if (!p->hash_first) {
        if (prefix_fill(&x, &err)) {
            put_error(p, err, 0, NULL, ERROR_READING);
            goto out;
        }
        enum content_kind k = sniff_content(x.buf, x.len, x.eof);
        if (pipe_job_for(k) != JOB_STREAM) {
            struct pipe_item it = {.kind = PIPE_ERROR, .flags = ERROR_KIND | ERROR_READING, .content = k};
            put(p, &it);
            goto out;
        }
        src = (struct blocks){prefix_next, &x};
    }
    lines_init(&ln, src, p->lim.max_line);
    int rc = produce_records(p, &ln, NULL);
    lines_free(&ln);
    if (rc)
        goto out;
    if (!p->chunks.begun)
        chunks_begin(&p->chunks, 1);
    if (chunks_finish(&p->chunks, &err)) {
        put_error(p, err, 0, NULL, ERROR_READING);
        goto out;
    }
    raw_digest(p);
    struct pipe_item it = {.kind = PIPE_END};
    put(p, &it);
out:
    free(x.buf);
    decoder_free(&dec);
}

/* ---- a container ---- */

struct member_seen {
    char *path;
    char sha[65];
    int stream;
};

/* A member's bytes, hashed on the way (unless known: its hash is). */
struct hashing {
    struct blocks in;
    struct sha256 sha;
    uint64_t n;
    const char *known;
};

static int hashing_next(void *self, const unsigned char **b, size_t *n, char **err)
{
    struct hashing *h = self;
    int rc = blocks_next(h->in, b, n, err);
    if (rc > 0) {
        if (!h->known)
            sha256_update(&h->sha, *b, *n);
        h->n += *n;
    }
    return rc;
}

static void hashing_hex(struct hashing *h, char hex[65])
{
    if (h->known) {
        memcpy(hex, h->known, 65);
        return;
    }
    unsigned char d[32];
    sha256_final(&h->sha, d);
    sha256_hex(d, hex);
}

/* A container's run streams are its members named *.jsonl, optionally
 * with a compression's suffix (what the content is decides how it is
 * decompressed, not the suffix). */
static int is_stream_name(const char *path)
{
    static const char *const suffixes[] = {".jsonl", ".jsonl.zst", ".jsonl.gz", ".jsonl.xz", ".jsonl.bz2", NULL};
    for (int i = 0; suffixes[i]; i++)
        if (path_has_suffix(path, suffixes[i]))
            return 1;
    return 0;
}

/* A new entry at the end of *m for the member at path: NULL (the error
 * put) when memory runs out. */
static struct member_seen *member_add(struct pipeline *p, struct member_seen **m, size_t *n, size_t *cap,
                                      const char *path)
{
    if (*n == *cap) {
        size_t ncap = *cap ? 2 * *cap : 64;
        struct member_seen *nm = realloc(*m, ncap * sizeof *nm);
        if (!nm) {
            put_error(p, bd_strdupf("out of memory"), 0, NULL, ERROR_READING);
            return NULL;
        }
        *m = nm;
        *cap = ncap;
    }
    struct member_seen *ms = &(*m)[*n];
    memset(ms, 0, sizeof *ms);
    ms->path = strdup(path);
    if (!ms->path) {
        put_error(p, bd_strdupf("out of memory"), 0, NULL, ERROR_READING);
        return NULL;
    }
    (*n)++;
    return ms;
}

/* 1 when the n bytes at b lie inside the pipeline's buffer in memory. */
static int in_mem(const struct pipeline *p, const unsigned char *b, size_t n)
{
    uintptr_t at = (uintptr_t)b, lo = (uintptr_t)p->mem;
    return p->mem && at >= lo && n <= p->mem_len && at - lo <= p->mem_len - n;
}

/* 1 when p reads a plain tar in memory (load/bundle.c's), which
 * container_open_mem reads without libarchive. */
static int own_tar(const struct pipeline *p)
{
    return p->mem && p->sniffed.depth == 0 && p->sniffed.kind == KIND_TAR;
}

/* The hash its writer took of the current member of own_tar's c, when
 * the member lies exactly where one was taken (pipeline_start_mem); NULL
 * otherwise. */
static const char *known_hash(struct pipeline *p, const struct container *c)
{
    size_t at = (size_t)(c->mem_member - p->mem);
    while (p->known_next < p->n_known && p->known[p->known_next].at < at)
        p->known_next++;
    if (p->known_next < p->n_known && p->known[p->known_next].at == at && p->known[p->known_next].n == c->mem_member_n)
        return p->known[p->known_next].sha;
    return NULL;
}

/* Reads the current member of c to its end: its hash and size into ms
 * and a PIPE_MEMBER item, with its bytes when it is not a run stream and
 * the bytes kept so far (*kept) leave room. 0, or -1 with the error put. */
static int member_read(struct pipeline *p, struct container *c, struct member_seen *ms, uint64_t *kept)
{
    char *err = NULL;
    ms->stream = is_stream_name(ms->path);
    int zip = strcmp(c->format, "zip") == 0;
    struct hashing h = {.in = container_member(c), .known = own_tar(p) ? known_hash(p, c) : NULL};
    sha256_init(&h.sha);
    struct strbuf keep = {0};
    int keeping = !ms->stream;
    /* A member of a container in memory (load/bundle.c's tar) is kept
     * where it lies, not copied, while its blocks follow one another
     * there (libarchive hands out pointers into it); from the first that
     * does not, what was lent so far is copied and the rest with it. */
    const unsigned char *lent = NULL;
    size_t lent_n = 0;
    const unsigned char *b;
    size_t k;
    int got;
    while ((got = hashing_next(&h, &b, &k, &err)) > 0) {
        /* a zip member is inflated: that counts; a tar's bytes counted as the tar's */
        int over = zip ? budget_expand(&p->budget, k) : 0;
        if (over == -1) {
            err = bd_strdupf("the container holds more than %llu bytes after decompression (--max-bytes)",
                             (unsigned long long)p->budget.max);
            got = -1;
            break;
        }
        if (over) {
            got = decode_ratio_fail(&p->budget, &err);
            break;
        }
        if (keeping && *kept + keep.len + lent_n + k > CONTAINER_KEEP_MAX) {
            keeping = 0; /* too large to keep: a results record naming it is refused */
            sb_free(&keep);
            lent = NULL;
            lent_n = 0;
        }
        if (keeping && keep.len == 0 && in_mem(p, b, k) && (lent_n == 0 || b == lent + lent_n)) {
            lent = lent_n ? lent : b;
            lent_n += k;
            continue;
        }
        if (keeping && lent_n) {
            if (sb_append(&keep, lent, lent_n)) {
                err = bd_strdupf("out of memory");
                got = -1;
                break;
            }
            lent = NULL;
            lent_n = 0;
        }
        if (keeping && sb_append(&keep, b, k)) {
            err = bd_strdupf("out of memory");
            got = -1;
            break;
        }
    }
    if (got < 0) {
        sb_free(&keep);
        return put_error(p, err, 0, ms->path, ERROR_READING);
    }
    hashing_hex(&h, ms->sha);
    struct pipe_item it = {.kind = PIPE_MEMBER, .n = h.n, .flags = (ms->stream ? MEMBER_STREAM : 0)};
    memcpy(it.sha, ms->sha, sizeof it.sha);
    it.text = strdup(ms->path);
    if (keeping && lent_n) { /* held in flight by the caller's buffer, not by the item */
        it.flags |= MEMBER_KEPT | MEMBER_LENT;
        *kept += lent_n;
        it.buf = (unsigned char *)lent;
    } else if (keeping) {
        it.flags |= MEMBER_KEPT;
        *kept += keep.len;
        it.size = keep.len;
        it.buf = keep.buf ? (unsigned char *)sb_detach(&keep) : NULL;
    }
    if (!it.text) {
        item_free(&it);
        return put_error(p, bd_strdupf("out of memory"), 0, NULL, ERROR_READING);
    }
    return put(p, &it) ? -1 : 0;
}

/* After the last member: the rest of the file stored and hashed, the file
 * checked unchanged since the first read, the container's format noted
 * and PIPE_MEMBERS_DONE put. 0, or -1 with the error put. */
static int container_end(struct pipeline *p, const struct container *c, const struct decoder *dec)
{
    char *err = NULL;
    int rc = 0;
    /* The rest of the file (zip directory, tar padding, what follows the
     * last frame) is stored and hashed too, not decoded. */
    const unsigned char *b;
    size_t k;
    int got;
    while ((got = blocks_next(rawfile_blocks(&p->raw), &b, &k, &err)) > 0)
        ;
    if (got < 0 || chunks_finish(&p->chunks, &err))
        rc = put_error(p, err, 0, NULL, ERROR_READING);
    if (rc == 0) {
        raw_digest(p);
        if (strcmp(p->sha, p->pre_sha) != 0 || atomic_load(&p->raw.bytes) != p->pre_size)
            rc = put_error(p, bd_strdupf("changed while being read (its SHA-256 differs between two reads)"), 0, NULL,
                           ERROR_READING);
    }
    if (rc == 0) {
        snprintf(p->container_format, sizeof p->container_format, "%s%s%s", c->format[0] ? c->format : "tar",
                 dec->depth ? "+" : "", dec->depth ? codec_name(dec->codecs[0]) : "");
        struct pipe_item it = {.kind = PIPE_MEMBERS_DONE};
        rc = put(p, &it);
    }
    return rc;
}

/* Pass 1: every member's hash, size and (for results records) bytes. */
static int container_members(struct pipeline *p, struct member_seen **out, size_t *count)
{
    int plain_tar = p->sniffed.depth == 0 && p->sniffed.kind == KIND_TAR;
    chunks_begin(&p->chunks, plain_tar); /* a compressed container is kept as it is */
    struct decoder dec;
    decoder_init(&dec, rawfile_blocks(&p->raw), &p->budget, 1);
    dec.kept = p->kept;
    struct gate gate = {decoder_blocks(&dec), p, 0};
    struct container c;
    char *err = NULL, *err_member = NULL;
    struct member_seen *m = NULL;
    size_t n = 0, cap = 0;
    uint64_t kept = 0;
    struct blocks in = {gate_next, &gate};
    int rc = own_tar(p) ? container_open_mem(&c, in, p->mem, p->mem_len, p->lim.max_members, 1, &err)
                        : container_open(&c, in, p->lim.max_members, 1, &err);
    if (rc)
        put_error(p, err, 0, NULL, ERROR_READING);
    while (rc == 0) {
        int r = container_next(&c, &err, &err_member);
        if (r <= 0) {
            if (r < 0) {
                put_error(p, err, 0, err_member, ERROR_READING);
                free(err_member);
                rc = -1;
            }
            break;
        }
        struct member_seen *ms = member_add(p, &m, &n, &cap, c.path.buf);
        rc = ms ? member_read(p, &c, ms, &kept) : -1;
    }
    if (rc == 0)
        rc = container_end(p, &c, &dec);
    container_close(&c);
    decoder_free(&dec);
    *out = m;
    *count = n;
    return rc;
}

/* Pass 2 on the container read from in (NULL: own_tar's, in memory). */
static int container_streams_of(struct pipeline *p, struct member_seen *m, size_t n, struct blocks *in)
{
    struct container c;
    char *err = NULL;
    size_t i = 0;
    int rc = in ? container_open(&c, *in, UINT64_MAX, 0, &err)
                : container_open_mem(&c, (struct blocks){0}, p->mem, p->mem_len, UINT64_MAX, 0, &err);
    if (rc)
        put_error(p, err, 0, NULL, ERROR_READING);
    while (rc == 0 && i < n) {
        int r = container_next(&c, &err, NULL);
        if (r < 0) {
            rc = put_error(p, err, 0, NULL, ERROR_READING);
            break;
        }
        if (r == 0)
            break;
        struct member_seen *ms = &m[i++];
        if (!ms->stream)
            continue;
        struct pipe_item it = {.kind = PIPE_STREAM, .text = strdup(ms->path)};
        if (!it.text) {
            rc = put_error(p, bd_strdupf("out of memory"), 0, NULL, ERROR_READING);
            break;
        }
        if (put(p, &it)) {
            rc = -1;
            break;
        }
        struct hashing h = {.in = container_member(&c)};
        sha256_init(&h.sha);
        struct decoder inner;
        decoder_init(&inner, (struct blocks){hashing_next, &h}, &p->budget, 0);
        inner.inner = 1;
        inner.kept = p->kept;
        struct lines ln;
        lines_init(&ln, decoder_blocks(&inner), p->lim.max_line);
        rc = produce_records(p, &ln, ms->path);
        lines_free(&ln);
        decoder_free(&inner);
        if (rc == 0) { /* whatever the decoder left unread still belongs to the member */
            const unsigned char *b;
            size_t k;
            int got;
            while ((got = hashing_next(&h, &b, &k, &err)) > 0)
                ;
            char hex[65];
            hashing_hex(&h, hex);
            if (got < 0)
                rc = put_error(p, err, 0, ms->path, ERROR_READING);
            else if (strcmp(hex, ms->sha) != 0)
                rc = put_error(p, bd_strdupf("changed while being read (its SHA-256 differs between two reads)"), 0,
                               ms->path, ERROR_READING);
        }
        if (rc == 0) {
            struct pipe_item end = {.kind = PIPE_STREAM_END};
            rc = put(p, &end);
        }
    }
    if (rc == 0 && i < n)
        rc = put_error(p, bd_strdupf("changed while being read (fewer members on the second read)"), 0, NULL,
                       ERROR_READING);
    container_close(&c);
    return rc;
}

/* Pass 2: each run stream member, record by record. */
static int container_streams(struct pipeline *p, struct member_seen *m, size_t n)
{
    if (own_tar(p))
        return container_streams_of(p, m, n, NULL);
    if (!p->mem && lseek(p->fd, 0, SEEK_SET) != 0)
        return put_error(p, bd_strdupf("cannot seek: %s", strerror(errno)), 0, NULL, ERROR_READING);
    struct rawfile raw;
    if (p->mem ? rawfile_init_mem(&raw, p->mem, p->mem_len, NULL, NULL) : rawfile_init(&raw, p->fd, NULL, NULL))
        return put_error(p, bd_strdupf("out of memory"), 0, NULL, ERROR_READING);
    /* Pass 1 hashed the whole container and checked it; here each stream
     * member's own hash (below) says whether it changed since. */
    raw.hashing = 0;
    struct decoder dec;
    decoder_init(&dec, rawfile_blocks(&raw), NULL, 0); /* counted in pass 1 */
    dec.kept = p->kept;
    struct blocks in = decoder_blocks(&dec);
    int rc = container_streams_of(p, m, n, &in);
    decoder_free(&dec);
    rawfile_free(&raw);
    return rc;
}

static void container_job(struct pipeline *p)
{
    struct member_seen *m = NULL;
    size_t n = 0;
    int rc = container_members(p, &m, &n);
    if (rc == 0)
        rc = container_streams(p, m, n);
    if (rc == 0) {
        struct pipe_item it = {.kind = PIPE_END};
        put(p, &it);
    }
    for (size_t i = 0; i < n; i++)
        free(m[i].path);
    free(m);
}

/* ---- the producer ---- */

static void *produce(void *arg)
{
    struct pipeline *p = arg;
    enum pipe_job job = JOB_STREAM;
    if (p->hash_first) {
        struct pipe_item it = {.kind = PIPE_HASHED};
        if (p->mem) { /* its writer hashed it: its size is all that is left to know */
            memcpy(p->pre_sha, p->known_sha, sizeof p->pre_sha);
            p->pre_size = p->mem_len;
        } else {
            hash_fd(p->fd, p->pre_sha, &p->pre_size, &p->pre_err); /* a failure says why in pre_err */
        }
        if (!p->pre_err && !p->mem && lseek(p->fd, 0, SEEK_SET) != 0)
            p->pre_err = bd_strdupf("%s", strerror(errno));
        char *serr = NULL;
        struct membuf m = {p->mem, p->mem_len, 0};
        if (!p->pre_err && (p->mem ? sniff_blocks(membuf_blocks(&m), p->kept, &p->sniffed, &serr)
                                   : sniff_fd_kept(p->fd, p->kept, &p->sniffed, &serr))) {
            /* undecodable from the start: read as a stream, which says where */
            free(serr);
            p->sniffed = (struct sniffed){KIND_RUN_STREAM, 0, CODEC_NONE};
        }
        job = p->pre_err ? JOB_NONE : pipe_job_for(p->sniffed.kind);
        if (put(p, &it) || job == JOB_NONE)
            return NULL;
    }
    if (job == JOB_STREAM)
        stream_job(p);
    else
        container_job(p);
    return NULL;
}

/* ---- the kept reading thread ---- */

static void *worker_main(void *arg)
{
    struct pipe_worker *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->job && !w->quit)
            pthread_cond_wait(&w->cv, &w->mu);
        if (!w->job)
            break;
        struct pipeline *p = w->job;
        pthread_mutex_unlock(&w->mu);
        produce(p);
        pthread_mutex_lock(&w->mu);
        w->job = NULL; /* p is the consumer's again */
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

void pipe_worker_init(struct pipe_worker *w)
{
    *w = (struct pipe_worker){0};
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
}

void pipe_worker_free(struct pipe_worker *w)
{
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    if (w->started)
        pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
}

/* Hands p to w, starting w's thread the first time; -1 when it cannot. */
static int worker_run(struct pipe_worker *w, struct pipeline *p)
{
    pthread_mutex_lock(&w->mu);
    int rc = 0;
    if (!w->started) {
        rc = pthread_create(&w->thread, NULL, worker_main, w) == 0 ? 0 : -1;
        w->started = rc == 0;
    }
    while (rc == 0 && w->job) /* one pipeline at a time: the last one's end first */
        pthread_cond_wait(&w->cv, &w->mu);
    if (rc == 0) {
        w->job = p;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return rc;
}

/* Waits until w has finished p. */
static void worker_wait(struct pipe_worker *w, struct pipeline *p)
{
    pthread_mutex_lock(&w->mu);
    while (w->job == p)
        pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

/* fd, or (mem not NULL) the n bytes at mem, whose SHA-256 is sha. */
static int start(struct pipeline *p, int fd, const unsigned char *mem, size_t n, const char *sha,
                 const struct mem_hash *known, size_t n_known, const struct pipe_limits *lim, int hash_first, struct source_kept *kept, struct pipe_worker *worker,
                 char **err)
{
    memset(p, 0, sizeof *p);
    p->kept = kept;
    p->worker = worker;
    p->fd = fd;
    p->mem = mem;
    p->mem_len = n;
    if (mem)
        snprintf(p->known_sha, sizeof p->known_sha, "%s", sha);
    p->known = known;
    p->n_known = n_known;
    p->lim = *lim;
    p->hash_first = hash_first;
    p->go = !hash_first;
    budget_init(&p->budget, lim->max_bytes);
    budget_set_ratio(&p->budget, &p->raw.bytes, lim->max_ratio, lim->ratio_free);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->can_get, NULL);
    pthread_cond_init(&p->can_put, NULL);
    p->inited = 1;
    if ((mem ? rawfile_init_mem(&p->raw, mem, n, tee_chunks, p) : rawfile_init(&p->raw, fd, tee_chunks, p)) ||
        chunks_init(&p->chunks, emit_chunk, p, kept, err))
        return bd_fail(err, "out of memory");
    struct stat st;
    p->chunks.size_hint = mem ? n : fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
    /* Bytes in this process's memory, hashed as they were written there,
     * cannot change while read: the check of a file read twice (that the
     * bytes stored are the bytes hashed) holds by construction. */
    p->raw.hashing = mem == NULL;
    if (worker ? worker_run(worker, p) : pthread_create(&p->thread, NULL, produce, p) != 0)
        return bd_fail(err, "cannot start a thread");
    p->running = 1;
    return 0;
}

int pipeline_start(struct pipeline *p, int fd, const struct pipe_limits *lim, int hash_first,
                   struct source_kept *kept, struct pipe_worker *worker, char **err)
{
    return start(p, fd, NULL, 0, NULL, NULL, 0, lim, hash_first, kept, worker, err);
}

int pipeline_start_mem(struct pipeline *p, const void *mem, size_t n, const char *sha, const struct mem_hash *known,
                       size_t n_known, const struct pipe_limits *lim, struct source_kept *kept,
                       struct pipe_worker *worker, char **err)
{
    return start(p, -1, mem ? mem : (const void *)"", n, sha, known, n_known, lim, 1, kept, worker, err);
}

void pipeline_go(struct pipeline *p)
{
    pthread_mutex_lock(&p->mu);
    p->go = 1;
    if (p->putter_waiting)
        pthread_cond_signal(&p->can_put);
    pthread_mutex_unlock(&p->mu);
}

void pipeline_stop(struct pipeline *p)
{
    if (!p->running)
        return;
    pthread_mutex_lock(&p->mu);
    p->cancel = 1;
    pthread_cond_broadcast(&p->can_put);
    pthread_mutex_unlock(&p->mu);
    if (p->worker)
        worker_wait(p->worker, p);
    else
        pthread_join(p->thread, NULL);
    p->running = 0;
    while (p->count > 0) {
        item_free(&p->q[p->head]);
        p->head = (p->head + 1) % PIPE_ITEMS;
        p->count--;
    }
}

void pipeline_free(struct pipeline *p)
{
    if (!p->inited)
        return;
    pipeline_stop(p);
    rawfile_free(&p->raw);
    chunks_free(&p->chunks);
    free(p->pre_err);
    p->pre_err = NULL;
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->can_get);
    pthread_cond_destroy(&p->can_put);
    p->inited = 0;
}
