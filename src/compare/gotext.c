/* Go benchmark text as benchstat reads it (golang.org/x/perf benchfmt's
 * Reader, docs/formats.md "go-bench"), line by line:
 *
 *  - "BenchmarkNAME ITERATIONS VALUE UNIT [VALUE UNIT]...": a result named
 *    NAME (the -N suffix kept: it is part of the full name), its values
 *    tidied (ns/op to sec/op...); a line that does not parse is skipped
 *    with a warning naming the file and line;
 *  - "Unit UNIT KEY=VALUE...": unit metadata; assume=exact makes the unit
 *    exact (mode, no test);
 *  - "key: value" (a key starting with a lower-case letter, holding no
 *    blank or upper-case letter, one or more blanks after the colon):
 *    file configuration for the lines after it; "key:" alone removes it;
 *  - everything else is ignored.
 * The configuration starts empty in every file; unit metadata holds across
 * files. A line must be UTF-8. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/internal.h"
#include "compare/units.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/text.h"

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* benchfmt's splitField: the next field of *s and the blanks after it. */
static size_t split_field(const char **s, const char *end, const char **field)
{
    const char *p = *s;
    *field = p;
    while (p < end && !is_space((unsigned char)*p))
        p++;
    size_t n = (size_t)(p - *field);
    while (p < end && is_space((unsigned char)*p))
        p++;
    *s = p;
    return n;
}

static int utf8_valid(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!len || i + len > n || (len == 2 && c < 0xC2))
            return 0;
        uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        i += len;
    }
    return 1;
}

/* The file's configuration, in benchfmt's order: new keys at the end, a
 * removed key replaced by the last one. */
struct config {
    struct cmp_config *v;
    char **owned; /* the strings, malloc'd: keys and values alternating */
    size_t n, cap;
};

static void config_free(struct config *c)
{
    for (size_t i = 0; i < 2 * c->n; i++)
        free(c->owned[i]);
    free(c->v);
    free(c->owned);
}

static int config_set(struct config *c, const char *key, size_t klen, const char *val, size_t vlen)
{
    size_t i = 0;
    while (i < c->n && !(strlen(c->v[i].key) == klen && memcmp(c->v[i].key, key, klen) == 0))
        i++;
    if (vlen == 0) { /* "key:" removes it */
        if (i < c->n) {
            free(c->owned[2 * i]);
            free(c->owned[2 * i + 1]);
            c->n--;
            c->owned[2 * i] = c->owned[2 * c->n];
            c->owned[2 * i + 1] = c->owned[2 * c->n + 1];
            c->v[i] = c->v[c->n];
        }
        return 0;
    }
    char *v = xstrndup(val, vlen);
    if (!v)
        return -1;
    if (i < c->n) {
        free(c->owned[2 * i + 1]);
        c->owned[2 * i + 1] = v;
        c->v[i].value = v;
        return 0;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        struct cmp_config *nv = xreallocarray(c->v, cap, sizeof *nv);
        if (nv)
            c->v = nv;
        char **no = nv ? xreallocarray(c->owned, 2 * cap, sizeof *no) : NULL;
        if (!no) {
            free(v);
            return -1;
        }
        c->owned = no;
        c->cap = cap;
    }
    char *k = xstrndup(key, klen);
    if (!k) {
        free(v);
        return -1;
    }
    c->owned[2 * c->n] = k;
    c->owned[2 * c->n + 1] = v;
    c->v[c->n++] = (struct cmp_config){k, v};
    return 0;
}

/* benchfmt's parseKeyValueLine: 1 with the key and value, else 0. */
static int key_value(const char *s, const char *end, size_t *klen, const char **val, size_t *vlen)
{
    if (s == end || !(*s >= 'a' && *s <= 'z'))
        return 0;
    const char *p = s;
    while (p < end && *p != ':') {
        if (is_space((unsigned char)*p) || (*p >= 'A' && *p <= 'Z'))
            return 0;
        p++;
    }
    if (p == end)
        return 0;
    *klen = (size_t)(p - s);
    const char *v = p + 1;
    if (v == end) {
        *val = v;
        *vlen = 0;
        return 1;
    }
    if (*v != ' ' && *v != '\t')
        return 0;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    *val = v;
    *vlen = (size_t)(end - v);
    return 1;
}

