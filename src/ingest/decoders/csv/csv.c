/* A plain table of values, one per line (docs/formats.md, "csv"). The
 * first line is a header naming the columns; fields are separated by tabs
 * when it has a tab (TSV, no quoting), else by commas (CSV, RFC 4180
 * quoting within a line). Columns: benchmark, value, unit (required),
 * metric, warmup, fork and param:NAME (optional). Rows of one benchmark,
 * params, metric and fork are one series, in file order. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/idmap.h"
#include "store/unit_rows.h"
#include "ingest/core/utf8.h"
#include "ingest/decoders/csv/csv.h"
#include "ingest/decoders/harness.h"

enum col { C_BENCH, C_VALUE, C_UNIT, C_METRIC, C_WARMUP, C_FORK, C_PARAM };
static const char *const col_names[] = {"benchmark", "value", "unit", "metric", "warmup", "fork"};
#define MAX_COLS 256

struct cseries {
    char *name, *params, *metric, *unit; /* metric NULL: primary */
    long long fork;
    size_t first_line;
    struct dvec v, w;
};

struct cread {
    struct harness_ctx *c;
    char sep;
    size_t ncols;
    enum col kind[MAX_COLS];
    char *colname[MAX_COLS];
    int at[C_PARAM]; /* the column of each named kind, or -1 */
    struct cseries *s;
    size_t n, cap;
    struct idmap index;
    struct strbuf key, line;
    char *f[MAX_COLS];   /* the fields of the current line */
    size_t len[MAX_COLS]; /* and their lengths */
    char unit_ok[32];     /* the last unit found a primary metric's (most files have one unit) */
    size_t lineno;
    char path[64];
};

/* "line N" for a message, formatted only when one is written: printf for
 * every line read cost a tenth of the reader's time. */
static const char *where(struct cread *r)
{
    snprintf(r->path, sizeof r->path, "line %zu", r->lineno);
    return r->path;
}

static void cread_free(struct cread *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->s[i].name);
        free(r->s[i].params);
        free(r->s[i].metric);
        free(r->s[i].unit);
        dvec_free(&r->s[i].v);
        dvec_free(&r->s[i].w);
    }
    free(r->s);
    for (size_t k = 0; k < r->ncols; k++)
        free(r->colname[k]);
    idmap_free(&r->index);
    sb_free(&r->key);
    sb_free(&r->line);
}

/* Splits r->line in place into r->f; the number of fields, or -1 (error
 * set) for a quote left open. */
static long split(struct cread *r)
{
    char *s = r->line.buf, *out;
    size_t n = 0;
    for (;;) {
        if (n == MAX_COLS)
            return MAX_COLS + 1;
        r->f[n++] = out = s;
        if (r->sep == ',' && *s == '"') {
            for (s++;; s++) {
                if (!*s)
                    return harness_fail(r->c, where(r), "field %zu: a quoted field is not closed on its line", n);
                if (*s == '"' && s[1] == '"')
                    *out++ = *s++;
                else if (*s == '"')
                    break;
                else
                    *out++ = *s;
            }
            s++;
            if (*s && *s != ',')
                return harness_fail(r->c, where(r), "field %zu: text after its closing quote", n);
        } else {
            while (*s && *s != r->sep)
                *out++ = *s++;
        }
        char *next = *s ? s + 1 : NULL;
        *out = 0;
        r->len[n - 1] = (size_t)(out - r->f[n - 1]);
        if (!next)
            return (long)n;
        s = next;
    }
}

static int header(struct cread *r)
{
    long n = split(r);
    if (n < 0)
        return -1;
    if (n > MAX_COLS)
        return harness_fail(r->c, where(r), "more than %d columns", MAX_COLS);
    for (int k = 0; k < C_PARAM; k++)
        r->at[k] = -1;
    r->ncols = (size_t)n;
    for (size_t k = 0; k < r->ncols; k++) {
        const char *h = r->f[k];
        int kind = -1;
        for (int j = 0; j < C_PARAM; j++)
            if (strcmp(h, col_names[j]) == 0)
                kind = j;
        if (kind < 0 && strncmp(h, "param:", 6) == 0 && h[6])
            kind = C_PARAM;
        if (kind < 0)
            return harness_fail(r->c, where(r), "column \"%s\": expected benchmark, value, unit, metric, warmup, fork "
                                               "or param:NAME", h);
        if (kind < C_PARAM && r->at[kind] >= 0)
            return harness_fail(r->c, where(r), "column \"%s\" twice", h);
        for (size_t j = 0; kind == C_PARAM && j < k; j++)
            if (r->kind[j] == C_PARAM && strcmp(r->colname[j], h + 6) == 0)
                return harness_fail(r->c, where(r), "column \"%s\" twice", h);
        r->kind[k] = (enum col)kind;
        if (kind < C_PARAM)
            r->at[kind] = (int)k;
        if (!(r->colname[k] = strdup(kind == C_PARAM ? h + 6 : h)))
            return ingest_report_oom(r->c->rep);
    }
    for (int k = 0; k < 3; k++)
        if (r->at[k] < 0)
            return harness_fail(r->c, where(r), "no \"%s\" column (the header names benchmark, value and unit)",
                                col_names[k]);
    return 0;
}

