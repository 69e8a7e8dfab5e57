/* What the adapters share: field names for messages, params, checking
 * values, collecting them. */
#include "ingest/decoders/harness.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "ingest/core/decimal.h"
#include "ingest/core/jsonparse.h"
#include "ingest/core/jsontext.h"
#include "ingest/core/rfc3339.h"
#include "store/unit_rows.h"
#include "util/diag.h"
#include "util/text.h"

const char *harness_field(struct harness_ctx *c, const char *path)
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

int harness_fail(struct harness_ctx *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = bd_vstrdupf(fmt, ap);
    va_end(ap);
    ingest_report_fail(c->rep, harness_field(c, path), "%s", what);
    free(what);
    return -1;
}

int harness_number(const json_t *v, double *out)
{
    if (json_is_integer(v))
        *out = (double)json_integer_value(v);
    else if (json_is_real(v))
        *out = json_real_value(v);
    else
        return 0;
    return 1;
}

int harness_wrong(struct harness_ctx *c, const char *path, const char *what, const json_t *v)
{
    char got[96];
    if (v)
        json_describe(v, got, sizeof got);
    else
        snprintf(got, sizeof got, "nothing (missing)");
    return harness_fail(c, path, "expected %s, got %s", what, got);
}

int harness_params(struct harness_ctx *c, json_t *obj)
{
    sb_reset(&c->params);
    if (obj ? json_canonical(obj, &c->params) : sb_puts(&c->params, "{}"))
        return ingest_report_oom(c->rep);
    return 0;
}

int harness_detail(struct harness_ctx *c, const char *path, json_t *d)
{
    int depth = json_depth(d);
    if (depth > JSON_STORE_DEPTH_MAX)
        return harness_fail(c, path, "nested %d levels deep, more than the %d the store's JSON columns hold", depth,
                            JSON_STORE_DEPTH_MAX);
    sb_reset(&c->detail);
    if (json_canonical(d, &c->detail))
        return ingest_report_oom(c->rep);
    return 0;
}

int harness_series(struct harness_ctx *c, const char *path, const char *bench, long long fork, const char *metric,
                   const char *unit, const char *detail, const double *v, const int64_t *count, size_t n,
                   const double *warmup, size_t n_warmup)
{
    const char *field = harness_field(c, path);
    int primary = !metric || strcmp(metric, "primary") == 0;
    if (!primary && !*unit)
        return ingest_report_fail(c->rep, field, "expected a unit, got an empty string");
    if (primary) {
        int ix = store_unit_find(unit);
        if (ix < 0 || ix >= store_unit_primary_count)
            return ingest_report_fail(c->rep, field, "unit \"%s\" is not a time or throughput unit, which the primary metric "
                                              "needs (one of %s)", unit, store_unit_primary_list);
    }
    if (n == 0)
        return ingest_report_fail(c->rep, field, "no values");
    /* The primary metric's values are times or throughputs: >= 0 (a
     * harness's clock may read 0 for a very short command, and the value is
     * kept as measured); a further metric (allocations, bytes, counters)
     * may be anything finite. */
    for (int w = 0; w < 2; w++) {
        const double *x = w ? warmup : v;
        size_t m = w ? n_warmup : n;
        for (size_t i = 0; i < m; i++) {
            if (!isfinite(x[i]) || (primary && x[i] < 0)) {
                char d[32];
                numfmt_real(d, x[i]);
                return ingest_report_fail(c->rep, field, "%s[%zu]: expected a finite number%s, got %s", w ? "warmup" : "values",
                                   i, primary ? " >= 0" : "", d);
            }
            if (!w && count && count[i] < 1)
                return ingest_report_fail(c->rep, field, "values[%zu]: expected a count >= 1, got %lld", i,
                                   (long long)count[i]);
        }
    }
    char *f = strdup(field);
    if (!f)
        return ingest_report_oom(c->rep);
    struct sink_series x = {bench, c->params.buf ? c->params.buf : "{}", c->block, fork, c->variant, metric, unit,
                            detail, f, c->member_id};
    int rc = sink_series(c->sink, &x, v, count, n, warmup, n_warmup);
    free(f);
    if (rc == 0)
        c->values += n;
    else
        c->sink_error = 1;
    return rc;
}

int harness_event(struct harness_ctx *c, const char *name, const char *value, const char *detail)
{
    struct sink_value sv = {.type = value ? SV_TEXT : SV_NULL, .text = value, .len = value ? strlen(value) : 0};
    int rc = sink_event(c->sink, name, &sv, NULL, detail);
    c->sink_error |= rc != 0;
    if (rc == 0 && c->events++ == 0)
        snprintf(c->first_event, sizeof c->first_event, "%s %s", name, value ? value : "");
    return rc;
}

int harness_attributes(struct harness_ctx *c, json_t *attrs)
{
    int rc = sink_run_attributes(c->sink, attrs);
    c->sink_error |= rc != 0;
    return rc;
}