struct reader {
    struct cmp_builder *b;
    const char *col, *file;
    long line;
    struct config cfg;
    struct cmp_value *vals;
    char *units;              /* tidied units, 2 * field length + 1 each */
    size_t cap_vals, cap_units;
};

static void syntax(const struct reader *r, const char *msg)
{
    bd_warning("%s:%ld: %s", r->file, r->line, msg);
}

/* Go's strconv.Atoi: an optional sign and decimal digits. */
static const char *parse_iterations(const char *f, size_t n)
{
    size_t i = n && (f[0] == '+' || f[0] == '-');
    if (i == n)
        return "parsing iteration count: invalid syntax";
    unsigned long long v = 0;
    for (; i < n; i++) {
        if (f[i] < '0' || f[i] > '9')
            return "parsing iteration count: invalid syntax";
        if (v > (9223372036854775807ull - (unsigned)(f[i] - '0')) / 10)
            return "parsing iteration count: value out of range";
        v = v * 10 + (unsigned)(f[i] - '0');
    }
    return NULL;
}

/* Go's strconv.ParseFloat (benchfmt tries the digits-only case first). */
static const char *parse_value(const char *f, size_t n, double *out)
{
    char buf[128];
    if (n >= sizeof buf)
        return "parsing measurement: invalid syntax";
    memcpy(buf, f, n);
    buf[n] = 0;
    int hex = n > 1 && (buf[buf[0] == '+' || buf[0] == '-'] == '0') &&
              (strchr(buf, 'x') || strchr(buf, 'X'));
    if (strchr(buf, '(') || (hex && !strchr(buf, 'p') && !strchr(buf, 'P')))
        return "parsing measurement: invalid syntax";
    char *end;
    errno = 0;
    *out = strtod(buf, &end);
    if (end == buf || *end)
        return "parsing measurement: invalid syntax";
    if (errno == ERANGE && isinf(*out))
        return "parsing measurement: value out of range";
    return NULL;
}

static int room(struct reader *r, size_t nv, size_t unit_bytes)
{
    if (nv > r->cap_vals) {
        struct cmp_value *v = xreallocarray(r->vals, nv * 2, sizeof *v);
        if (!v)
            return -1;
        r->vals = v;
        r->cap_vals = nv * 2;
    }
    if (unit_bytes > r->cap_units) {
        char *u = xreallocarray(r->units, unit_bytes * 2, 1);
        if (!u)
            return -1;
        r->units = u;
        r->cap_units = unit_bytes * 2;
    }
    return 0;
}

/* A Benchmark line (s: after "Benchmark"): 0, 1 when skipped with a
 * warning, -1 when memory ran out. */
static int benchmark_line(struct reader *r, const char *s, const char *end)
{
    const char *name, *f;
    size_t nname = split_field(&s, end, &name), n = split_field(&s, end, &f);
    const char *bad = n ? parse_iterations(f, n) : "missing iteration count";
    /* Each value's unit as written and tidied, in r->units (tidying grows a unit by half at most). */
    if (!bad && room(r, (size_t)(end - s) / 2 + 1, 6 * (size_t)(end - s) + 64))
        return -1;
    size_t nv = 0, uoff = 0;
    int has_ns = 0;
    while (!bad) {
        n = split_field(&s, end, &f);
        if (!n) {
            bad = nv ? NULL : "missing measurements";
            break;
        }
        double v;
        if ((bad = parse_value(f, n, &v)))
            break;
        const char *u;
        size_t nu = split_field(&s, end, &u);
        if (!nu) {
            bad = "missing units";
            break;
        }
        /* unit as written, then tidied, in r->units */
        char *orig = r->units + uoff;
        memcpy(orig, u, nu);
        orig[nu] = 0;
        char *tidy = orig + nu + 1;
        double factor = cmp_tidy_unit(orig, tidy, 2 * nu + 8);
        uoff += nu + 1 + strlen(tidy) + 1;
        has_ns |= strcmp(orig, "ns/op") == 0;
        r->vals[nv++] = (struct cmp_value){factor == 1 ? v : v * factor, tidy, orig, NULL, 0};
    }
    if (bad) {
        syntax(r, bad);
        return 1;
    }
    /* The metric as ingest names it: ns/op (else sec/op) the primary one. */
    for (size_t i = 0; i < nv; i++)
        if (strcmp(r->vals[i].orig_unit, "ns/op") == 0 || (!has_ns && strcmp(r->vals[i].orig_unit, "sec/op") == 0))
            r->vals[i].metric = "primary";
    char *full = xstrndup(name, nname);
    if (!full)
        return -1;
    int rc = cmp_builder_add(r->b, r->col, r->cfg.v, r->cfg.n, full, r->vals, nv);
    free(full);
    return rc;
}

