/* Typed parameters of saved queries: parsing a header's TYPE, checking a
 * value against it, binding it (see param_type.h for the grammar). */
#include "query/param_type.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fnshared/numfmt.h"
#include "util/diag.h"
#include "util/xalloc.h"

static const char *const type_names[] = {"text", "integer", "real", "boolean", "choice", "time"};
static const char *const names_kinds[] = {"", "plan", "run", "host", "attribute", "metric", "benchmark", "source",
                                          "variant", "side", "sides", "params"};

const char *param_names_kind(enum param_names n) { return names_kinds[n]; }

static const char *skip_space(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* The word at *s (letters, digits, '_', '-'), advancing past it and the
 * blanks after; 1 if it equals w. */
static int take_word(const char **s, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(*s, w, n) != 0 || isalnum((unsigned char)(*s)[n]) || (*s)[n] == '_' || (*s)[n] == '-')
        return 0;
    *s = skip_space(*s + n);
    return 1;
}

static int parse_bound(const char **s, int *has, double *v)
{
    const char *p = skip_space(*s);
    *has = 0;
    if (*p == ',' || *p == ']' || *p == ')') {
        *s = p;
        return 0;
    }
    char *end;
    errno = 0;
    *v = strtod(p, &end);
    if (end == p || errno || !isfinite(*v))
        return -1;
    *has = 1;
    *s = skip_space(end);
    return 0;
}

static int parse_range(const char *s, struct param_range *r)
{
    if (*s != '[' && *s != '(')
        return -1;
    r->lo_open = *s == '(';
    s++;
    if (parse_bound(&s, &r->has_lo, &r->lo) || *s != ',')
        return -1;
    s++;
    if (parse_bound(&s, &r->has_hi, &r->hi) || (*s != ']' && *s != ')'))
        return -1;
    r->hi_open = *s == ')';
    if (*skip_space(s + 1))
        return -1;
    if (r->has_lo && r->has_hi && (r->lo > r->hi || (r->lo == r->hi && (r->lo_open || r->hi_open))))
        return -1;
    return 0;
}

int param_type_parse(const char *text, struct param_type_spec *t, char **err)
{
    memset(t, 0, sizeof *t);
    const char *s = skip_space(text);
    if (take_word(&s, "text")) {
        t->type = PARAM_TEXT;
        if (!*s)
            return 0;
        if (take_word(&s, "naming")) {
            if (!take_word(&s, "a"))
                take_word(&s, "an");
            for (int k = NAMES_PLAN; k < NAMES_COUNT; k++)
                if (take_word(&s, names_kinds[k]) && !*s) {
                    t->names = (enum param_names)k;
                    return 0;
                }
        }
        return bd_fail(err, "expected 'text', 'text naming a plan|run|host|attribute|metric|benchmark|source|variant|side', "
                            "'text naming sides' or 'text naming params', got '%s'", text);
    }
    if (take_word(&s, "integer") || take_word(&s, "real")) {
        t->type = strncmp(skip_space(text), "integer", 7) == 0 ? PARAM_INTEGER : PARAM_REAL;
        if (!*s)
            return 0;
        if (take_word(&s, "in") && parse_range(s, &t->range) == 0)
            return 0;
        return bd_fail(err, "expected '%s' or '%s in RANGE' with RANGE such as [1, 100], (0, 1) or [0, ), got '%s'",
                       type_names[t->type], type_names[t->type], text);
    }
    if (take_word(&s, "time")) {
        t->type = PARAM_TIME;
        if (!*s)
            return 0;
        return bd_fail(err, "expected 'time', got '%s'", text);
    }
    if (take_word(&s, "boolean")) {
        t->type = PARAM_BOOLEAN;
        if (!*s)
            return 0;
        return bd_fail(err, "expected 'boolean', got '%s'", text);
    }
    if (take_word(&s, "choice") && take_word(&s, "of") && *s) {
        t->type = PARAM_CHOICE;
        char *list = xstrdup(s), *save = NULL;
        if (!list)
            return bd_fail(err, "out of memory");
        for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            const char *b = skip_space(tok);
            size_t n = strlen(b);
            while (n && isspace((unsigned char)b[n - 1]))
                n--;
            if (!n)
                continue;
            char **v = xreallocarray(t->choices, (size_t)(t->nchoices + 1), sizeof *v);
            char *word = v ? xstrndup(b, n) : NULL;
            if (v)
                t->choices = v;
            if (!word) {
                free(list);
                param_type_free(t);
                return bd_fail(err, "out of memory");
            }
            t->choices[t->nchoices++] = word;
        }
        free(list);
        if (t->nchoices)
            return 0;
    }
    param_type_free(t);
    return bd_fail(err, "expected text, integer, real, boolean, time or 'choice of A, B, ...', got '%s'", text);
}

