/* Go benchmark text (go test -bench; the benchfmt format): Benchmark lines
 * give a name (its -N suffix becomes the param procs), an iteration count
 * and value/unit pairs, ns/op (or sec/op) the primary metric and every
 * other unit a further metric named by its unit; repeated lines are
 * repeated values. "key: value" configuration lines apply to the lines
 * after them: pkg becomes a param, the others run attributes. Other lines
 * (PASS, ok, log output) are ignored. docs/formats.md. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/idmap.h"
#include "ingest/core/jsontext.h"
#include "ingest/core/utf8.h"
#include "ingest/decoders/gobench/gobench.h"
#include "ingest/decoders/harness.h"

/* One cell (name and params) as its lines are read. */
struct gcell {
    char *name;   /* the name without its -N suffix */
    char *params; /* canonical */
    size_t first_line;
    json_t *metrics; /* unit -> array of values, in the order units first appear */
    json_t *order;   /* array of units */
    json_t *iterations;
};

/* The file's cells in the order they first appear, found by name and
 * params through a hash map (a file may hold 100,000 names: a search of
 * the cells before would make reading quadratic). */
struct gcells {
    struct gcell *v;
    size_t n, cap;
    struct idmap index; /* name NUL params -> index in v */
    struct strbuf key;
};

static void gcells_free(struct gcells *cs)
{
    for (size_t i = 0; i < cs->n; i++) {
        free(cs->v[i].name);
        free(cs->v[i].params);
        json_decref(cs->v[i].metrics);
        json_decref(cs->v[i].order);
        json_decref(cs->v[i].iterations);
    }
    free(cs->v);
    idmap_free(&cs->index);
    sb_free(&cs->key);
}

/* The cell of name and params, added (first seen at lineno) when new;
 * NULL when out of memory. */
static struct gcell *gcell_get(struct gcells *cs, const char *name, const char *params, size_t lineno)
{
    sb_reset(&cs->key);
    if (sb_puts(&cs->key, name) || sb_putc(&cs->key, 0) || sb_puts(&cs->key, params))
        return NULL;
    int64_t *ix = idmap_get(&cs->index, cs->key.buf, cs->key.len);
    if (ix)
        return &cs->v[*ix];
    if (cs->n == cs->cap) {
        size_t ncap = cs->cap ? 2 * cs->cap : 16;
        struct gcell *nv = realloc(cs->v, ncap * sizeof *nv);
        if (!nv)
            return NULL;
        cs->v = nv;
        cs->cap = ncap;
    }
    struct gcell *cell = &cs->v[cs->n++];
    memset(cell, 0, sizeof *cell);
    cell->name = strdup(name);
    cell->params = strdup(params);
    cell->first_line = lineno;
    cell->metrics = json_object();
    cell->order = json_array();
    cell->iterations = json_array();
    if (!cell->name || !cell->params || !cell->metrics || !cell->order || !cell->iterations ||
        idmap_put(&cs->index, cs->key.buf, cs->key.len, (int64_t)(cs->n - 1)))
        return NULL; /* freed with the others */
    return cell;
}

/* Splits a line into fields separated by spaces and tabs (in place). */
static size_t split(char *s, char **f, size_t max)
{
    size_t n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            *s++ = 0;
        if (!*s)
            break;
        if (n == max)
            return max + 1;
        f[n++] = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
    }
    return n;
}

/* benchfmt: a configuration line is "key: value", the key starting with a
 * lower-case letter and holding no space. */
static int config_line(char *s, char **key, char **value)
{
    if (!islower((unsigned char)s[0]))
        return 0;
    char *colon = strchr(s, ':');
    if (!colon || (colon[1] != ' ' && colon[1] != '\t' && colon[1] != 0))
        return 0;
    for (char *p = s; p < colon; p++)
        if (isspace((unsigned char)*p) || isupper((unsigned char)*p))
            return 0;
    *colon = 0;
    *key = s;
    *value = colon + 1;
    while (**value == ' ' || **value == '\t')
        (*value)++;
    return 1;
}

static int is_bench_line(const char *s)
{
    return strncmp(s, "Benchmark", 9) == 0 && !(s[9] && islower((unsigned char)s[9]));
}

