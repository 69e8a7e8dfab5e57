#ifndef BENCHDB_INGEST_INGEST_H
#define BENCHDB_INGEST_INGEST_H
/* Ingest, as the commands use it: loading run archives and harness files
 * into the store (one transaction per archive), telling what a file
 * holds, and removing what was stored. docs/architecture.md draws the
 * layers behind it; docs/archive-format.md and docs/formats.md say what
 * is read. */
#include <sqlite3.h>

#include "store/db.h"
#include <stddef.h>
#include <stdint.h>

#define INGEST_DEFAULT_MAX_LINE (64ull << 20)  /* 64 MiB */
#define INGEST_DEFAULT_MAX_BYTES (64ull << 30) /* 64 GiB of data after decompression */
#define INGEST_DEFAULT_MAX_MEMBERS 100000ull   /* files in a tar or zip */
#define INGEST_DEFAULT_MAX_SERIES 100000ull    /* series in one archive */
/* Decompression may give at most this many bytes per byte read, beyond
 * the first INGEST_RATIO_FREE bytes (docs/archive-format.md, "Limits"). */
#define INGEST_DEFAULT_MAX_RATIO 1000ull
#define INGEST_RATIO_FREE (64ull << 20)

/* The notices ingest prints on stderr; warnings and errors are always
 * printed. */
enum ingest_notices {
    INGEST_NOTICES_ALL,   /* skipped, replaced, and that a refused archive was not stored */
    INGEST_NOTICES_QUIET, /* ingest --quiet: only that a refused archive was not stored (it completes the error) */
    INGEST_NOTICES_NONE,  /* none: the caller says what became of the files (compare keeps nothing) */
};

struct ingest_options {
    uint64_t max_line_bytes;
    uint64_t max_bytes;
    int replace; /* replace runs stored from other archives */
    enum ingest_notices notices;
    uint64_t max_members; /* files a container may hold */
    uint64_t max_series;  /* series one archive may hold (0: the default) */
    uint64_t max_ratio;   /* decompressed bytes per byte read (0: the default) */
    int failures_only_ok; /* a harness file whose every benchmark failed is taken, its
                             failures stored as events with no value (compare on files,
                             where they are the answer); else it is refused */
};

/* Every limit at its default: the options of an ingest no one tuned. */
#define INGEST_OPTIONS_DEFAULT                                                                                         \
    {.max_line_bytes = INGEST_DEFAULT_MAX_LINE, .max_bytes = INGEST_DEFAULT_MAX_BYTES,                                \
     .max_members = INGEST_DEFAULT_MAX_MEMBERS, .max_series = INGEST_DEFAULT_MAX_SERIES,                              \
     .max_ratio = INGEST_DEFAULT_MAX_RATIO}

/* Counts over the whole command; rows counts every row written. */
struct ingest_totals {
    uint64_t loaded, skipped, failed;
    uint64_t runs, series, samples, gates, events, rows;
    uint64_t warmups; /* of the samples, warmup values */
};

/* Called while loading: before printing a message (to clear a progress
 * line), and regularly (to refresh it); while waiting for another process
 * storing the same archive, regularly with its pid (0: unknown) and the
 * seconds waited so far, then once with seconds < 0 when the wait is over. */
struct ingest_hooks {
    void (*before_message)(void *arg);
    void (*progress)(void *arg);
    void *arg;
    void (*waiting)(void *arg, long pid, double seconds);
};

enum ingest_result { INGEST_LOADED, INGEST_SKIPPED, INGEST_FAILED };

struct ingester;

/* Prepares a whole command's statements and caches on a store opened
 * with STORE_WRITE. NULL with *err set on failure. */
struct ingester *ingester_open(struct db *db, const struct ingest_options *opt, const struct ingest_hooks *hooks,
                               char **err);
void ingester_close(struct ingester *g);

/* Loads one archive: path names a file (a run stream or a tar or zip of
 * them), or is "-" for standard input. Prints its errors (file:line:
 * field: what was expected, got what), warnings and notices on stderr. */
enum ingest_result ingester_archive(struct ingester *g, const char *path);
/* Names the archive ingester_archive will be given next (NULL: none), so
 * that a regular file is hashed and its first lines parsed on another
 * thread while the current one is stored. Messages and results stay in
 * order. */
void ingester_next(struct ingester *g, const char *path);

