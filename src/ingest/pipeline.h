#ifndef BENCHDB_INGEST_PIPELINE_H
#define BENCHDB_INGEST_PIPELINE_H
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ingest/chunks.h"
#include "ingest/reader.h"

/* The two halves of ingesting one archive run on two threads: a producer
 * reads, hashes, decompresses, splits lines, parses JSON and compresses
 * the original bytes into chunks; the caller (which owns the SQLite
 * connection) validates records and inserts rows. A bounded queue between
 * them keeps memory flat: at most PIPE_ITEMS items and, beyond the first,
 * PIPE_BYTES bytes of line text and chunks in flight. */
#define PIPE_ITEMS 64
#define PIPE_BYTES (8u << 20)
/* A waiting consumer is woken when this many items or bytes are queued (or
 * at an end, an error, a chunk, or when the producer must wait itself), a
 * waiting producer when the queue is half empty (or empty): waking either
 * side for every small record cost a context switch per line. */
#define PIPE_WAKE_ITEMS 16
#define PIPE_WAKE_BYTES (1u << 20)

enum pipe_kind {
    PIPE_RECORD, /* rec: a parsed line (the caller releases it: pipeline_release) */
    PIPE_CHUNK,  /* buf, len: the next stored piece (the caller frees it) */
    PIPE_ERROR,  /* err: what went wrong, at line (0: at no line) */
    PIPE_END,    /* the stream ended cleanly: see sha, raw_bytes, chunks */
    PIPE_HASHED, /* (hash_first) the file was read once and hashed: see pre_sha,
                  * pre_size, container, pre_err; nothing follows when
                  * pre_err or container is set */
};

struct json_arena;

struct pipe_item {
    enum pipe_kind kind;
    uint64_t line;
    size_t size; /* bytes it counts against PIPE_BYTES */
    json_t *rec;
    struct json_arena *arena; /* where rec lives (see pipeline_release) */
    unsigned char *buf;
    char *err;
    int reader_failed; /* PIPE_ERROR: from reading/decompressing, not from JSON */
};

struct pipeline {
    struct reader rd;
    struct chunk_writer chunks; /* compress, seq, stored: valid after PIPE_END */
    char sha[65];               /* set before PIPE_END; "" until the stream was read to its end */
    _Atomic uint64_t raw_bytes; /* original bytes read so far, for progress */
    /* hash_first: set before PIPE_HASHED */
    char pre_sha[65];
    uint64_t pre_size;
    int container;              /* sniff(fd) said so: the caller reads it, the producer stopped */
    char *pre_err;              /* reading failed (freed by pipeline_free) */
    int (*sniff)(int fd);       /* set by the caller before pipeline_start */

    /* private */
    pthread_t thread;
    int running;
    pthread_mutex_t mu;
    pthread_cond_t can_get, can_put;
    struct pipe_item q[PIPE_ITEMS];
    size_t head, count, bytes;
    int cancel;
    int getter_waiting, putter_waiting;
    int hash_first, go;
};

/* Starts the producer on fd. Returns 0, or -1 with *err set.
 *
 * hash_first (a regular file): the producer first reads the whole file to
 * hash it, asks sniff whether it is a container, and queues PIPE_HASHED;
 * then, for a stream, it reads it again from the start, but parses no more
 * than PIPE_WAKE_ITEMS lines (or PIPE_WAKE_BYTES) until pipeline_go. So
 * the next archive of a list is hashed and its first lines parsed while
 * the caller still stores the current one (an archive found already stored
 * costs its hash and those few lines), and no thread starts or reads while
 * the inserting thread waits. */
int pipeline_start(struct pipeline *p, int fd, uint64_t max_line, uint64_t max_bytes, int hash_first, char **err);
/* Lets a hash_first producer read on (after PIPE_HASHED). */
void pipeline_go(struct pipeline *p);
/* The next item, in stream order (blocks). After PIPE_ERROR or PIPE_END
 * there are no more. */
void pipeline_next(struct pipeline *p, struct pipe_item *it);
/* Stops the producer (at once if it is still running), frees what is
 * queued and waits for it. p->rd stays readable (reader_drain) until
 * pipeline_free. */
void pipeline_stop(struct pipeline *p);
/* Frees what an item holds. A record's tree lives in an arena of its own,
 * filled by jansson's allocator on the producer thread: its nodes are
 * neither allocated nor freed one by one (a record of 500 numbers was 1,000
 * malloc and free calls, the free calls on the inserting thread), and the
 * tree is dropped whole, without json_decref's walk. While the caller works
 * on a record it brackets the work with pipeline_hold, so that jansson
 * freeing one of its nodes (a reference taken and dropped) is a no-op; no
 * reference to the tree may outlive pipeline_release. */
void pipeline_hold(struct pipe_item *it);
void pipeline_release(struct pipe_item *it);
void pipeline_free(struct pipeline *p);

/* jansson's allocator for every thread, wrapped so that a line parsed
 * while an allocation failed is refused as out of memory (jansson alone
 * may cut a token short and parse the line wrongly). pipeline_json_checked
 * installs it (ingester_open does); pipeline_json_allocator also sets what
 * it wraps: m and f, or malloc and free when NULL (tests inject faults). */
void pipeline_json_checked(void);
void pipeline_json_allocator(void *(*m)(size_t), void (*f)(void *));

#endif
