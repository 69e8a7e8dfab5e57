#ifndef BENCHDB_INGEST_LOAD_LOADER_H
#define BENCHDB_INGEST_LOAD_LOADER_H
/* The driver, inside: one ingest session (struct ingester) wires a source
 * (sources/pipeline.h) to the record decoder (decoders/run) and the sink,
 * one transaction per archive. */
#include <sqlite3.h>

#include "ingest/core/idmap.h"
#include "ingest/core/report.h"
#include "ingest/decoders/run/run.h"
#include "ingest/ingest.h"
#include "ingest/sink/sink.h"
#include "ingest/sources/kept.h"
#include "ingest/sources/pipeline.h"
#include "util/strbuf.h"

/* A container's members as pass 1 found them, for results records. */
struct member {
    char *path;
    unsigned char *data; /* when kept: malloc'd, or (lent) inside g->bundle_tar */
    size_t len;
    int64_t id;
    int kept, stream, lent;
    char *display; /* a file given on the command line: its name as given */
};

struct members {
    struct member *v;
    size_t n, cap;
    struct idmap index; /* path -> position in v */
};

struct ingester {
    struct db *db;
    struct ingest_options opt;
    struct ingest_hooks hooks;
    struct ingest_report rep;
    struct sink *sink;
    struct run_decoder dec;
    struct ingest_totals totals;

    /* reading: the archive's pipeline, and the next one reading ahead */
    struct pipeline pipes[2];
    struct pipeline *pipe;
    struct source_kept kept; /* zstd contexts both pipelines reuse, archive after archive */
    struct pipe_worker workers[2]; /* pipes[i]'s reading thread, kept from archive to archive */
    int pipe_started;
    char *next_path;  /* ingester_next's: read ahead while the archive is stored */
    char *ahead_path; /* the path being read ahead (next_started), next_path until then */
    int next_fd, next_started;

    /* the archive being loaded */
    const char *shown;        /* its name in messages */
    char *stream_dir;         /* a container's stream member's directory, or a bare stream's on disk */
    struct members members;   /* a container's */
    int bundle;               /* files given on the command line (load/bundle.c) */
    const char *const *bundle_paths, *const *bundle_displays; /* its members (in byte order) and the names given for them */
    size_t n_bundle;
    int bundle_detected; /* the bundle's formats were recognised from the files' content (no --format) */
    /* The bundle's tar, in memory (NULL otherwise), and its SHA-256,
     * computed as it was written: load_archive reads it from there. */
    const unsigned char *bundle_tar;
    size_t bundle_tar_len;
    char bundle_sha[65];
    const struct mem_hash *bundle_known; /* the harness files' own hashes, taken with the tar's */
    size_t n_bundle_known;
    uint64_t streams;         /* run stream members read */
    struct strbuf beside;     /* a file beside a bare stream, while a results record reads it */
    struct idmap beside_ids;  /* its path -> archive_member id */
};

/* How results records find files: in a container, beside a bare stream. */
struct run_files members_files(struct ingester *g);
struct run_files beside_files(struct ingester *g);
/* Adds a member as pass 1 reported it (its row too). */
int members_add(struct ingester *g, struct pipe_item *it);
/* Forgets the archive's members. */
void members_clear(struct members *m);

/* Loads the file on fd (path names it) as one archive: a run stream or
 * a container; bundle_shown, when not NULL, says the file is a bundle of
 * harness files (load/bundle.c) shown under that name, whose tar is
 * g->bundle_tar (fd -1). */
enum ingest_result load_archive(struct ingester *g, const char *path, int fd, int is_stdin, int ahead,
                                const char *bundle_shown);
/* Stops reading the next archive ahead. */
void prefetch_cancel(struct ingester *g);

/* An archive's claim (load/claim.c): a lock keyed by its SHA-256, held
 * while it is stored, that another process storing the same archive
 * waits for however long it takes. */
struct claim {
    int fd;
    char *path;
};
/* Takes the claim on the archive g->shown with this SHA-256: 0 at once,
 * 1 after waiting for another process (then look again whether it is
 * stored: the other has stored it, unless it failed), -1 where no claim
 * can be had (an in-memory store, no file locks): load without one. While
 * it waits: a notice, and g->hooks.waiting. */
int claim_take(struct ingester *g, const char *sha, struct claim *c);
/* Lets go of the claim (if held) and removes its file. */
void claim_release(struct claim *c);

#endif