int harness_started_at(struct harness_ctx *c, const char *when)
{
    if (sink_appending(c->sink) || sink_run_has_start(c->sink))
        return 0;
    /* A local time without its offset cannot be placed: it stays where
     * the harness put it (attributes, detail) and the start unset. */
    int rc = rfc3339_valid(when) ? sink_run_started_at(c->sink, when) : 0;
    c->sink_error |= rc != 0;
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
        if (d->count) {
            int64_t *nc = realloc(d->count, ncap * sizeof *nc);
            if (!nc)
                return -1;
            d->count = nc;
        }
        d->cap = ncap;
    }
    if (count != 1 && !d->count) { /* the first count that is not 1: the 1s before it written out */
        if (!(d->count = malloc(d->cap * sizeof *d->count)))
            return -1;
        for (size_t i = 0; i < d->n; i++)
            d->count[i] = 1;
    }
    d->v[d->n] = v;
    if (d->count)
        d->count[d->n] = count;
    d->n++;
    return 0;
}

/* Element k of an array at path is not a number: "PATH[k]: expected a
 * finite number, got ...". */
static int not_a_number(struct harness_ctx *c, const char *path, size_t k, const json_t *v,
                        const struct json_flat_value *fv)
{
    char *p = bd_strdupf("%s[%zu]", path, k);
    int rc = !p ? ingest_report_oom(c->rep)
         : fv   ? harness_wrong_flat(c, p, "a finite number", fv)
                : harness_wrong(c, p, "a finite number", v);
    free(p);
    return rc;
}

/* The numbers of an array read flat into d. */
static int flat_numbers(struct harness_ctx *c, const char *path, const struct json_flat_array *fa, struct dvec *d)
{
    for (size_t k = 0; k < fa->n; k++) {
        const struct json_flat_value *x = json_flat_at(fa, k);
        double v;
        if (x->type == JSON_REAL)
            v = x->u.real;
        else if (x->type == JSON_INTEGER)
            v = (double)x->u.integer;
        else
            return not_a_number(c, path, k, NULL, x);
        if (dvec_push(d, v, 1))
            return ingest_report_oom(c->rep);
    }
    return 0;
}

int harness_numbers(struct harness_ctx *c, const char *path, const json_t *arr, struct dvec *d)
{
    if (!json_is_array(arr))
        return harness_wrong(c, path, "an array of numbers", arr);
    const struct json_flat_array *fa = json_flats_find(c->flats, arr, &c->flat_cursor);
    if (fa)
        return flat_numbers(c, path, fa, d);
    for (size_t k = 0; k < json_array_size(arr); k++) {
        double v;
        if (!harness_number(json_array_get(arr, k), &v))
            return not_a_number(c, path, k, json_array_get(arr, k), NULL);
        if (dvec_push(d, v, 1))
            return ingest_report_oom(c->rep);
    }
    return 0;
}

void dvec_free(struct dvec *d)
{
    free(d->v);
    free(d->count);
    memset(d, 0, sizeof *d);
}

int harness_companion_json(struct harness_ctx *c, const char *name, struct json_doc *doc)
{
    const struct harness_companion *f = NULL;
    for (size_t i = 0; i < c->n_companions; i++)
        if (strcmp(c->companions[i].name, name) == 0)
            f = &c->companions[i];
    if (!f || !f->bytes)
        return 0;
    struct json_parse_error je;
    size_t bom = utf8_bom_len(f->bytes, f->len);
    if (json_parse((const char *)f->bytes + bom, f->len - bom, doc, &je) != JSON_PARSED) {
        char *msg = json_parse_message(&je, 1);
        int rc = je.status == JSON_NO_MEMORY ? ingest_report_fail(c->rep, NULL, "%s", msg ? msg : "out of memory")
                                             : harness_fail(c, name, "%s", msg ? msg : "invalid JSON");
        free(msg);
        return rc;
    }
    json_doc_hold(doc);
    return 1;
}

int harness_source(struct harness_ctx *c, const char *rev)
{
    int rc = sink_run_source(c->sink, rev);
    c->sink_error |= rc != 0;
    return rc;
}

const struct json_flat_array *harness_flat(struct harness_ctx *c, const json_t *arr, const char *const *fields,
                                           struct json_flat_array **made)
{
    *made = NULL;
    const struct json_flat_array *a = json_flats_find(c->flats, arr, &c->flat_cursor);
    if (a)
        return a;
    if (!(*made = json_flat_from_tree(arr, fields)))
        ingest_report_oom(c->rep);
    return *made;
}

int harness_wrong_flat(struct harness_ctx *c, const char *path, const char *what, const struct json_flat_value *v)
{
    if (v->type == JSON_FLAT_ABSENT)
        return harness_wrong(c, path, what, NULL);
    json_t *j = json_flat_json(v);
    if (!j)
        return ingest_report_oom(c->rep);
    int rc = harness_wrong(c, path, what, j);
    json_decref(j);
    return rc;
}

