/* The adapters' table and what they share: field names for messages,
 * params, collecting values, and opening a harness file's bytes
 * (decompressing gzip, zstd or xz by their magic bytes). */
#include "ingest/formats.h"

#include <archive.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "util/diag.h"

static const struct fmt_adapter adapters[] = {
    {"jmh", fmt_jmh, NULL},
    {"google-benchmark", fmt_gbench, NULL},
    {"hyperfine", fmt_hyperfine, NULL},
    {"pyperf", fmt_pyperf, NULL},
    {"go-bench", NULL, fmt_gobench},
};
const char fmt_names[] = "jmh, google-benchmark, hyperfine, pyperf, go-bench";

const struct fmt_adapter *fmt_find(const char *name)
{
    for (size_t i = 0; i < sizeof adapters / sizeof adapters[0]; i++)
        if (strcmp(adapters[i].name, name) == 0)
            return &adapters[i];
    return NULL;
}

const char *fmt_field(struct fmt_ctx *c, const char *path)
{
    sb_reset(&c->field);
    if (c->prefix && path && *path)
        sb_printf(&c->field, "%s: %s", c->prefix, path);
    else if (c->prefix)
        sb_puts(&c->field, c->prefix);
    else if (path)
        sb_puts(&c->field, path);
    return c->field.buf ? c->field.buf : "";
}

int fmt_fail(struct fmt_ctx *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = bd_vstrdupf(fmt, ap);
    va_end(ap);
    ingest_fail(c->g, fmt_field(c, path), "%s", what);
    free(what);
    return -1;
}

int fmt_number(const json_t *v, double *out)
{
    if (json_is_integer(v))
        *out = (double)json_integer_value(v);
    else if (json_is_real(v))
        *out = json_real_value(v);
    else
        return 0;
    return 1;
}

int fmt_wrong(struct fmt_ctx *c, const char *path, const char *what, const json_t *v)
{
    char got[96];
    if (v)
        json_describe(v, got, sizeof got);
    else
        snprintf(got, sizeof got, "nothing (missing)");
    return fmt_fail(c, path, "expected %s, got %s", what, got);
}

int fmt_params(struct fmt_ctx *c, json_t *obj)
{
    sb_reset(&c->params);
    if (obj ? json_canonical(obj, &c->params) : sb_puts(&c->params, "{}"))
        return ingest_fail(c->g, NULL, "out of memory");
    return 0;
}

int fmt_series(struct fmt_ctx *c, const char *path, const char *bench, long long fork, const char *metric,
               const char *unit, const char *detail, const double *v, const int64_t *count, size_t n,
               const double *warmup, size_t n_warmup)
{
    struct series_spec s = {bench, c->params.buf, c->block, fork, c->variant, metric, unit, detail, NULL};
    char *field = strdup(fmt_field(c, path));
    if (!field)
        return ingest_fail(c->g, NULL, "out of memory");
    s.field = field;
    int rc = ingest_series(c->g, &s, v, count, n, warmup, n_warmup);
    free(field);
    return rc;
}

int dvec_push(struct dvec *d, double v, int64_t count)
{
    if (d->n == d->cap) {
        size_t ncap = d->cap ? 2 * d->cap : 16;
        double *nv = realloc(d->v, ncap * sizeof *nv);
        if (!nv)
            return -1;
        d->v = nv;
        int64_t *nc = realloc(d->count, ncap * sizeof *nc);
        if (!nc)
            return -1;
        d->count = nc;
        d->cap = ncap;
    }
    d->v[d->n] = v;
    d->count[d->n++] = count;
    return 0;
}

void dvec_free(struct dvec *d)
{
    free(d->v);
    free(d->count);
    memset(d, 0, sizeof *d);
}

/* ---- opening a harness file ---- */

static int compressed(const unsigned char *b, size_t n)
{
    return (n >= 2 && b[0] == 0x1f && b[1] == 0x8b) ||                                      /* gzip */
           (n >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd) ||      /* zstd */
           (n >= 6 && memcmp(b, "\xfd" "7zXZ\0", 6) == 0);                                   /* xz */
}

/* Decompresses a whole file held in memory, at most limit bytes out. */
static int decompress(struct fmt_ctx *c, const unsigned char *in, size_t len, struct strbuf *out, uint64_t limit)
{
    struct archive *a = archive_read_new();
    if (!a)
        return ingest_fail(c->g, NULL, "out of memory");
    archive_read_support_filter_all(a);
    archive_read_support_format_raw(a);
    struct archive_entry *e;
    int rc = 0;
    if (archive_read_open_memory(a, in, len) != ARCHIVE_OK || archive_read_next_header(a, &e) != ARCHIVE_OK) {
        rc = fmt_fail(c, NULL, "cannot decompress: %s", archive_error_string(a));
    } else {
        char buf[65536];
        la_ssize_t k;
        while ((k = archive_read_data(a, buf, sizeof buf)) > 0) {
            if (out->len + (size_t)k > limit) {
                rc = fmt_fail(c, NULL, "more than %llu bytes after decompression (--max-bytes)",
                              (unsigned long long)limit);
                break;
            }
            if (sb_append(out, buf, (size_t)k)) {
                rc = ingest_fail(c->g, NULL, "out of memory");
                break;
            }
        }
        if (rc == 0 && k < 0)
            rc = fmt_fail(c, NULL, "cannot decompress: %s", archive_error_string(a));
    }
    archive_read_free(a);
    return rc;
}

int fmt_ingest(struct fmt_ctx *c, const struct fmt_adapter *a, const unsigned char *bytes, size_t len, json_t *doc)
{
    if (doc) {
        if (!a->json)
            return fmt_wrong(c, NULL, "a string (go-bench output is text)", doc);
        return a->json(c, doc);
    }
    struct strbuf plain = {0};
    if (compressed(bytes, len)) {
        if (decompress(c, bytes, len, &plain, c->g->opt.max_bytes)) {
            sb_free(&plain);
            return -1;
        }
        bytes = (const unsigned char *)plain.buf;
        len = plain.len;
    }
    int rc;
    if (a->text) {
        rc = a->text(c, (const char *)bytes, len);
    } else {
        json_error_t je;
        json_t *d = json_loadb((const char *)bytes, len, JSON_REJECT_DUPLICATES, &je);
        if (!d) {
            rc = fmt_fail(c, NULL, "invalid JSON at line %d, column %d: %s", je.line, je.column, je.text);
        } else {
            rc = a->json(c, d);
            json_decref(d);
        }
    }
    sb_free(&plain);
    return rc;
}