/* A line benchdb reads (a configuration line, a Benchmark line) is text
 * the store keeps: UTF-8 without NUL (a NUL would also cut the line short
 * unseen). The error names the field the bad byte is in. */
static int check_text(struct harness_ctx *c, size_t lineno, const char *raw, size_t n, int bench)
{
    size_t at = utf8_bad_at(raw, n);
    if (at == n)
        return 0;
    static const char *const bench_fields[] = {"name", "iterations", "value", "unit"};
    const char *field;
    char key[64];
    if (bench) {
        size_t k = 0; /* fields begun at or before the bad byte */
        for (size_t i = 0; i <= at; i++)
            k += raw[i] != ' ' && raw[i] != '\t' && (i == 0 || raw[i - 1] == ' ' || raw[i - 1] == '\t');
        field = k <= 2 ? bench_fields[k ? k - 1 : 0] : bench_fields[2 + (k - 3) % 2];
    } else {
        const char *colon = memchr(raw, ':', n);
        size_t klen = colon ? (size_t)(colon - raw) : n;
        if (at < klen || klen >= sizeof key) {
            field = "configuration key";
        } else {
            memcpy(key, raw, klen);
            key[klen] = 0;
            field = key;
        }
    }
    char what[96], path[96];
    utf8_describe(raw, at, "column", what, sizeof what);
    snprintf(path, sizeof path, "line %zu: %s", lineno, field);
    return harness_fail(c, path, "%s", what);
}

/* What reading a file keeps between its lines. */
struct gread {
    struct harness_ctx *c;
    struct gcells cells;
    json_t *attrs, *pkg;
    size_t lineno;
    char path[64]; /* "line N" */
};

/* A configuration line: pkg becomes a param of the cells after it, any
 * other key a run attribute (which may not change within the file). */
static int config(struct gread *r, const char *key, const char *value)
{
    struct harness_ctx *c = r->c;
    if (strcmp(key, "pkg") == 0) {
        json_decref(r->pkg);
        r->pkg = json_string(value); /* UTF-8 checked: NULL is out of memory */
        return r->pkg ? 0 : ingest_report_oom(c->rep);
    }
    json_t *had = json_object_get(r->attrs, key);
    if (had && strcmp(json_string_value(had), value) != 0)
        return harness_fail(c, r->path, "configuration \"%s\" changes from \"%s\" to \"%s\" (only pkg may change "
                                        "within a file: split it by %s)", key, json_string_value(had), value, key);
    if (!had && json_object_set_new(r->attrs, key, json_string(value)))
        return ingest_report_oom(c->rep);
    return 0;
}

/* A Benchmark line of nf fields f: its values added to its cell. */
static int bench_line(struct gread *r, char **f, size_t nf)
{
    struct harness_ctx *c = r->c;
    char *iend;
    errno = 0;
    long long iters = nf >= 2 ? strtoll(f[1], &iend, 10) : 0;
    if (nf > 255 || nf < 4 || nf % 2 != 0 || errno || *iend || iters < 1)
        return harness_fail(c, r->path, "malformed Benchmark line (expected a name, an iteration count >= 1 and "
                                        "value unit pairs)");
    /* The -N suffix is GOMAXPROCS. */
    char *name = f[0], *dash = strrchr(name, '-');
    json_t *params = json_object();
    if (!params)
        return ingest_report_oom(c->rep);
    int rc = 0;
    if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1)) {
        rc = json_object_set_new(params, "procs", json_integer(strtoll(dash + 1, NULL, 10)));
        *dash = 0;
    }
    if (r->pkg && rc == 0)
        rc = json_object_set(params, "pkg", r->pkg);
    rc = rc ? ingest_report_oom(c->rep) : harness_params(c, params);
    json_decref(params);
    if (rc)
        return -1;
    struct gcell *cell = gcell_get(&r->cells, name, c->params.buf, r->lineno);
    if (!cell)
        return ingest_report_oom(c->rep);
    int primary = 0;
    for (size_t k = 2; k + 1 < nf; k += 2) {
        double v;
        if (!harness_number_cstr(f[k], &v))
            return harness_fail(c, r->path, "expected a finite number before unit \"%s\", got \"%s\"", f[k + 1], f[k]);
        const char *unit = f[k + 1];
        primary |= strcmp(unit, "ns/op") == 0 || strcmp(unit, "sec/op") == 0;
        json_t *arr = json_object_get(cell->metrics, unit);
        if (!arr) {
            arr = json_array();
            if (!arr || json_object_set_new(cell->metrics, unit, arr) ||
                json_array_append_new(cell->order, json_string(unit)))
                return ingest_report_oom(c->rep);
        }
        if (json_array_append_new(arr, json_real(v)))
            return ingest_report_oom(c->rep);
    }
    if (!primary)
        return harness_fail(c, r->path, "no ns/op (or sec/op) value: the primary metric of a Go benchmark");
    return json_array_append_new(cell->iterations, json_integer(iters)) ? ingest_report_oom(c->rep) : 0;
}