json_t *harness_copy(json_t *obj)
{
    json_t *out = json_object();
    const char *key;
    json_t *v;
    if (out)
        json_object_foreach(obj, key, v) {
            if (json_object_set(out, key, v)) {
                json_decref(out);
                return NULL;
            }
        }
    return out;
}

int harness_decimal(const char *s, size_t n, double *out)
{
    /* A plain decimal of up to 19 digits is an exact integer over a power
     * of ten: decimal_exact converts it exactly when it can. Anything
     * else (an exponent, more digits) is left to strtod. */
    int neg = n && s[0] == '-';
    uint64_t m = 0;
    int digits = 0, frac = -1;
    for (size_t i = (size_t)neg; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            if (++digits > 19)
                return 0;
            m = m * 10 + (uint64_t)(s[i] - '0');
            frac += frac >= 0;
        } else if (s[i] == '.' && frac < 0) {
            frac = 0;
        } else {
            return 0;
        }
    }
    double v;
    if (digits == 0 || !decimal_exact(m, frac > 0 ? -frac : 0, &v))
        return 0;
    *out = neg ? -v : v;
    return 1;
}

int harness_number_cstr(const char *s, double *out)
{
    size_t n = strlen(s);
    if (harness_decimal(s, n, out))
        return 1;
    /* strtod's other syntaxes (hex, inf, nan, leading blanks) are not
     * numbers in any of these formats. */
    if (n == 0 || strspn(s, "0123456789+-.eE") != n)
        return 0;
    char *end;
    double v = strtod(s, &end);
    if (*end || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

int harness_parse_number(const char *s, size_t n, double *out)
{
    if (n && harness_decimal(s, n, out)) /* a plain decimal: read in place */
        return 1;
    char buf[64];
    if (n == 0 || n >= sizeof buf || memchr(s, 0, n))
        return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    return harness_number_cstr(buf, out);
}

void harness_ctx_free(struct harness_ctx *c)
{
    sb_free(&c->field);
    sb_free(&c->params);
    sb_free(&c->detail);
}

int harness_quote_nonfinite(const char *s, size_t n, struct strbuf *out)
{
    static const char *const words[] = {"-Infinity", "Infinity", "NaN"};
    int in_string = 0;
    size_t from = 0; /* copied up to here: the bytes go over in runs, not one call each */
    if (sb_grow(out, n))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (in_string) {
            if (s[i] == '\\' && i + 1 < n)
                i++;
            else
                in_string = s[i] != '"';
        } else if (s[i] == '"') {
            in_string = 1;
        } else if (s[i] == '-' || s[i] == 'I' || s[i] == 'N') { /* the words' first letters: no search per byte */
            size_t k = 0, m = 0;
            for (; k < 3; k++) {
                m = strlen(words[k]);
                if (n - i >= m && memcmp(s + i, words[k], m) == 0)
                    break;
            }
            if (k < 3) {
                if (sb_append(out, s + from, i - from) || sb_printf(out, "\"%s\"", words[k]))
                    return -1;
                from = i + m;
                i += m - 1;
            }
        }
    }
    return sb_append(out, s + from, n - from);
}

/* Whether s[0..n) holds w (memmem is a GNU extension). */
static int holds(const char *s, size_t n, const char *w)
{
    size_t m = strlen(w);
    for (const char *p = s; (p = memchr(p, w[0], n - (size_t)(p - s))) != NULL; p++)
        if ((size_t)(s + n - p) >= m && memcmp(p, w, m) == 0)
            return 1;
    return 0;
}

int harness_json_nonfinite(struct harness_ctx *c, const char *text, size_t len, int (*read)(struct harness_ctx *,
                                                                                               json_t *))
{
    struct strbuf q = {0};
    /* Most files have none of the words: read as they are, not copied. */
    int words = holds(text, len, "NaN") || holds(text, len, "Infinity");
    if (words && harness_quote_nonfinite(text, len, &q)) {
        sb_free(&q);
        return ingest_report_oom(c->rep);
    }
    struct json_doc doc;
    struct json_parse_error je;
    int rc;
    if (json_parse(words ? (q.buf ? q.buf : "") : text, words ? q.len : len, &doc, &je) != JSON_PARSED) {
        char *msg = json_parse_message(&je, 1);
        rc = je.status == JSON_NO_MEMORY ? ingest_report_fail(c->rep, NULL, "%s", msg ? msg : "out of memory")
                                         : harness_fail(c, NULL, "%s", msg ? msg : "invalid JSON");
        free(msg);
    } else {
        json_doc_hold(&doc);
        rc = read(c, doc.root);
        json_doc_free(&doc);
    }
    sb_free(&q);
    return rc;
}
