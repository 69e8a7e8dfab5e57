#ifndef BENCHDB_INGEST_SOURCES_PIPELINE_H
#define BENCHDB_INGEST_SOURCES_PIPELINE_H
/* Reading one archive on a thread of its own (the producer) while the
 * caller (the consumer, which owns the SQLite connection) stores what it
 * hands over: the archive's stored bytes in chunks, a container's members,
 * and every parsed line of every run stream, in order. A bounded queue
 * between them keeps memory flat: at most PIPE_ITEMS items and, beyond
 * the first, PIPE_BYTES bytes of items in flight, an item counting until
 * the consumer releases it (a line counts its text and its parsed tree).
 * The producer does not start parsing a line that would pass PIPE_BYTES
 * while anything is in flight, so one very long line is parsed only when
 * nothing else is held.
 *
 * The producer's jobs:
 *  - a bare run stream: file bytes -> hash, stored chunks -> decode.h ->
 *    lines.h -> jsonparse.h -> PIPE_RECORD items;
 *  - a container (a regular file only): pass 1 reads every member (hash,
 *    size, kept bytes of non-stream members: PIPE_MEMBER) while storing
 *    the file's bytes; pass 2 reads the file again and each run stream
 *    member (*.jsonl, *.jsonl.zst) through the same decode, lines and
 *    JSON parser as a bare stream (PIPE_STREAM, PIPE_RECORD...,
 *    PIPE_STREAM_END), checking that each member hashes as it did. */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ingest/core/budget.h"
#include "ingest/sources/chunks.h"
#include "ingest/core/jsonparse.h"
#include "ingest/sources/rawfile.h"
#include "ingest/sources/sniff.h"

#define PIPE_ITEMS 64
#define PIPE_BYTES (8u << 20)
/* A waiting consumer is woken when this many items or bytes are queued (or
 * at an end, an error, a chunk, or when the producer must wait itself), a
 * waiting producer when the queue is half empty; before pipeline_go a
 * read-ahead producer stops at these. */
#define PIPE_WAKE_ITEMS 16
#define PIPE_WAKE_BYTES (1u << 20)
/* Bytes of a container's non-stream members kept in memory for results
 * records, together. */
#define CONTAINER_KEEP_MAX (64ull << 20)

enum pipe_kind {
    PIPE_HASHED,       /* (hash_first) the file was hashed and sniffed: pre_sha, pre_size, sniffed, pre_err */
    PIPE_CHUNK,        /* buf, size: the next stored piece (the consumer takes buf) */
    PIPE_MEMBER,       /* a container member: text (path), sha, n (size), buf (its bytes when kept), flags */
    PIPE_MEMBERS_DONE, /* pass 1 is over: container_format is set */
    PIPE_STREAM,       /* text: the run stream member whose records follow */
    PIPE_RECORD,       /* doc: a parsed line, at line */
    PIPE_STREAM_END,   /* the stream member ended and hashed as in pass 1 */
    PIPE_ERROR,        /* text at line (0: none) of member (NULL: none); see flags, kind */
    PIPE_END,          /* read to the end: sha */
};

#define MEMBER_STREAM 1 /* PIPE_MEMBER: a run stream */
#define MEMBER_KEPT 2   /* PIPE_MEMBER: buf holds its bytes */
#define MEMBER_LENT 4   /* PIPE_MEMBER: buf points into pipeline_start_mem's bytes (not freed with the item) */
#define ERROR_READING 1 /* PIPE_ERROR: from reading or decompressing, not from a line */
#define ERROR_KIND 2    /* PIPE_ERROR: standard input holds `kind`, not a run stream */

struct pipe_item {
    enum pipe_kind kind;
    uint64_t line;
    size_t size; /* counted in flight until released */
    struct json_doc doc;
    unsigned char *buf;
    char *text;
    char *member;
    char sha[65];
    uint64_t n;
    int flags;
    enum content_kind content; /* ERROR_KIND */
};

struct pipe_limits {
    uint64_t max_line, max_bytes, max_members;
    uint64_t max_ratio, ratio_free; /* decompression per byte read, past the first ratio_free bytes (0: no limit) */
};