/* A "Unit" line (s: after its first field): each KEY=VALUE; assume=exact
 * makes the tidied unit exact. Metadata holds across files; a key given
 * another value is a warning. */
static int unit_line(struct reader *r, const char *s, const char *end)
{
    const char *u, *f;
    size_t nu = split_field(&s, end, &u);
    if (!nu) {
        syntax(r, "missing unit");
        return 1;
    }
    char *unit = xstrndup(u, nu), *tidy = xmalloc(2 * nu + 8);
    int rc = unit && tidy ? 0 : -1;
    if (rc == 0)
        cmp_tidy_unit(unit, tidy, 2 * nu + 8);
    for (size_t n; rc == 0 && (n = split_field(&s, end, &f));) {
        const char *eq = memchr(f, '=', n);
        if (!eq || eq == f) {
            syntax(r, "expected key=value");
            continue;
        }
        struct strbuf key = {0};
        rc = sb_puts(&key, tidy) || sb_putc(&key, 0) || sb_append(&key, f, (size_t)(eq - f)) ? -1 : 0;
        const char *val = eq + 1;
        size_t nval = n - (size_t)(eq - f) - 1;
        int vid = rc ? -1 : intern(&r->b->values, &r->b->arena, val, nval);
        int64_t *had = vid < 0 ? NULL : idmap_get(&r->b->unit_meta, key.buf, key.len);
        if (vid < 0)
            rc = -1;
        else if (had && *had != vid) {
            char *msg = bd_strdupf("metadata %.*s of unit %s already set to %s", (int)(eq - f), f, unit,
                                   r->b->values.s[*had - 1]);
            syntax(r, msg);
            free(msg);
        } else if (!had) {
            rc = idmap_put(&r->b->unit_meta, key.buf, key.len, vid);
            if (rc == 0 && eq - f == 6 && memcmp(f, "assume", 6) == 0 && nval == 5 && memcmp(val, "exact", 5) == 0)
                rc = cmp_builder_exact(r->b, tidy);
        }
        sb_free(&key);
    }
    free(unit);
    free(tidy);
    return rc;
}

static int one_line(struct reader *r, const char *s, const char *end)
{
    if (end - s >= 9 && memcmp(s, "Benchmark", 9) == 0)
        return benchmark_line(r, s + 9, end);
    const char *f, *p = s;
    if (p < end && *p == 'U' && split_field(&p, end, &f) == 4 && memcmp(f, "Unit", 4) == 0)
        return unit_line(r, p, end);
    size_t klen, vlen;
    const char *val;
    if (key_value(s, end, &klen, &val, &vlen))
        return config_set(&r->cfg, s, klen, val, vlen);
    return 0;
}

int cmp_read_gotext(struct cmp_builder *b, const char *col, const char *file, const char *text, size_t len,
                    char **err)
{
    struct reader r = {.b = b, .col = col, .file = file};
    int rc = 0;
    for (size_t pos = utf8_bom_len(text, len); rc >= 0 && pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t e = nl ? (size_t)(nl - text) : len, n = e - pos;
        r.line++;
        if (n && text[pos + n - 1] == '\r')
            n--;
        if (!utf8_valid((const unsigned char *)text + pos, n)) {
            rc = -2;
            bd_fail(err, "%s:%ld: not UTF-8 (benchstat reads only UTF-8 text)", file, r.line);
            break;
        }
        rc = one_line(&r, text + pos, text + pos + n);
        pos = e + 1;
    }
    if (rc == -1)
        bd_fail(err, "%s: out of memory", file);
    config_free(&r.cfg);
    free(r.vals);
    free(r.units);
    return rc < 0 ? rc : 0;
}