/* The series a row belongs to, made on its first row. */
static struct cseries *series_of(struct cread *r, const char *metric, long long fork, int *rc)
{
    struct harness_ctx *c = r->c;
    sb_reset(&r->key);
    int b = r->at[C_BENCH];
    int bad = sb_append(&r->key, r->f[b], r->len[b] + 1) || sb_puts(&r->key, metric ? metric : "") ||
              sb_putc(&r->key, 0) || sb_append(&r->key, &fork, sizeof fork); /* the key is bytes, never shown */
    for (size_t k = 0; !bad && k < r->ncols; k++)
        if (r->kind[k] == C_PARAM)
            bad = sb_putc(&r->key, 0) || sb_append(&r->key, r->f[k], r->len[k]);
    int64_t *ix = bad ? NULL : idmap_get(&r->index, r->key.buf, r->key.len);
    if (ix)
        return &r->s[*ix];
    if (!bad && r->n == r->cap) {
        size_t ncap = r->cap ? 2 * r->cap : 16;
        struct cseries *ns = realloc(r->s, ncap * sizeof *ns);
        if (ns)
            r->s = ns, r->cap = ncap;
        bad = !ns;
    }
    json_t *params = bad ? NULL : json_object();
    for (size_t k = 0; params && k < r->ncols; k++)
        if (r->kind[k] == C_PARAM && *r->f[k] && json_object_set_new(params, r->colname[k], json_string(r->f[k])))
            bad = 1;
    if (bad || !params || harness_params(c, params)) {
        json_decref(params);
        *rc = ingest_report_oom(c->rep);
        return NULL;
    }
    json_decref(params);
    struct cseries *s = &r->s[r->n++];
    memset(s, 0, sizeof *s);
    s->name = strdup(r->f[r->at[C_BENCH]]);
    s->params = strdup(c->params.buf);
    s->metric = metric ? strdup(metric) : NULL;
    s->unit = strdup(r->f[r->at[C_UNIT]]);
    s->fork = fork;
    s->first_line = r->lineno;
    if (!s->name || !s->params || (metric && !s->metric) || !s->unit ||
        idmap_put(&r->index, r->key.buf, r->key.len, (int64_t)(r->n - 1))) {
        *rc = ingest_report_oom(c->rep);
        return NULL;
    }
    return s;
}

/* The optional columns of a row: metric (NULL primary), warmup, fork. */
static int row_options(struct cread *r, const char **metric, int *warm, long long *fork)
{
    const char *m = r->at[C_METRIC] >= 0 ? r->f[r->at[C_METRIC]] : "";
    *metric = *m && strcmp(m, "primary") != 0 ? m : NULL;
    const char *w = r->at[C_WARMUP] >= 0 ? r->f[r->at[C_WARMUP]] : "";
    *warm = strcmp(w, "1") == 0 || strcmp(w, "true") == 0;
    if (!*warm && *w && strcmp(w, "0") != 0 && strcmp(w, "false") != 0)
        return harness_fail(r->c, where(r), "warmup: expected 1, true, 0, false or nothing, got \"%s\"", w);
    const char *fk = r->at[C_FORK] >= 0 ? r->f[r->at[C_FORK]] : "";
    char *end;
    errno = 0;
    *fork = *fk ? strtoll(fk, &end, 10) : 0;
    if (*fk && (errno || *end || *fork < 0 || *fk == '-' || *fk == '+' || *fk == ' '))
        return harness_fail(r->c, where(r), "fork: expected an integer >= 0 or nothing, got \"%s\"", fk);
    return 0;
}