struct pipeline {
    /* For the consumer. */
    struct budget budget;       /* --max-bytes for this archive (harness files count against it too) */
    struct rawfile raw;         /* raw.bytes for progress; readable after pipeline_stop */
    struct chunk_writer chunks; /* compress, seq, stored: valid after PIPE_END */
    char sha[65];               /* PIPE_END */
    char pre_sha[65];           /* PIPE_HASHED */
    uint64_t pre_size;
    struct sniffed sniffed;
    char *pre_err;
    char container_format[32]; /* PIPE_MEMBERS_DONE: tar, tar+zstd, zip... */

    /* private */
    int fd;                   /* -1 with mem */
    const unsigned char *mem; /* pipeline_start_mem: the bytes read, mem_len of them */
    size_t mem_len;
    struct pipe_limits lim;
    pthread_t thread;
    int running, inited;
    pthread_mutex_t mu;
    pthread_cond_t can_get, can_put;
    struct pipe_item q[PIPE_ITEMS];
    size_t head, count, bytes;
    int cancel, getter_waiting, putter_waiting, hash_first, go;
    char known_sha[65]; /* with mem: its SHA-256 */
    const struct mem_hash *known; /* with mem: n_known stretches' hashes, in order; known_next looked at next */
    size_t n_known, known_next;
    struct source_kept *kept; /* zstd contexts reused across archives (kept.h), or NULL */
    struct pipe_worker *worker; /* the thread that runs the producer, or NULL: its own */
};

/* A stretch of pipeline_start_mem's bytes whose SHA-256 their writer took
 * as it wrote them, with the whole's (load/bundle.c: each harness file in
 * its tar, the two hashes in one pass, util/sha256.h sha256_update2): a
 * member lying exactly there is not hashed again. */
struct mem_hash {
    size_t at, n;
    char sha[65];
};

/* A reading thread kept from one archive to the next: pipeline_start hands
 * it the archive instead of starting a thread for it (creating a thread per
 * small archive cost as much CPU as reading it; docs/architecture.md). One
 * per pipeline at a time. */
struct pipe_worker {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct pipeline *job; /* handed over and not yet finished; NULL: idle */
    int started, quit;
    pthread_t thread;
};

void pipe_worker_init(struct pipe_worker *w);
/* Ends the thread; no pipeline may be running on it. */
void pipe_worker_free(struct pipe_worker *w);

/* What the producer does with a file of this kind after hashing it. */
enum pipe_job { JOB_NONE, JOB_STREAM, JOB_CONTAINER };
enum pipe_job pipe_job_for(enum content_kind k);

/* Starts the producer on fd. hash_first (a regular file): it first hashes
 * the whole file and sniffs it (PIPE_HASHED), then does its job, reading
 * no more than PIPE_WAKE_BYTES of decoded bytes (and queueing no more than
 * PIPE_WAKE_ITEMS items) until pipeline_go, so that the next archive of a
 * list is hashed and its first lines parsed while the current one is
 * stored, without holding a long line or a large window. Without
 * hash_first (standard input) the file is read once as a run stream.
 * kept (NULL: none) lends the zstd contexts and worker (NULL: a thread of
 * its own) runs the producer; both must outlive pipeline_free. 0, or -1
 * with *err. */
struct source_kept;
int pipeline_start(struct pipeline *p, int fd, const struct pipe_limits *lim, int hash_first,
                   struct source_kept *kept, struct pipe_worker *worker, char **err);
/* The same (hash_first) on n bytes in memory (load/bundle.c's tar), which
 * stay valid and unchanged until pipeline_free, and whose SHA-256 (hex)
 * their writer computed as it wrote them: taken as the hash, and the
 * bytes read without hashing them again; likewise the n_known stretches
 * of known (in the order of the bytes; they must outlive p), taken as
 * the hashes of the members lying exactly there. */
int pipeline_start_mem(struct pipeline *p, const void *mem, size_t n, const char *sha, const struct mem_hash *known,
                       size_t n_known, const struct pipe_limits *lim, struct source_kept *kept,
                       struct pipe_worker *worker, char **err);
void pipeline_go(struct pipeline *p);
/* The next item, in order (blocks). Nothing follows PIPE_ERROR or PIPE_END. */
void pipeline_next(struct pipeline *p, struct pipe_item *it);
/* Frees what an item holds and stops counting it in flight. */
void pipeline_release(struct pipeline *p, struct pipe_item *it);
/* Stops the producer and frees what is queued; p->raw stays readable
 * (rawfile_drain) until pipeline_free. */
void pipeline_stop(struct pipeline *p);
void pipeline_free(struct pipeline *p);

#endif
