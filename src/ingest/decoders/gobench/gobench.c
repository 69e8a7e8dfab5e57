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

#include "ingest/core/jsontext.h"
#include "ingest/core/units.h"
#include "ingest/decoders/gobench/gobench.h"
#include "ingest/decoders/harness.h"

struct gcell {
    char *name;   /* the name without its -N suffix */
    char *params; /* canonical */
    size_t first_line;
    json_t *metrics; /* unit -> array of values, in the order units first appear */
    json_t *order;   /* array of units */
    json_t *iterations;
};

static void gcells_free(struct gcell *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].params);
        json_decref(v[i].metrics);
        json_decref(v[i].order);
        json_decref(v[i].iterations);
    }
    free(v);
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

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return *s && !*end && errno == 0 && isfinite(*out);
}

int harness_gobench(struct harness_ctx *c, const char *text, size_t len)
{
    struct strbuf line = {0};
    json_t *attrs = json_object(), *pkg = NULL;
    struct gcell *cells = NULL;
    size_t ncells = 0, capcells = 0, lineno = 0;
    int rc = attrs ? 0 : ingest_report_oom(c->rep);
    char path[64];
    for (size_t pos = 0; rc == 0 && pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len, n = end - pos;
        lineno++;
        if (n && text[pos + n - 1] == '\r')
            n--;
        sb_reset(&line);
        if (sb_append(&line, text + pos, n) || sb_putc(&line, 0)) {
            rc = ingest_report_oom(c->rep);
            break;
        }
        pos = end + 1;
        char *s = line.buf, *key, *value;
        snprintf(path, sizeof path, "line %zu", lineno);
        if (config_line(s, &key, &value)) {
            if (strcmp(key, "pkg") == 0) {
                json_decref(pkg);
                pkg = json_string(value);
                if (!pkg)
                    rc = ingest_report_oom(c->rep);
                continue;
            }
            json_t *had = json_object_get(attrs, key);
            if (had && strcmp(json_string_value(had), value) != 0) {
                rc = harness_fail(c, path, "configuration \"%s\" changes from \"%s\" to \"%s\" (only pkg may change "
                                       "within a file: split it by %s)", key, json_string_value(had), value, key);
                break;
            }
            if (!had && json_object_set_new(attrs, key, json_string(value)))
                rc = ingest_report_oom(c->rep);
            continue;
        }
        if (strncmp(s, "Benchmark", 9) != 0 || (s[9] && islower((unsigned char)s[9])))
            continue;
        char *f[256];
        size_t nf = split(s, f, 255);
        if (nf == 1)
            continue; /* a name alone: go test -v prints it before the result line */
        char *iend;
        errno = 0;
        long long iters = nf >= 2 ? strtoll(f[1], &iend, 10) : 0;
        if (nf > 255 || nf < 4 || nf % 2 != 0 || errno || *iend || iters < 1) {
            rc = harness_fail(c, path, "malformed Benchmark line (expected a name, an iteration count >= 1 and "
                                   "value unit pairs)");
            break;
        }
        /* The -N suffix is GOMAXPROCS. */
        char *name = f[0], *dash = strrchr(name, '-');
        json_t *params = json_object();
        if (!params) {
            rc = ingest_report_oom(c->rep);
            break;
        }
        if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1)) {
            rc = json_object_set_new(params, "procs", json_integer(strtoll(dash + 1, NULL, 10)));
            *dash = 0;
        }
        if (pkg && rc == 0)
            rc = json_object_set(params, "pkg", pkg);
        rc = rc ? ingest_report_oom(c->rep) : harness_params(c, params);
        json_decref(params);
        if (rc)
            break;
        struct gcell *cell = NULL;
        for (size_t k = 0; k < ncells; k++)
            if (strcmp(cells[k].name, name) == 0 && strcmp(cells[k].params, c->params.buf) == 0)
                cell = &cells[k];
        if (!cell) {
            if (ncells == capcells) {
                size_t ncap = capcells ? 2 * capcells : 16;
                struct gcell *nv = realloc(cells, ncap * sizeof *nv);
                if (!nv) {
                    rc = ingest_report_oom(c->rep);
                    break;
                }
                cells = nv;
                capcells = ncap;
            }
            cell = &cells[ncells++];
            memset(cell, 0, sizeof *cell);
            cell->name = strdup(name);
            cell->params = strdup(c->params.buf);
            cell->first_line = lineno;
            cell->metrics = json_object();
            cell->order = json_array();
            cell->iterations = json_array();
            if (!cell->name || !cell->params || !cell->metrics || !cell->order || !cell->iterations) {
                rc = ingest_report_oom(c->rep);
                break;
            }
        }
        int primary = 0;
        for (size_t k = 2; k + 1 < nf; k += 2) {
            double v;
            if (!parse_double(f[k], &v)) {
                rc = harness_fail(c, path, "expected a finite number before unit \"%s\", got \"%s\"", f[k + 1], f[k]);
                break;
            }
            const char *unit = f[k + 1];
            primary |= strcmp(unit, "ns/op") == 0 || strcmp(unit, "sec/op") == 0;
            json_t *arr = json_object_get(cell->metrics, unit);
            if (!arr) {
                arr = json_array();
                if (!arr || json_object_set_new(cell->metrics, unit, arr) ||
                    json_array_append_new(cell->order, json_string(unit))) {
                    rc = ingest_report_oom(c->rep);
                    break;
                }
            }
            if (json_array_append_new(arr, json_real(v))) {
                rc = ingest_report_oom(c->rep);
                break;
            }
        }
        if (rc == 0 && !primary)
            rc = harness_fail(c, path, "no ns/op (or sec/op) value: the primary metric of a Go benchmark");
        if (rc == 0 && json_array_append_new(cell->iterations, json_integer(iters)))
            rc = ingest_report_oom(c->rep);
    }
    if (rc == 0 && json_object_size(attrs))
        rc = harness_attributes(c, attrs);
    for (size_t k = 0; rc == 0 && k < ncells; k++) {
        struct gcell *cell = &cells[k];
        sb_reset(&c->params);
        sb_puts(&c->params, cell->params);
        json_t *d = json_pack("{s:O}", "iterations", cell->iterations);
        sb_reset(&c->detail);
        if (!d || json_canonical(d, &c->detail))
            rc = ingest_report_oom(c->rep);
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
    }
    gcells_free(cells, ncells);
    json_decref(attrs);
    json_decref(pkg);
    sb_free(&line);
    return rc;
}