static int row(struct cread *r)
{
    struct harness_ctx *c = r->c;
    long n = split(r);
    if (n < 0)
        return -1;
    if ((size_t)n != r->ncols)
        return harness_fail(c, where(r), "expected %zu fields (as the header), got %ld", r->ncols, n);
    const char *bench = r->f[r->at[C_BENCH]], *vs = r->f[r->at[C_VALUE]], *unit = r->f[r->at[C_UNIT]], *metric;
    if (!*bench)
        return harness_fail(c, where(r), "benchmark: expected a name, got nothing");
    if (!*unit)
        return harness_fail(c, where(r), "unit: expected a unit, got nothing");
    double v;
    if (!harness_decimal(vs, r->len[r->at[C_VALUE]], &v) && !harness_number_cstr(vs, &v))
        return harness_fail(c, where(r), "value: expected a finite number, got \"%s\"", vs);
    int warm = 0, rc = 0;
    long long fork = 0;
    if (row_options(r, &metric, &warm, &fork))
        return -1;
    if (!metric) {
        int ix = strcmp(unit, r->unit_ok) == 0 ? 0 : store_unit_find(unit);
        if (ix < 0 || ix >= store_unit_primary_count)
            return harness_fail(c, where(r), "unit: \"%s\" is not a time or throughput unit, which the primary metric "
                                            "needs (one of %s; other units go with a metric column)", unit,
                                store_unit_primary_list);
        if (strlen(unit) < sizeof r->unit_ok)
            strcpy(r->unit_ok, unit);
        if (v < 0)
            return harness_fail(c, where(r), "value: expected a number >= 0 (a time or throughput), got \"%s\"", vs);
    }
    struct cseries *s = series_of(r, metric, fork, &rc);
    if (!s)
        return rc;
    if (strcmp(s->unit, unit) != 0)
        return harness_fail(c, where(r), "unit: expected \"%s\" (the unit of %s's values from line %zu), got \"%s\"",
                            s->unit, s->name, s->first_line, unit);
    return dvec_push(warm ? &s->w : &s->v, v, 1) ? ingest_report_oom(c->rep) : 0;
}

static int blank(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t')
            return 0;
    return 1;
}

/* Line r->lineno, n bytes at raw: the header, a row, or a blank line. */
static int one_line(struct cread *r, const char *raw, size_t n)
{
    size_t bad = utf8_bad_at(raw, n);
    if (bad < n) {
        size_t field = 1;
        for (size_t i = 0; i < bad; i++)
            field += raw[i] == (r->sep ? r->sep : ',');
        char what[96];
        utf8_describe(raw, bad, "column", what, sizeof what);
        return harness_fail(r->c, where(r), "field %zu: %s", field, what);
    }
    sb_reset(&r->line);
    if (sb_append(&r->line, raw, n))
        return ingest_report_oom(r->c->rep);
    if (r->ncols == 0) {
        r->sep = memchr(raw, '\t', n) ? '\t' : ',';
        return header(r);
    }
    return blank(raw, n) ? 0 : row(r);
}

int harness_csv(struct harness_ctx *c, const char *text, size_t len)
{
    struct cread r = {.c = c};
    int rc = 0;
    size_t pos = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (rc == 0 && pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len, n = end - pos;
        r.lineno++;
        if (n && text[pos + n - 1] == '\r')
            n--;
        if (r.ncols || !blank(text + pos, n))
            rc = one_line(&r, text + pos, n);
        pos = end + 1;
    }
    if (rc == 0 && r.ncols == 0)
        rc = harness_fail(c, NULL, "no header line (benchmark, value, unit...)");
    for (size_t i = 0; rc == 0 && i < r.n; i++) {
        struct cseries *s = &r.s[i];
        char path[64];
        snprintf(path, sizeof path, "line %zu", s->first_line);
        sb_reset(&c->params);
        if (sb_puts(&c->params, s->params))
            rc = ingest_report_oom(c->rep);
        if (rc == 0 && s->v.n == 0)
            rc = harness_fail(c, path, "%s: only warm-up rows, no measured value", s->name);
        if (rc == 0)
            rc = harness_series(c, path, s->name, s->fork, s->metric, s->unit, NULL, s->v.v, NULL, s->v.n, s->w.v, s->w.n);
    }
    cread_free(&r);
    return rc;
}
