/* cargo bench's bencher lines: "test NAME ... bench: VALUE UNIT/iter
 * (+/- DEV)", as Criterion.rs writes them with --output-format bencher
 * (VALUE its median, DEV its standard deviation, UNIT ns for wall time)
 * and as libtest's #[bench] writes them (VALUE the median with thousands
 * separators, DEV the range; an optional "= N MB/s"). A line holds one
 * statistic, not the measurements: that one number is the value stored
 * (every line of a name a value of its cell, in file order); DEV and the
 * throughput go to the series detail. Other lines are ignored.
 * docs/formats.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/idmap.h"
#include "ingest/core/jsontext.h"
#include "store/unit_rows.h"
#include "ingest/core/utf8.h"
#include "ingest/decoders/criterion/criterion.h"
#include "ingest/decoders/harness.h"
#include "fnshared/numfmt.h"

struct bcell {
    char *name, *unit;
    size_t name_len; /* strlen(name) */
    size_t first_line;
    struct dvec v, dev; /* the value and DEV per line */
    json_t *thr;        /* array: the throughput text per line, or null; NULL until a line has one */
};

struct bcells {
    struct bcell *v;
    size_t n, cap;
    struct idmap index; /* name -> index */
    size_t next;        /* the cell after the last line's: the next line's, when every round lists them in one order */
};

static void bcells_free(struct bcells *cs)
{
    for (size_t i = 0; i < cs->n; i++) {
        free(cs->v[i].name);
        free(cs->v[i].unit);
        dvec_free(&cs->v[i].v);
        dvec_free(&cs->v[i].dev);
        json_decref(cs->v[i].thr);
    }
    free(cs->v);
    idmap_free(&cs->index);
}

/* The cell of name (len bytes), made at its first line. Each round of a
 * run lists the benchmarks in one order, so the cell after the last
 * line's is tried first, by its name, before the keyed hash. */
static struct bcell *bcell_get(struct bcells *cs, const char *name, size_t len, size_t lineno)
{
    if (cs->next < cs->n) {
        struct bcell *g = &cs->v[cs->next];
        if (g->name_len == len && memcmp(g->name, name, len) == 0) {
            cs->next = cs->next + 1 < cs->n ? cs->next + 1 : 0;
            return g;
        }
    }
    int64_t *ix = idmap_get(&cs->index, name, len);
    if (ix) {
        cs->next = (size_t)*ix + 1 < cs->n ? (size_t)*ix + 1 : 0;
        return &cs->v[*ix];
    }
    if (cs->n == cs->cap) {
        size_t ncap = cs->cap ? 2 * cs->cap : 16;
        struct bcell *nv = realloc(cs->v, ncap * sizeof *nv);
        if (!nv)
            return NULL;
        cs->v = nv;
        cs->cap = ncap;
    }
    struct bcell *b = &cs->v[cs->n];
    memset(b, 0, sizeof *b);
    b->name = strndup(name, len);
    b->first_line = lineno;
    if (!b->name || idmap_put(&cs->index, name, len, (int64_t)cs->n)) {
        free(b->name);
        return NULL;
    }
    b->name_len = strlen(b->name); /* a name with a NUL in it is never foreseen: the hash finds it */
    cs->n++;
    cs->next = 0;
    return b;
}

/* A number with libtest's thousands separators ("1,234,567" or "12.5"). */
static int bench_number(const char *s, size_t n, double *out)
{
    char buf[64];
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != ',' && k + 1 < sizeof buf)
            buf[k++] = s[i];
    return k && k + 1 < sizeof buf && harness_parse_number(buf, k, out);
}

