#ifndef BENCHDB_INGEST_INGEST_H
#define BENCHDB_INGEST_INGEST_H
#include <sqlite3.h>
#include <stdint.h>

/* The loader: reads benchdb-run/1 archives (docs/archive-format.md) into
 * the store, one transaction per archive. Used by 'benchdb ingest'. */

#define INGEST_DEFAULT_MAX_LINE (64ull << 20)  /* 64 MiB */
#define INGEST_DEFAULT_MAX_BYTES (64ull << 30) /* 64 GiB of data after decompression */
#define INGEST_DEFAULT_MAX_MEMBERS 100000ull   /* files in a tar or zip */

struct ingest_options {
    uint64_t max_line_bytes;
    uint64_t max_bytes;
    int replace; /* replace runs stored from other archives */
    int quiet;   /* no notices (skipped, replaced); warnings and errors stay */
    uint64_t max_members; /* files a container may hold (0: the default) */
};

/* Counts over the whole command; rows counts every row written. */
struct ingest_totals {
    uint64_t loaded, skipped, failed;
    uint64_t runs, series, samples, gates, events, rows;
    uint64_t bytes; /* original bytes streamed (not counting the hash pass) */
};

/* Called by the loader: before printing a message (to clear a progress
 * line), and regularly while loading (to refresh it). */
struct ingest_hooks {
    void (*before_message)(void *arg);
    void (*progress)(void *arg);
    void *arg;
};

enum ingest_result { INGEST_LOADED, INGEST_SKIPPED, INGEST_FAILED };

struct ingester;

/* Prepares the statements and caches for a whole command on a store
 * opened with STORE_WRITE. Returns NULL with *err set on failure. */
struct ingester *ingester_open(sqlite3 *db, const struct ingest_options *opt, const struct ingest_hooks *hooks,
                               char **err);
/* Loads one archive: path names a file, or is "-" for standard input.
 * Prints its errors (file:line: field: what was expected, got what),
 * warnings and notices on stderr. */
enum ingest_result ingester_archive(struct ingester *g, const char *path);
/* Names the archive ingester_archive will be given next (NULL: none), so
 * that a regular file is hashed and its first lines parsed on another
 * thread while the current one is stored. Messages and results stay in
 * order: nothing of the next archive is judged before its turn. */
void ingester_next(struct ingester *g, const char *path);
/* --format: what the command line says about a bare harness file. */
struct ingest_foreign {
    const char *format; /* jmh, google-benchmark, hyperfine, pyperf, go-bench */
    const char *plan, *run, *host, *variant;
    long long block, position; /* position 0: none */
    char **attrs;              /* "KEY=VALUE" */
    size_t n_attrs;
};
/* True when name is a harness format; ingest_format_names lists them. */
int ingest_format_known(const char *name);
extern const char ingest_format_names[];
/* Loads one bare harness file as one run (docs/formats.md). */
enum ingest_result ingester_foreign(struct ingester *g, const char *path, const struct ingest_foreign *f);
const struct ingest_totals *ingester_totals(const struct ingester *g);
/* While loading (from a progress hook): original bytes of the current
 * archive read so far, and rows written by the command so far. */
void ingester_live(const struct ingester *g, uint64_t *bytes, uint64_t *rows);
void ingester_close(struct ingester *g);

#endif
