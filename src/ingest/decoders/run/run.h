#ifndef BENCHDB_INGEST_DECODERS_RUN_RUN_H
#define BENCHDB_INGEST_DECODERS_RUN_RUN_H
/* benchdb-run/1 records (docs/archive-format.md): each parsed line is
 * checked field by field ("record.field: expected ..., got ...") and
 * handed to the sink. A results record's harness file is found through
 * the caller (a member of the same container, a file beside a bare
 * stream) and read by its adapter (decoders/harness.h). */
#include <jansson.h>
#include <stdint.h>

#include "ingest/core/budget.h"
#include "ingest/core/idmap.h"
#include "ingest/core/report.h"
#include "ingest/sink/sink.h"
#include "util/strbuf.h"

#define RUN_STREAM_FORMAT "benchdb-run/1"

/* A file a results record names, as the caller found it. */
struct run_file {
    const unsigned char *bytes; /* valid while the archive is loaded */
    size_t len;
    int64_t member_id; /* its archive_member row, or 0 */
    const char *display; /* errors in it are blamed on this name (a file given on the command line), or NULL */
    int detected;        /* its format was recognised from its content, not named (--format) */
};

struct run_files {
    /* 1 with *out set, 0 when there is no such file (the error is then
     * "no such member/file"), -1 with the error reported. */
    int (*get)(void *arg, const char *path, struct run_file *out);
    void *arg;
};

struct run_decoder {
    struct sink *sink;
    struct ingest_report *rep;
    struct budget *budget;  /* the archive's (harness files decompressed count against it) */
    struct run_files files;
    int in_run;              /* a run record opened a run in this stream */
    int failures_only_ok;    /* ingest_options' */
    struct idmap warned;     /* "record.key" already warned about, per archive */
    struct idmap runs_seen;  /* plan NUL run -> line, per archive */
    struct strbuf key, text; /* scratch */
    double *v, *w;           /* a samples record's values and warmups */
    size_t cap_v, cap_w;
};

void run_decoder_init(struct run_decoder *d, struct sink *sink, struct ingest_report *rep);
void run_decoder_free(struct run_decoder *d);
/* A new archive: its budget and how its results records find files. */
void run_decoder_archive(struct run_decoder *d, struct budget *budget, struct run_files files);
/* A new run stream within the archive (a container may hold several):
 * records before its first run record are refused. */
void run_decoder_stream(struct run_decoder *d);
/* The stream ended: refused when it opened no run. */
int run_decoder_stream_end(struct run_decoder *d);
/* One parsed line: 0, or -1 with the error set. */
int run_decoder_record(struct run_decoder *d, json_t *rec);

/* results records (results.c) */
int run_results_record(struct run_decoder *d, json_t *rec);
#endif