static const char *skip_spaces(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

static const char *word_end(const char *p, const char *end)
{
    while (p < end && *p != ' ' && *p != '\t')
        p++;
    return p;
}

/* "line N" into path for a message, formatted only when one is written:
 * printf for every line read cost a tenth of the reader's time. */
static const char *line_at(char *path, size_t lineno)
{
    snprintf(path, 64, "line %zu", lineno);
    return path;
}

/* The throughput text of b's line (NULL: none) after its earlier lines'
 * (null each when none had one): the array is made at the first line
 * that has one, most files having none. 0, or -1 out of memory. */
static int add_throughput(struct bcell *b, const char *thr, size_t len)
{
    if (!thr && !b->thr)
        return 0;
    if (!b->thr) {
        if (!(b->thr = json_array()))
            return -1;
        for (size_t i = 0; i + 1 < b->v.n; i++)
            if (json_array_append_new(b->thr, json_null()))
                return -1;
    }
    return json_array_append_new(b->thr, thr ? json_stringn(thr, len) : json_null());
}

/* One "test ... bench:" line s[0..n), sep where its " ... bench: " is:
 * 0 (added), or -1. */
static int one_line(struct harness_ctx *c, struct bcells *cs, const char *s, size_t n, const char *sep, size_t lineno)
{
    char path[64];
    size_t at = utf8_bad_at(s, n);
    if (at < n) {
        char what[96];
        utf8_describe(s, at, "column", what, sizeof what);
        return harness_fail(c, line_at(path, lineno), "%s", what);
    }
    const char *end = s + n, *name = s + 5;
    /* libtest pads the names of one run to one width */
    const char *name_end = sep;
    while (name_end > name && (name_end[-1] == ' ' || name_end[-1] == '\t'))
        name_end--;
    if (name_end == name)
        return harness_fail(c, line_at(path, lineno), "name: expected a benchmark name after \"test \"");
    const char *p = skip_spaces(sep + 12, end), *q = word_end(p, end);
    double value, dev = 0;
    if (!bench_number(p, (size_t)(q - p), &value))
        return harness_fail(c, line_at(path, lineno), "value: expected a number, got \"%.*s\"", (int)(q - p), p);
    p = skip_spaces(q, end);
    q = word_end(p, end);
    if (q - p < 6 || memcmp(q - 5, "/iter", 5) != 0)
        return harness_fail(c, line_at(path, lineno), "unit: expected UNIT/iter, got \"%.*s\"", (int)(q - p), p);
    char unit[32];
    size_t unit_len = (size_t)(q - p - 5) < sizeof unit - 1 ? (size_t)(q - p - 5) : sizeof unit - 1;
    memcpy(unit, p, unit_len);
    unit[unit_len] = 0;
    p = skip_spaces(q, end);
    if (end - p < 5 || memcmp(p, "(+/- ", 5) != 0)
        return harness_fail(c, line_at(path, lineno), "deviation: expected \"(+/- N)\" after the unit");
    p += 5;
    q = memchr(p, ')', (size_t)(end - p));
    if (!q || !bench_number(p, (size_t)(q - p), &dev))
        return harness_fail(c, line_at(path, lineno), "deviation: expected \"(+/- N)\" with a number");
    p = skip_spaces(q + 1, end);
    const char *thr = NULL;
    size_t thr_len = 0;
    if (p < end && *p == '=') {
        thr = skip_spaces(p + 1, end);
        thr_len = (size_t)(end - thr);
        while (thr_len && (thr[thr_len - 1] == ' ' || thr[thr_len - 1] == '\r'))
            thr_len--;
    }
    struct bcell *b = bcell_get(cs, name, (size_t)(name_end - name), lineno);
    if (!b)
        return ingest_report_oom(c->rep);
    if (!b->unit && !(b->unit = strdup(unit)))
        return ingest_report_oom(c->rep);
    if (strcmp(b->unit, unit) != 0)
        return harness_fail(c, line_at(path, lineno), "unit: \"%s\", but line %zu gave \"%s\" for this benchmark", unit,
                            b->first_line, b->unit);
    if (dvec_push(&b->v, value, 1) || dvec_push(&b->dev, dev, 1) || add_throughput(b, thr, thr_len))
        return ingest_report_oom(c->rep);
    return 0;
}

static int store_cell(struct harness_ctx *c, struct bcell *b)
{
    char path[64];
    snprintf(path, sizeof path, "line %zu", b->first_line);
    /* wall time in a time unit is the primary metric; a custom
     * measurement's unit (cycles...) a metric of its own */
    int ix = store_unit_find(b->unit);
    int primary = ix >= 0 && ix < store_unit_primary_count;
    /* The detail as canonical JSON ({"deviation":[...],"throughput":[...]},
     * a real as numfmt_real writes it), written here: one jansson real per
     * line cost more than reading the line. */
    struct strbuf *d = &c->detail;
    sb_reset(d);
    int rc = sb_puts(d, "{\"deviation\":[");
    for (size_t i = 0; rc == 0 && i < b->dev.n; i++) {
        char num[32];
        size_t k = numfmt_real(num, b->dev.v[i]);
        rc = (i && sb_putc(d, ',')) || sb_append(d, num, k);
    }
    rc = rc || sb_putc(d, ']') || (b->thr && (sb_puts(d, ",\"throughput\":") || json_canonical(b->thr, d))) ||
         sb_putc(d, '}');
    if (rc)
        return ingest_report_oom(c->rep);
    if (rc == 0)
        rc = harness_series(c, path, b->name, 0, primary ? NULL : b->unit, b->unit, c->detail.buf, b->v.v, NULL,
                            b->v.n, NULL, 0);
    return rc;
}

int harness_cargo_bench(struct harness_ctx *c, const char *text, size_t len)
{
    struct bcells cs = {0};
    int rc = harness_params(c, NULL);
    size_t lineno = 0;
    for (size_t i = 0; rc == 0 && i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        const char *s = text + i;
        lineno++;
        i += n + 1;
        size_t m = n;
        while (m && s[m - 1] == '\r')
            m--;
        /* "test NAME ... bench:"; "test NAME ... ok" and the rest ignored */
        const char *sep = NULL;
        if (m > 5 && memcmp(s, "test ", 5) == 0)
            for (size_t k = 5; k + 12 <= m && !sep; k++)
                if (s[k] == ' ' && memcmp(s + k, " ... bench: ", 12) == 0)
                    sep = s + k;
        if (sep)
            rc = one_line(c, &cs, s, m, sep, lineno);
    }
    for (size_t k = 0; rc == 0 && k < cs.n; k++)
        rc = store_cell(c, &cs.v[k]);
    bcells_free(&cs);
    return rc;
}
