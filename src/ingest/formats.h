#ifndef BENCHDB_INGEST_FORMATS_H
#define BENCHDB_INGEST_FORMATS_H
/* Harness output (docs/formats.md): JMH, Google Benchmark, hyperfine,
 * pyperf JSON and Go benchmark text, each turned by its adapter (fmt_*.c)
 * into series of the current run through ingest_series, the same checks
 * and inserts as samples records. */
#include <jansson.h>
#include <stddef.h>

#include "ingest/loader.h"
#include "util/strbuf.h"

/* What an adapter works in: the run is open (g->run_id); its values go to
 * block and variant. Messages name fields as "PREFIX: PATH: what". */
struct fmt_ctx {
    struct ingester *g;
    long long block;
    const char *variant;
    const char *prefix;    /* e.g. results[jmh/a.json], or NULL */
    struct strbuf field;   /* scratch: the field named in a message */
    struct strbuf params;  /* scratch: canonical params */
    struct strbuf detail;  /* scratch: canonical detail */
};

typedef int (*fmt_json_fn)(struct fmt_ctx *c, json_t *doc);
typedef int (*fmt_text_fn)(struct fmt_ctx *c, const char *text, size_t len);

struct fmt_adapter {
    const char *name;   /* as in --format and results.format */
    fmt_json_fn json;   /* one of the two */
    fmt_text_fn text;
};

/* The adapter named name, or NULL. */
const struct fmt_adapter *fmt_find(const char *name);
/* "jmh, google-benchmark, hyperfine, pyperf, go-bench" */
extern const char fmt_names[];

/* Runs an adapter on a file's bytes (decompressed first when they start
 * with gzip, zstd or xz magic bytes) or, for a JSON format, on an already
 * parsed document (doc != NULL). 0, or -1 with the error set. */
int fmt_ingest(struct fmt_ctx *c, const struct fmt_adapter *a, const unsigned char *bytes, size_t len, json_t *doc);

/* ---- for the adapters ---- */

/* Sets the error at PREFIX: path (printf-style path): returns -1. */
int fmt_fail(struct fmt_ctx *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The field name for path, in c->field (valid until the next call). */
const char *fmt_field(struct fmt_ctx *c, const char *path);
/* A JSON number's value: 1, or 0 when v is not a number. */
int fmt_number(const json_t *v, double *out);
/* Fails with "PATH: expected WHAT, got V". */
int fmt_wrong(struct fmt_ctx *c, const char *path, const char *what, const json_t *v);
/* Canonical params text of an object (NULL: "{}") into c->params. */
int fmt_params(struct fmt_ctx *c, json_t *obj);
/* One series of the current run: the cell (name, c->params), fork,
 * metric (NULL: primary), unit, detail (canonical text or NULL). */
int fmt_series(struct fmt_ctx *c, const char *path, const char *bench, long long fork, const char *metric,
               const char *unit, const char *detail, const double *v, const int64_t *count, size_t n,
               const double *warmup, size_t n_warmup);

/* A growable array of doubles (and counts) for collecting values. */
struct dvec {
    double *v;
    int64_t *count;
    size_t n, cap;
};
int dvec_push(struct dvec *d, double v, int64_t count);
void dvec_free(struct dvec *d);

int fmt_jmh(struct fmt_ctx *c, json_t *doc);
int fmt_gbench(struct fmt_ctx *c, json_t *doc);
int fmt_hyperfine(struct fmt_ctx *c, json_t *doc);
int fmt_pyperf(struct fmt_ctx *c, json_t *doc);
int fmt_gobench(struct fmt_ctx *c, const char *text, size_t len);

#endif
