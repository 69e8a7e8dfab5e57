#ifndef BENCHDB_INGEST_DECODERS_HARNESS_H
#define BENCHDB_INGEST_DECODERS_HARNESS_H
/* Harness output (docs/formats.md): JMH, Google Benchmark, hyperfine and
 * pyperf JSON, Go benchmark text. Each adapter (decoders/NAME/NAME.c)
 * turns one file into series of the current run through harness_series,
 * which checks the values and hands them to the sink, the same path as a
 * samples record's. This file: what the adapters share (adapters.h: their
 * table and loading a file). */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "ingest/core/budget.h"
#include "ingest/core/jsonflat.h"
#include "ingest/core/report.h"
#include "ingest/sink/sink.h"
#include "util/strbuf.h"

/* A file a harness writes beside the one read (Criterion's benchmark.json
 * beside its sample.json): found by the caller, by name, in the same
 * directory; bytes NULL when it is not there. */
struct harness_companion {
    const char *name;
    const unsigned char *bytes;
    size_t len;
};

/* What an adapter works in: the run is open; its values go to block and
 * variant. Messages name fields as "PREFIX: PATH: what". */
struct harness_ctx {
    struct sink *sink;
    struct ingest_report *rep;
    struct budget *budget; /* for decompressing the file */
    long long block;
    const char *variant;
    const char *prefix;   /* e.g. results[jmh/a.json], or NULL */
    int64_t member_id;    /* the archive_member the values come from, or 0 */
    int detected;         /* the format was recognised from the content (no --format) */
    int failures_only_ok; /* every benchmark failed: taken, not refused (ingest_options') */
    const struct harness_companion *companions; /* the files the adapter's table entry names */
    size_t n_companions;
    const struct json_flats *flats; /* the arrays the parser read flat (the adapter's spec), or NULL */
    struct json_flats_cursor flat_cursor;

    /* what the adapter found */
    uint64_t values;     /* measured values stored (every metric) */
    uint64_t aggregates; /* Google Benchmark aggregate rows passed over */
    uint64_t events;     /* events the file gave (a benchmark that failed...) */
    char first_event[160]; /* the first: "benchmark-error BM_Parse" */
    int sink_error;      /* the error came from the store (a series already stored...), not the file's content */

    struct strbuf field;  /* scratch: the field named in a message */
    struct strbuf params; /* scratch: canonical params */
    struct strbuf detail; /* scratch: canonical detail */
};

void harness_ctx_free(struct harness_ctx *c);

/* ---- for the adapters ---- */

/* Sets the error at PREFIX: path (printf-style); returns -1. */
int harness_fail(struct harness_ctx *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The field name for path, in c->field (valid until the next call). */
const char *harness_field(struct harness_ctx *c, const char *path);
/* A JSON number's value: 1, or 0 when v is not a number. */
int harness_number(const json_t *v, double *out);
/* s[0..n) into out with the bare words NaN, Infinity and -Infinity that
 * JSON has not, outside strings, made the strings "NaN", "Infinity" and
 * "-Infinity": Python's json writes them (asv), and Google Benchmark's
 * JSON reporter for a counter that is not finite. 0, or -1 when memory ran
 * out. */
int harness_quote_nonfinite(const char *s, size_t n, struct strbuf *out);
/* Parses text (its bare NaN, Infinity, -Infinity quoted, as above) and
 * gives the document to read: a text reader of a JSON format whose writer
 * spells numbers that are not finite so. read's result, or -1 with the
 * error set. */
int harness_json_nonfinite(struct harness_ctx *c, const char *text, size_t len,
                           int (*read)(struct harness_ctx *, json_t *));
/* Fails with "PATH: expected WHAT, got V". */
int harness_wrong(struct harness_ctx *c, const char *path, const char *what, const json_t *v);
/* Canonical params text of an object (NULL: "{}") into c->params. */
int harness_params(struct harness_ctx *c, json_t *obj);
/* Canonical text of a detail object into c->detail (refused when it nests
 * deeper than the store keeps). */
int harness_detail(struct harness_ctx *c, const char *path, json_t *d);
/* One series of the current run: the cell (name, c->params), fork, metric
 * (NULL: primary), unit, detail (canonical text or NULL). Values of the
 * primary metric must be finite and >= 0 with a time or throughput unit,
 * others finite; counts >= 1. */
int harness_series(struct harness_ctx *c, const char *path, const char *bench, long long fork, const char *metric,
                   const char *unit, const char *detail, const double *v, const int64_t *count, size_t n,
                   const double *warmup, size_t n_warmup);
/* An event of the current run; value and detail (canonical JSON) may be NULL. */
int harness_event(struct harness_ctx *c, const char *name, const char *value, const char *detail);
/* The file's facts as run attributes (keys the run does not have). */
int harness_attributes(struct harness_ctx *c, json_t *attrs);
/* When the harness recorded when it ran: the run's start time, if the run
 * has none (the earliest of the archive's files). A time without a UTC
 * offset cannot be placed and is left out. */
int harness_started_at(struct harness_ctx *c, const char *when);

/* A growable array of doubles (and counts) for collecting values; count
 * stays NULL while every count pushed is 1 (the sink's NULL: each value
 * once), so that the values of most formats cost one array, not two. */
struct dvec;
/* The numbers of a JSON array at path into d ("PATH: expected an array of
 * numbers", "PATH[k]: expected a finite number, got ..."): a tree's, or
 * the records of one the parser read flat (the adapter's spec names it). */
int harness_numbers(struct harness_ctx *c, const char *path, const json_t *arr, struct dvec *d);

struct dvec {
    double *v;
    int64_t *count;
    size_t n, cap;
};
int dvec_push(struct dvec *d, double v, int64_t count);
void dvec_free(struct dvec *d);

/* The companion file name as parsed JSON: 1 with *doc set (free it with
 * json_doc_free), 0 when the file is not there, -1 with the error set
 * (named as NAME: ...). */
struct json_doc;
int harness_companion_json(struct harness_ctx *c, const char *name, struct json_doc *doc);
/* The revision the harness file says it measured: the run's source, if
 * the run has none. */
int harness_source(struct harness_ctx *c, const char *rev);
/* The records of the array arr, its elements' fields those of the
 * adapter's spec: the parser's (arr their placeholder) or, for a tree
 * (a document inside a run stream), made into *made, which the caller
 * frees (json_flat_array_free). NULL when memory ran out (the error set). */
const struct json_flat_array *harness_flat(struct harness_ctx *c, const json_t *arr, const char *const *fields,
                                           struct json_flat_array **made);
/* harness_wrong for a value of such a record. */
int harness_wrong_flat(struct harness_ctx *c, const char *path, const char *what, const struct json_flat_value *v);
/* A shallow copy of an object, or NULL when memory ran out (jansson's
 * json_copy drops keys it could not add without saying so). */
json_t *harness_copy(json_t *obj);
/* A plain decimal ([-]digits[.digits], at most 19 digits, at most 2^53
 * without its point, at most 22 after it): 1 with *out, the double strtod
 * gives for it, computed without strtod (core/decimal); 0 for any other
 * text (which strtod then reads). For the text readers' values. */
int harness_decimal(const char *s, size_t n, double *out);
/* A finite number written as JSON writes one (a field of an XML or text
 * format): 1 when the string s is one (strtod's decimal syntax: no hex,
 * inf, nan or blanks; not beyond a double's range), with *out; 0 for any
 * other text. harness_parse_number: the same for s[0..n), n < 64. */
int harness_number_cstr(const char *s, double *out);
int harness_parse_number(const char *s, size_t n, double *out);


#endif