/* A run for harness files given on the command line. */
struct ingest_run {
    const char *plan, *run, *host;
    const char *source, *started_at; /* NULL: none (started_at: RFC 3339) */
    long long position;              /* 0: none */
    const char *const *attrs;        /* "KEY=VALUE", keys distinct */
    size_t n_attrs;
    const char *variant; /* the values' variant */
    long long block;     /* and block */
    const char *harness_format; /* every file read as this harness format; NULL: each file's own, as detected */
    int append;          /* add to the stored run */
    const char *stored_hint; /* what the error for a run already stored suggests ("; ..."); NULL: --append */
};

/* One harness file: where it is ("-": standard input) and the name it is
 * stored under in the archive (distinct within the run). */
struct ingest_file {
    const char *path;
    const char *name;
};

/* Loads harness files into one run, as one archive that holds their bytes
 * (docs/archive-format.md, "Harness files given on the command line").
 * shown names the archive (the arguments as given). */
enum ingest_result ingester_files(struct ingester *g, const struct ingest_run *run, const struct ingest_file *files,
                                  size_t n, const char *shown);

const struct ingest_totals *ingester_totals(const struct ingester *g);
/* While loading (from a progress hook): original bytes of the current
 * archive read so far, and rows written by the command so far. */
void ingester_live(const struct ingester *g, uint64_t *bytes, uint64_t *rows);

/* ---- what a file holds ---- */

enum ingest_kind {
    INGEST_KIND_UNKNOWN,  /* nothing benchdb reads */
    INGEST_KIND_ARCHIVE,  /* a run stream or a container of them */
    INGEST_KIND_HARNESS,  /* harness output: *harness names it */
    INGEST_KIND_COMPANION, /* a harness's file read with the one beside it (Criterion's benchmark.json) */
};

/* "the file is empty: ", put before what a file of that many bytes does
 * not hold when it holds none, else "": one wording of an empty file for
 * every message (ingest's and compare's). */
const char *ingest_empty_note(uint64_t bytes);
/* "UTF-16 text (...), which benchdb does not read: save it as UTF-8 (...): "
 * when p[0..n) starts with UTF-16's byte order mark (FF FE or FE FF: what
 * Windows PowerShell 5's '>' writes), else "": put before what such a
 * file does not hold, in every message that says a file is of no format. */
const char *ingest_encoding_note(const void *p, size_t n);
/* Whether a directory walk takes the harness file at path: not a copy a
 * harness keeps of an earlier run (Criterion.rs's base/ and other saved
 * baselines beside new/). */
int ingest_walk_takes(const char *path, const char *harness);
/* kept (ingest_kept_new; NULL: none) lends zstd contexts from one file to
 * the next, which saves creating one per file (docs/architecture.md). */
struct source_kept;
/* Sniffs the file at path by its content. -1 with *err when it cannot be
 * read. */
int ingest_classify(const char *path, struct source_kept *kept, enum ingest_kind *kind, const char **harness,
                    char **err);
/* NULL when memory runs out (then classify without). */
struct source_kept *ingest_kept_new(void);
void ingest_kept_free(struct source_kept *kept);
/* The same for bytes held in memory; *compressed says whether they were
 * compressed (what they hold is told after decompression). */
int ingest_classify_buffer(const void *p, size_t n, enum ingest_kind *kind, const char **harness, int *compressed,
                           char **err);
/* Text the store keeps is UTF-8 without NUL: 0 when s is, else -1 with
 * what is wrong in what ("is not valid UTF-8 (byte 0xFF at byte 3)"). */
int ingest_text_check(const char *s, char *what, size_t size);
/* The host a harness file names: Google Benchmark's context.host_name
 * (an uncompressed file). 0 with *host malloc'd, or NULL when the file
 * names none; -1 with *err when it cannot be read. */
#define INGEST_HARNESS_PEEK_MAX ((size_t)64 << 20)
int ingest_file_host(const char *path, char **host, char **err);
/* True when s is an RFC 3339 date-time (--started-at). */
int ingest_time_valid(const char *s);
/* True when name is a harness format; ingest_harness_list() lists them
 * ("jmh, google-benchmark, ...", the adapters' table in order). */
int ingest_harness_known(const char *name);
const char *ingest_harness_list(void);
/* The i-th harness format's name (0, 1, ...), NULL past the last. */
const char *ingest_harness_at(size_t i);

/* ---- removing ---- */

struct ingest_removal {
    long long archives, runs, series, samples, gates, events, members, chunks, plans;
};

/* Removes an archive (archive > 0), a run (plan and run) or a plan's runs
 * (plan alone), with everything they stored; archives left with nothing go
 * too. dry_run counts and changes nothing. 0, 1 when there is no such
 * thing, -1 on a store error; *err says why. */
int ingest_remove(struct db *db, long long archive, const char *plan, const char *run, int dry_run,
                  struct ingest_removal *out, char **err);

#endif