void param_type_free(struct param_type_spec *t)
{
    for (int i = 0; i < t->nchoices; i++)
        free(t->choices[i]);
    free(t->choices);
    memset(t, 0, sizeof *t);
}

static void put_range(struct strbuf *sb, const struct param_range *r)
{
    char lo[40] = "", hi[40] = "";
    if (r->has_lo)
        numfmt_real(lo, r->lo);
    if (r->has_hi)
        numfmt_real(hi, r->hi);
    /* 1.0 written as 1: a bound reads as the header wrote it. */
    for (char *b = lo; b; b = b == lo ? hi : NULL) {
        size_t n = strlen(b);
        if (n > 2 && strcmp(b + n - 2, ".0") == 0)
            b[n - 2] = 0;
    }
    sb_printf(sb, " in %c%s, %s%c", r->lo_open ? '(' : '[', lo, hi, r->hi_open ? ')' : ']');
}

static int has_range(const struct param_range *r) { return r->has_lo || r->has_hi; }

char *param_type_describe(const struct param_type_spec *t)
{
    struct strbuf sb = {0};
    sb_puts(&sb, type_names[t->type]);
    if (t->names)
        sb_printf(&sb, " naming %s%s",
                  t->names == NAMES_SIDES || t->names == NAMES_PARAMS ? "" : t->names == NAMES_ATTRIBUTE ? "an " : "a ",
                  names_kinds[t->names]);
    if ((t->type == PARAM_INTEGER || t->type == PARAM_REAL) && has_range(&t->range))
        put_range(&sb, &t->range);
    for (int i = 0; i < t->nchoices; i++)
        sb_printf(&sb, "%s%s", i ? ", " : " of ", t->choices[i]);
    return xsb_detach(&sb);
}

static int in_range(const struct param_range *r, double x)
{
    if (r->has_lo && (r->lo_open ? !(x > r->lo) : !(x >= r->lo)))
        return 0;
    if (r->has_hi && (r->hi_open ? !(x < r->hi) : !(x <= r->hi)))
        return 0;
    return 1;
}

static int expected(const struct param_type_spec *t, char **err, const char *what)
{
    struct strbuf sb = {0};
    sb_printf(&sb, "expected %s", what);
    if (has_range(&t->range))
        put_range(&sb, &t->range);
    bd_fail(err, "%s", xsb_text(&sb));
    sb_free(&sb);
    return -1;
}

/* An integer written in decimal, optionally signed: no blanks, no 0x. */
static int decimal_integer(const char *s)
{
    const char *p = s + (*s == '-' || *s == '+');
    if (!isdigit((unsigned char)*p))
        return 0;
    while (isdigit((unsigned char)*p))
        p++;
    return !*p;
}

/* A finite number written in decimal: digits, a point, an exponent. */
static int decimal_real(const char *s)
{
    const char *p = s + (*s == '-' || *s == '+');
    int digits = 0;
    while (isdigit((unsigned char)*p))
        p++, digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits++;
    if (!digits)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return 0;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return !*p;
}

