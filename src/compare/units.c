/* Units, classes and number formatting as benchstat v2 has them
 * (units.h): golang.org/x/perf benchunit's tidy.go, parse.go and scale.go,
 * step for step, and Go's %v of a float. */
#include "compare/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/unit_rows.h"

/* benchunit's unit tokenizer: '*' starts the numerator again, '/' the
 * denominator, '-' and blanks separate; a token runs to the next of them. */
struct utok {
    const char *p;
    int denom;
    const char *tok;
    size_t len;
};

static int sep(char c)
{
    return c == '*' || c == '/' || c == '-' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

static int utok_next(struct utok *t)
{
    for (; *t->p && sep(*t->p); t->p++)
        if (*t->p == '*')
            t->denom = 0;
        else if (*t->p == '/')
            t->denom = 1;
    if (!*t->p)
        return 0;
    t->tok = t->p;
    while (*t->p && !sep(*t->p))
        t->p++;
    t->len = (size_t)(t->p - t->tok);
    return 1;
}

static int tok_is(const struct utok *t, const char *s)
{
    return t->len == strlen(s) && memcmp(t->tok, s, t->len) == 0;
}

double cmp_tidy_unit(const char *unit, char *out, size_t size)
{
    /* The testing package's units first, as benchunit does. */
    if (strcmp(unit, "ns/op") == 0) {
        snprintf(out, size, "sec/op");
        return 1e-9;
    }
    if (strcmp(unit, "MB/s") == 0) {
        snprintf(out, size, "B/s");
        return 1e6;
    }
    double factor = 1;
    size_t o = 0;
    struct utok t = {unit, 0, NULL, 0};
    const char *copied = unit;
    while (utok_next(&t)) {
        const char *rep = NULL;
        if (!t.denom && tok_is(&t, "ns")) {
            rep = "sec";
            factor /= 1e9;
        } else if (!t.denom && tok_is(&t, "MB")) {
            rep = "B";
            factor *= 1e6;
        }
        if (!rep)
            continue;
        o += (size_t)snprintf(out + o, o < size ? size - o : 0, "%.*s%s", (int)(t.tok - copied), copied, rep);
        copied = t.tok + t.len;
    }
    snprintf(out + o, o < size ? size - o : 0, "%s", copied);
    return factor;
}

double cmp_tidy_any(const char *unit, char *out, size_t size)
{
    const char *kind, *direction;
    double factor;
    size_t n = strlen(unit);
    if (cmp_unit_info(unit, &kind, &direction, &factor) == 0 && strcmp(kind, "time") == 0) {
        snprintf(out, size, "%s", n > 3 && strcmp(unit + n - 3, "/op") == 0 ? "sec/op" : "sec");
        return factor;
    }
    /* ops/ms and ops/s are one table, as ns/op and us/op are (a JMH run
     * with -tu ms against one with -tu s). */
    if (cmp_unit_info(unit, &kind, &direction, &factor) == 0 && strcmp(kind, "throughput") == 0) {
        snprintf(out, size, "ops/s");
        return factor;
    }
    return cmp_tidy_unit(unit, out, size);
}

int cmp_unit_binary(const char *unit)
{
    struct utok t = {unit, 0, NULL, 0};
    while (utok_next(&t))
        if (!t.denom && (tok_is(&t, "B") || tok_is(&t, "MB") || tok_is(&t, "bytes")))
            return 1;
    return 0;
}

/* ---- scaling ---- */

struct factor {
    double factor;
    const char *prefix;
    double t100, t10, t1; /* the values that print as 100.0, 10.00, 1.000 */
};

/* The thresholds are the doubles nearest to their decimal text (99.995e12
 * ...), which is how benchunit builds them so that they match what
 * printing rounds to; written here as the exact values. */
static const struct factor si[8] = {
    {1e12, "T", 0x1.6bc799d138000p+46, 0x1.230614a760000p+43, 0x1.d1a3543f00000p+39},
    {1e9, "G", 0x1.7482a9cc00000p+36, 0x1.2a02217000000p+33, 0x1.dcd0358000000p+29},
    {1e6, "M", 0x1.7d735e0000000p+26, 0x1.3129180000000p+23, 0x1.e841c00000000p+19},
    {1e3, "k", 0x1.869b000000000p+16, 0x1.387c000000000p+13, 0x1.f3f999999999ap+9},
    {1, "", 0x1.8ffae147ae148p+6, 0x1.3ffbe76c8b439p+3, 0x1.fff972474538fp-1},
    {1e-3, "m", 0x1.99945b6c3760cp-4, 0x1.47a9e2bcf91a3p-7, 0x1.06218230c7483p-10},
    {1e-6, "µ", 0x1.a368d04e0ba6ap-14, 0x1.4f870d0b3c855p-17, 0x1.0c6c0a6f639dep-20},
    {1e-9, "n", 0x1.ad79aa4bd2963p-24, 0x1.5794883ca8782p-27, 0x1.12dd39ca20602p-30},
};
/* Binary: 99.995, 9.9995 and .99995 times 2^40, 2^30, ... (benchunit's hex
 * constants, scaled exactly). */
#define IEC(e, p) {0x1p##e, p, 0x1.8ffae147ae148p+6 * 0x1p##e, 0x1.3ffbe76c8b439p+3 * 0x1p##e, 0x1.fff972474538fp-1 * 0x1p##e}
static const struct factor iec[5] = {IEC(40, "Ti"), IEC(30, "Gi"), IEC(20, "Mi"), IEC(10, "Ki"), IEC(0, "")};
#undef IEC
/* 9.9995e-1 ... 9.9995e-8: 3 to 10 digits after the point. */
static const double sigfigs[8] = {0x1.fff972474538fp-1, 0x1.99945b6c3760cp-4, 0x1.47a9e2bcf91a3p-7,
                                  0x1.06218230c7483p-10, 0x1.a368d04e0ba6ap-14, 0x1.4f870d0b3c855p-17,
                                  0x1.0c6c0a6f639dep-20, 0x1.ad79aa4bd2963p-24};

struct cmp_scaler cmp_common_scale(const double *vals, size_t n, int binary)
{
    double min = 0;
    for (size_t i = 0; i < n; i++) {
        double v = fabs(vals[i]);
        if (v != 0 && (min == 0 || v < min))
            min = v;
    }
    if (min == 0)
        return (struct cmp_scaler){3, 1, ""};
    const struct factor *f = binary ? iec : si;
    int nf = binary ? 5 : 8;
    for (int i = 0; i < nf; i++) {
        if (min >= f[i].t100)
            return (struct cmp_scaler){1, f[i].factor, f[i].prefix};
        if (min >= f[i].t10)
            return (struct cmp_scaler){2, f[i].factor, f[i].prefix};
        if (min >= f[i].t1)
            return (struct cmp_scaler){3, f[i].factor, f[i].prefix};
    }
    /* Below the smallest prefix: more digits after the point. */
    double val = min / f[nf - 1].factor;
    for (int i = 0; i < 8; i++)
        if (val >= sigfigs[i] || i == 7)
            return (struct cmp_scaler){i + 3, f[nf - 1].factor, f[nf - 1].prefix};
    return (struct cmp_scaler){3, 1, ""};
}

void cmp_scale_format(const struct cmp_scaler *s, double val, char *buf, size_t size)
{
    double x = val / s->factor;
    if (isnan(x))
        snprintf(buf, size, "NaN%s", s->prefix);
    else if (isinf(x))
        snprintf(buf, size, "%sInf%s", x < 0 ? "-" : "+", s->prefix);
    else
        snprintf(buf, size, "%.*f%s", s->prec, x, s->prefix);
}

void cmp_scale_one(double val, int binary, char *buf, size_t size)
{
    struct cmp_scaler s = cmp_common_scale(&val, 1, binary);
    cmp_scale_format(&s, val, buf, size);
}

/* ---- Go's %v ---- */

void cmp_go_float(double x, char *buf, size_t size)
{
    if (isnan(x) || isinf(x) || x == 0) {
        snprintf(buf, size, "%s", isnan(x) ? "NaN" : isinf(x) ? (x < 0 ? "-Inf" : "+Inf") : signbit(x) ? "-0" : "0");
        return;
    }
    /* The shortest digits that read back as x, and their exponent. */
    char e[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, x);
        if (strtod(e, NULL) == x)
            break;
    }
    char digits[24], *o = buf, *end = buf + size - 1;
    int nd = 0, neg = e[0] == '-';
    const char *q = e + neg;
    for (; *q && *q != 'e' && nd < 20; q++)
        if (*q != '.')
            digits[nd++] = *q;
    int exp = atoi(q + 1);
    if (neg && o < end)
        *o++ = '-';
    if (exp < -4 || exp >= 6) {
        /* d.ddde+XX */
        for (int i = 0; i < nd && o < end; i++) {
            if (i == 1)
                *o++ = '.';
            if (o < end)
                *o++ = digits[i];
        }
        snprintf(o, (size_t)(end - o) + 1, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
        return;
    }
    /* The digits with the point exp + 1 digits in (zeros filled in). */
    int point = exp + 1;
    if (point <= 0) {
        for (const char *z = "0."; *z && o < end; z++)
            *o++ = *z;
        for (int i = 0; i < -point && o < end; i++)
            *o++ = '0';
    }
    for (int i = 0; i < (nd > point ? nd : point) && o < end; i++) {
        if (i == point && point > 0 && o < end)
            *o++ = '.';
        if (o < end)
            *o++ = i < nd ? digits[i] : '0';
    }
    *o = 0;
}

/* ---- the store's built-in units (store/unit_rows.h, made from the schema) ---- */

int cmp_unit_info(const char *unit, const char **kind, const char **direction, double *factor)
{
    int i = store_unit_find(unit);
    if (i >= 0) {
        *kind = store_units[i].kind;
        *direction = store_units[i].direction;
        *factor = store_units[i].factor;
        return 0;
    }
    *kind = "other";
    *direction = NULL;
    *factor = 1;
    return -1;
}