/* One line of the file (n bytes at raw, without its line end). */
static int one_line(struct gread *r, struct strbuf *line, const char *raw, size_t n)
{
    sb_reset(line);
    if (sb_append(line, raw, n) || sb_putc(line, 0))
        return ingest_report_oom(r->c->rep);
    char *s = line->buf, *key, *value;
    snprintf(r->path, sizeof r->path, "line %zu", r->lineno);
    int bench = is_bench_line(s);
    if (!bench && !config_line(s, &key, &value))
        return 0; /* PASS, ok, log output */
    if (check_text(r->c, r->lineno, raw, n, bench))
        return -1;
    if (!bench)
        return config(r, key, value);
    char *f[256];
    size_t nf = split(s, f, 255);
    if (nf == 1)
        return 0; /* a name alone: go test -v prints it before the result line */
    return bench_line(r, f, nf);
}

/* Each cell's series, one per unit, in the order they appeared. */
static int cell_series(struct harness_ctx *c, struct gcell *cell)
{
    char path[64];
    sb_reset(&c->params);
    sb_puts(&c->params, cell->params);
    json_t *d = json_pack("{s:O}", "iterations", cell->iterations);
    sb_reset(&c->detail);
    int rc = !d || json_canonical(d, &c->detail) ? ingest_report_oom(c->rep) : 0;
    json_decref(d);
    for (size_t u = 0; rc == 0 && u < json_array_size(cell->order); u++) {
        const char *unit = json_string_value(json_array_get(cell->order, u));
        json_t *arr = json_object_get(cell->metrics, unit);
        struct dvec dv = {0};
        for (size_t j = 0; rc == 0 && j < json_array_size(arr); j++)
            if (dvec_push(&dv, json_real_value(json_array_get(arr, j)), 1))
                rc = ingest_report_oom(c->rep);
        int is_primary = strcmp(unit, "ns/op") == 0 ||
                         (strcmp(unit, "sec/op") == 0 && !json_object_get(cell->metrics, "ns/op"));
        snprintf(path, sizeof path, "line %zu", cell->first_line);
        if (rc == 0)
            rc = harness_series(c, path, cell->name, 0, is_primary ? NULL : unit, unit,
                                is_primary ? c->detail.buf : NULL, dv.v, NULL, dv.n, NULL, 0);
        dvec_free(&dv);
    }
    return rc;
}

int harness_gobench(struct harness_ctx *c, const char *text, size_t len)
{
    struct strbuf line = {0};
    struct gread r = {.c = c, .attrs = json_object()};
    int rc = r.attrs ? 0 : ingest_report_oom(c->rep);
    for (size_t pos = 0; rc == 0 && pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len, n = end - pos;
        r.lineno++;
        if (n && text[pos + n - 1] == '\r')
            n--;
        rc = one_line(&r, &line, text + pos, n);
        pos = end + 1;
    }
    if (rc == 0 && json_object_size(r.attrs))
        rc = harness_attributes(c, r.attrs);
    for (size_t k = 0; rc == 0 && k < r.cells.n; k++)
        rc = cell_series(c, &r.cells.v[k]);
    gcells_free(&r.cells);
    json_decref(r.attrs);
    json_decref(r.pkg);
    sb_free(&line);
    return rc;
}