char *param_time_normalize(const char *text)
{
    /* A private in-memory connection: nothing of the store is read, and
     * the same text comes out on either engine. */
    sqlite3 *mem = NULL;
    sqlite3_stmt *st;
    char *out = NULL;
    if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) != SQLITE_OK) {
        sqlite3_close(mem);
        return NULL;
    }
    /* As history_point_data.started is written (migration 0006). */
    if (sqlite3_prepare_v2(mem,
                           "SELECT strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(?1, 18, 2) = '60' "
                           "THEN upper(substr(?1, 1, 17) || '59' || substr(?1, 20)) ELSE upper(?1) END)",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT)
            out = xstrdup((const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    sqlite3_close(mem);
    return out;
}

/* A time compared as text with history_point.started must be written as
 * it is, or be a leading part of it ending at a field's end. */
static int time_parse(const char *text, char **err)
{
    char *utc = param_time_normalize(text);
    size_t n = strlen(text);
    int ok = utc && (n == 10 || n == 13 || n == 16 || n == 19 || n == 23 || n == 24) && strncmp(utc, text, n) == 0;
    if (!ok) {
        if (utc)
            bd_fail(err, "expected a UTC time as the store writes it (it is compared as text): %s, or a leading "
                         "part of it such as %.10s", utc, utc);
        else
            bd_fail(err, "expected a date (2026-01-31) or a UTC time as the store writes it (2026-01-31T00:00:00.000Z)");
    }
    free(utc);
    return ok ? 0 : -1;
}

int param_value_parse(const struct param_type_spec *t, const char *text, struct param_value *out, char **err)
{
    memset(out, 0, sizeof *out);
    out->s = text;
    out->sqlite_type = SQLITE_TEXT;
    switch (t->type) {
    case PARAM_TEXT:
        return 0;
    case PARAM_INTEGER: {
        errno = 0;
        long long v = decimal_integer(text) ? strtoll(text, NULL, 10) : 0;
        if (!decimal_integer(text) || errno || !in_range(&t->range, (double)v))
            return expected(t, err, "an integer");
        out->sqlite_type = SQLITE_INTEGER;
        out->i = v;
        return 0;
    }
    case PARAM_REAL: {
        errno = 0;
        double v = decimal_real(text) ? strtod(text, NULL) : 0;
        if (!decimal_real(text) || errno == ERANGE || !isfinite(v) || !in_range(&t->range, v))
            return expected(t, err, "a number");
        out->sqlite_type = SQLITE_FLOAT;
        out->d = v;
        return 0;
    }
    case PARAM_BOOLEAN: {
        static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no", "off", "0"};
        for (int i = 0; i < 4; i++)
            if (strcasecmp(text, yes[i]) == 0 || strcasecmp(text, no[i]) == 0) {
                out->sqlite_type = SQLITE_INTEGER;
                out->i = strcasecmp(text, yes[i]) == 0;
                return 0;
            }
        return bd_fail(err, "expected true or false (yes/no, on/off, 1/0)");
    }
    case PARAM_TIME:
        return time_parse(text, err);
    case PARAM_CHOICE: {
        for (int i = 0; i < t->nchoices; i++)
            if (strcmp(text, t->choices[i]) == 0)
                return 0;
        struct strbuf sb = {0};
        for (int i = 0; i < t->nchoices; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "", t->choices[i]);
        bd_fail(err, "expected one of %s", xsb_text(&sb));
        sb_free(&sb);
        return -1;
    }
    }
    return 0;
}

void param_value_null(struct param_value *out)
{
    memset(out, 0, sizeof *out);
    out->sqlite_type = SQLITE_NULL;
}

int param_value_bind(struct db_stmt *st, int i, const struct param_value *v)
{
    switch (v->sqlite_type) {
    case SQLITE_NULL: return db_bind_null(st, i);
    case SQLITE_INTEGER: return db_bind_int64(st, i, v->i);
    case SQLITE_FLOAT: return db_bind_double(st, i, v->d);
    default: return db_bind_text(st, i, v->s, -1);
    }
}

int param_value_json(struct strbuf *sb, const struct param_value *v)
{
    char buf[40];
    switch (v->sqlite_type) {
    case SQLITE_NULL: return sb_puts(sb, "null");
    case SQLITE_INTEGER: return sb_printf(sb, "%lld", v->i);
    case SQLITE_FLOAT: numfmt_real(buf, v->d); return sb_puts(sb, buf);
    default: return sb_json_string(sb, v->s, strlen(v->s));
    }
}

int param_value_equal(const struct param_value *a, const struct param_value *b)
{
    if (a->sqlite_type != b->sqlite_type)
        return 0;
    switch (a->sqlite_type) {
    case SQLITE_NULL: return 1;
    case SQLITE_INTEGER: return a->i == b->i;
    case SQLITE_FLOAT: return a->d == b->d;
    default: return strcmp(a->s, b->s) == 0;
    }
}
