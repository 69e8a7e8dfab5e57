/* The headline lines of a saved query's header, filled from its rows (see
 * headline.h and docs/report.md, "The headline"). */
#include "report/headline.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "report/display.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MAX_CONDS 16

enum op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

struct cond {
    char *col;
    enum op op;
    char *vals; /* alternatives separated by '|' */
    int none;   /* "no COL=VALUE" in distinct(): a group counts only when none of its rows holds it */
};

struct conds {
    struct cond v[MAX_CONDS];
    int n;
    char *order_col; /* largest / smallest: the row chosen among the matching ones */
    int order_abs, order_dir; /* dir: +1 largest, -1 smallest, 0 the first */
};

/* What a template is filled from. */
struct fill {
    const struct report_eval *ev, *chart_ev;
    json_t *row; /* the chosen row, or NULL */
    const char *where; /* "SOURCE:LINE" for errors */
    char **err;
};

static void conds_free(struct conds *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->v[i].col);
        free(c->v[i].vals);
    }
    free(c->order_col);
    memset(c, 0, sizeof *c);
}

static char *trimmed(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return xstrndup(s, n);
}

/* One item of a list: a condition (COL OP VALUE; when none_ok, in a list
 * that takes columns, also "no COL OP VALUE", which call() leaves to
 * distinct() alone) or, when order_ok, a choice
 * (largest COL, smallest |COL|). Returns 0, 1 when it is neither (a
 * column name, for distinct), -1 on an error or out of memory. */
static int cond_item(const char *s, size_t n, struct conds *c, int order_ok, int none_ok, const struct fill *f)
{
    char *t = trimmed(s, n);
    if (!t)
        return bd_fail(f->err, "out of memory");
    int none = strncmp(t, "no ", 3) == 0 && t[3 + strcspn(t + 3, "=!<>")];
    if (none && !none_ok) {
        free(t);
        return bd_fail(f->err, "%s: headline: '%.*s': 'no' is distinct()'s: a group none of whose rows holds it", f->where,
                       (int)n, s);
    }
    if (none) {
        char *rest = trimmed(t + 3, strlen(t + 3));
        free(t);
        if (!(t = rest))
            return bd_fail(f->err, "out of memory");
    }
    int dir = strncmp(t, "largest ", 8) == 0 ? 1 : strncmp(t, "smallest ", 9) == 0 ? -1 : 0;
    if (dir && order_ok) {
        char *col = t + (dir > 0 ? 8 : 9);
        while (*col == ' ')
            col++;
        size_t len = strlen(col);
        int abs_ = len > 2 && col[0] == '|' && col[len - 1] == '|';
        c->order_col = abs_ ? xstrndup(col + 1, len - 2) : xstrdup(col);
        c->order_abs = abs_;
        c->order_dir = dir;
        free(t);
        return c->order_col ? 0 : bd_fail(f->err, "out of memory");
    }
    size_t k = strcspn(t, "=!<>");
    if (!t[k]) {
        free(t);
        return 1;
    }
    if (c->n == MAX_CONDS) {
        free(t);
        return bd_fail(f->err, "%s: headline: more than %d conditions", f->where, MAX_CONDS);
    }
    struct cond *d = &c->v[c->n];
    const char *o = t + k;
    size_t ol = (o[1] == '=') ? 2 : 1;
    d->op = o[0] == '!' ? OP_NE : o[0] == '<' ? (ol == 2 ? OP_LE : OP_LT) : o[0] == '>' ? (ol == 2 ? OP_GE : OP_GT) : OP_EQ;
    if (o[0] == '!' && ol != 2) {
        free(t);
        return bd_fail(f->err, "%s: headline: '%.*s': expected COLUMN=VALUE, !=, <, <=, > or >=", f->where, (int)n, s);
    }
    d->col = trimmed(t, k);
    d->vals = trimmed(o + ol, strlen(o + ol));
    d->none = none;
    free(t);
    if (!d->col || !d->vals)
        return bd_fail(f->err, "out of memory");
    c->n++;
    if (!*d->col || !*d->vals)
        return bd_fail(f->err, "%s: headline: '%.*s': expected COLUMN=VALUE", f->where, (int)n, s);
    return 0;
}

/* A comma-separated list into conditions and (cols, when not NULL)
 * column names. Returns 0 or -1. */
static int parse_list(const char *s, size_t n, struct conds *c, int order_ok, char ***cols, int *ncols,
                      const struct fill *f)
{
    memset(c, 0, sizeof *c);
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != ',')
            j++;
        int rc = cond_item(s + i, j - i, c, order_ok, cols != NULL, f);
        if (rc < 0)
            return -1;
        if (rc == 1) {
            char *col = trimmed(s + i, j - i);
            char **grown = cols ? xreallocarray(*cols, (size_t)(*ncols + 1), sizeof **cols) : NULL;
            if (!col || !*col || !grown) {
                int empty = col && !*col;
                free(col);
                if (grown)
                    *cols = grown;
                return empty || !cols ? bd_fail(f->err, "%s: headline: '%.*s': expected a condition COLUMN=VALUE%s",
                                                f->where, (int)(j - i), s + i, order_ok ? " or largest COLUMN" : "")
                                      : bd_fail(f->err, "out of memory");
            }
            *cols = grown;
            (*cols)[(*ncols)++] = col;
        }
        i = j + 1;
    }
    return 0;
}

static void cols_free(char **cols, int n)
{
    for (int i = 0; i < n; i++)
        free(cols[i]);
    free(cols);
}

/* ---- rows ---- */

static int num_of(const char *s, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(s, &end);
    return end != s && !*end && !errno && isfinite(*x);
}

static int alt_equal(const json_t *v, const char *alt, size_t n)
{
    char *a = xstrndup(alt, n);
    if (!a)
        return 0;
    double x, y;
    int eq;
    if (strcmp(a, "null") == 0)
        eq = !v || json_is_null(v);
    else if (!v || json_is_null(v))
        eq = 0;
    else if (evaldata_num(v, &x) && !json_is_string(v) && num_of(a, &y))
        eq = x == y;
    else if (json_is_string(v))
        eq = strcmp(json_string_value(v), a) == 0;
    else {
        char *t = evaldata_exact(v);
        eq = t && strcmp(t, a) == 0;
        free(t);
    }
    free(a);
    return eq;
}

static int cond_holds(const struct cond *d, const json_t *row)
{
    const json_t *v = json_object_get(row, d->col);
    if (d->op == OP_EQ || d->op == OP_NE) {
        int any = 0;
        for (const char *p = d->vals; !any;) {
            size_t n = strcspn(p, "|");
            any = alt_equal(v, p, n);
            if (!p[n])
                break;
            p += n + 1;
        }
        return d->op == OP_EQ ? any : !any;
    }
    double x, y;
    if (!v || !evaldata_num(v, &x) || !num_of(d->vals, &y))
        return 0;
    switch (d->op) {
    case OP_LT: return x < y;
    case OP_LE: return x <= y;
    case OP_GT: return x > y;
    default: return x >= y;
    }
}

/* Whether row holds every condition but the groups' ("no ..."). */
static int row_matches(const struct conds *c, const json_t *row)
{
    for (int i = 0; i < c->n; i++)
        if (!c->v[i].none && !cond_holds(&c->v[i], row))
            return 0;
    return 1;
}

/* Whether row holds one of the groups' conditions ("no ..."): its group is not counted. */
static int row_rules_out(const struct conds *c, const json_t *row)
{
    for (int i = 0; i < c->n; i++)
        if (c->v[i].none && cond_holds(&c->v[i], row))
            return 1;
    return 0;
}

/* The row chosen by c among rows (NULL when none matches). */
static json_t *choose_row(const struct conds *c, const json_t *rows)
{
    json_t *best = NULL, *first = NULL;
    double bx = 0;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        if (!row_matches(c, row))
            continue;
        if (!c->order_dir)
            return row;
        if (!first)
            first = row;
        double x;
        if (!evaldata_num(json_object_get(row, c->order_col), &x))
            continue;
        if (c->order_abs)
            x = fabs(x);
        if (!best || (c->order_dir > 0 ? x > bx : x < bx)) {
            best = row;
            bx = x;
        }
    }
    return best ? best : first;
}

/* ---- placeholders ---- */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A row's combination of the columns' values, as one text; NULL when
 * memory ran out. */
static char *group_key(const json_t *row, char **cols, int ncols)
{
    struct strbuf sb = {0};
    for (int k = 0; k < ncols; k++) {
        char *t = evaldata_exact(json_object_get(row, cols[k]));
        sb_printf(&sb, "%s%s", k ? "\x1f" : "", t ? t : "");
        free(t);
    }
    if (sb.failed) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

/* distinct(COL, ..., CONDITIONS): how many distinct combinations of the
 * columns' values the matching rows hold, but those of which some row
 * holds a "no" condition (any row of the combination: compare's
 * benchmarks faster in one metric and slower in none, counted per
 * benchmark as compare counts them). Returns -1 when memory ran out. */
static long long count_distinct(const json_t *rows, char **cols, int ncols, const struct conds *c)
{
    size_t n = json_array_size(rows), m = 0, nx = 0, i;
    char **keys = xcalloc(n ? n : 1, sizeof *keys), **out = xcalloc(n ? n : 1, sizeof *out);
    long long count = keys && out ? 0 : -1;
    json_t *row;
    json_array_foreach(rows, i, row) {
        int in = row_matches(c, row), ruled_out = row_rules_out(c, row);
        char *key = count >= 0 && (in || ruled_out) ? group_key(row, cols, ncols) : NULL;
        if (count >= 0 && (in || ruled_out) && !key)
            count = -1;
        if (key && ruled_out)
            out[nx++] = in ? xstrdup(key) : key;
        if (key && in)
            keys[m++] = key;
    }
    if (count == 0) {
        qsort(keys, m, sizeof *keys, cmp_str);
        qsort(out, nx, sizeof *out, cmp_str);
        for (size_t k = 0; k < m; k++)
            count += (k == 0 || strcmp(keys[k], keys[k - 1]) != 0) &&
                     !(nx && bsearch(&keys[k], out, nx, sizeof *out, cmp_str));
    }
    for (size_t k = 0; k < m; k++)
        free(keys[k]);
    for (size_t k = 0; k < nx; k++)
        free(out[k]);
    free(keys);
    free(out);
    return count;
}

/* max / min / sum of a column over the matching rows: the row's value
 * (a new reference), or NULL when no matching row has a number there. */
static json_t *extreme(const json_t *rows, const char *col, const struct conds *c, int kind)
{
    const json_t *best = NULL;
    double bx = 0, sum = 0;
    int any = 0;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        const json_t *v = json_object_get(row, col);
        double x;
        if (!row_matches(c, row) || !evaldata_num(v, &x))
            continue;
        sum += x;
        any = 1;
        if (!best || (kind > 0 ? x > bx : x < bx)) {
            best = v;
            bx = x;
        }
    }
    if (kind == 0)
        return any ? json_real(sum) : NULL;
    return best ? json_incref((json_t *)best) : NULL;
}

/* A function placeholder: name(args) over rows. Returns 0 with *out (a
 * new reference, NULL: cannot be filled), or -1 on an error. */
static int call(const struct fill *f, const char *name, size_t nl, const char *args, size_t na, const json_t *rows,
                json_t **out)
{
    *out = NULL;
    struct conds c;
    char **cols = NULL;
    int ncols = 0, rc = -1;
#define IS(s) (nl == strlen(s) && strncmp(name, s, nl) == 0)
    if (IS("param")) {
        char *p = trimmed(args, na);
        json_t *v = p && f->ev ? json_object_get(f->ev->params, p) : NULL;
        free(p);
        *out = v && !json_is_null(v) ? json_incref(v) : NULL;
        return p ? 0 : bd_fail(f->err, "out of memory");
    }
    int takes_cols = IS("distinct") || IS("max") || IS("min") || IS("sum");
    if (!IS("count") && !takes_cols)
        return bd_fail(f->err, "%s: headline: '%.*s(...)': expected count, distinct, max, min, sum or param",
                       f->where, (int)nl, name);
    if (parse_list(args, na, &c, 0, takes_cols ? &cols : NULL, &ncols, f))
        goto out;
    for (int i = 0; i < c.n && !IS("distinct"); i++)
        if (c.v[i].none) {
            bd_fail(f->err, "%s: headline: %.*s(%.*s): 'no' is distinct()'s: a group none of whose rows holds it",
                    f->where, (int)nl, name, (int)na, args);
            goto out;
        }
    if (takes_cols && (ncols == 0 || (!IS("distinct") && ncols != 1))) {
        bd_fail(f->err, "%s: headline: %.*s(%.*s): expected %s, then conditions", f->where, (int)nl, name, (int)na,
                args, IS("distinct") ? "one or more columns" : "one column");
        goto out;
    }
    rc = 0;
    if (!rows) /* checking the syntax only */
        goto out;
    if (IS("count")) {
        long long n = 0;
        size_t i;
        json_t *row;
        json_array_foreach(rows, i, row) n += row_matches(&c, row);
        *out = json_integer(n);
    } else if (IS("distinct")) {
        long long n = count_distinct(rows, cols, ncols, &c);
        *out = n < 0 ? NULL : json_integer(n);
        rc = n < 0 ? bd_fail(f->err, "out of memory") : 0;
    } else {
        *out = extreme(rows, cols[0], &c, IS("max") ? 1 : IS("min") ? -1 : 0);
    }
#undef IS
out:
    conds_free(&c);
    cols_free(cols, ncols);
    return rc;
}

static const char *const formats[] = {"pct", "%", "share", "abs", "sha", "cell", "variant", "date", "time", NULL};

/* Whether fmt is a known format: a name above, 1 to 17 digits, or
 * WORD/WORDS (a count and its noun). */
static int format_known(const char *fmt)
{
    if (!*fmt)
        return 1;
    for (int i = 0; formats[i]; i++)
        if (strcmp(fmt, formats[i]) == 0)
            return 1;
    char *end;
    long d = strtol(fmt, &end, 10);
    if (!*end && d >= 1 && d <= 17)
        return 1;
    const char *slash = strchr(fmt, '/');
    return slash && slash > fmt && slash[1] && !strchr(slash + 1, '/');
}

/* v as fmt says; NULL when it cannot be (null, not a number for a number's
 * format, or shown as nothing). */
static char *format_value(const json_t *v, const char *fmt, int optional)
{
    char buf[64];
    double x;
    if (!v || json_is_null(v))
        return NULL;
    if (!*fmt || strcmp(fmt, "cell") == 0 || strcmp(fmt, "variant") == 0 || strcmp(fmt, "sha") == 0 ||
        strcmp(fmt, "date") == 0 ||
        strcmp(fmt, "time") == 0) {
        const char *s = json_is_string(v) ? json_string_value(v) : NULL;
        if (strcmp(fmt, "cell") == 0)
            return display_params_path(s); /* "" for {}: a cell without parameters */
        if (strcmp(fmt, "variant") == 0) /* the name a run without variants has: nothing to say */
            return s && strcmp(s, "default") != 0 ? display_value(v, REPORT_DIGITS, NULL) : NULL;
        double t;
        if ((strcmp(fmt, "date") == 0 || strcmp(fmt, "time") == 0) && s && display_time_parse(s, &t)) {
            display_time(buf, t, fmt[0] == 'd');
            if (fmt[0] == 't')
                buf[16] = 0; /* to the minute */
            return xstrdup(buf);
        }
        char *t2 = strcmp(fmt, "sha") == 0 && s ? xstrndup(s, 12) : display_value(v, REPORT_DIGITS, NULL);
        if (t2 && !*t2) {
            free(t2);
            return NULL;
        }
        return t2;
    }
    if (!evaldata_num(v, &x))
        return NULL;
    const char *slash = strchr(fmt, '/');
    if (slash) {
        if (x == 0 && optional)
            return NULL; /* "[, {count(...):improvement/improvements}]" says nothing of none */
        numfmt_sig(buf, x, REPORT_DIGITS);
        return bd_strdupf("%s %.*s", buf, x == 1 ? (int)(slash - fmt) : (int)strlen(slash + 1),
                          x == 1 ? fmt : slash + 1);
    }
    if (strcmp(fmt, "pct") == 0) {
        numfmt_sig(buf, fabs(x), 3);
        return bd_strdupf("%s%s%%", x > 0 ? "+" : x < 0 ? "-" : "", buf);
    }
    int share = strcmp(fmt, "share") == 0;
    if (x == 0 && optional && (share || strcmp(fmt, "%") == 0))
        return NULL; /* "[, a change of at least {param(min_magnitude):share}]" says nothing of 0% */
    int digits = isdigit((unsigned char)fmt[0]) ? atoi(fmt) : strcmp(fmt, "abs") == 0 ? REPORT_DIGITS : 3;
    numfmt_sig(buf, share ? 100 * x : strcmp(fmt, "abs") == 0 ? fabs(x) : x, digits);
    return bd_strdupf("%s%s", buf, strcmp(fmt, "%") == 0 || share ? "%" : "");
}

/* The text of one placeholder (between the braces, n bytes), or NULL when
 * it cannot be filled; *bad on an error. rows NULL: checking only. */
static char *placeholder(const struct fill *f, const char *s, size_t n, int check, int optional, int *bad)
{
    size_t depth = 0, colon = n;
    for (size_t i = 0; i < n && colon == n; i++) {
        depth += s[i] == '(';
        depth -= s[i] == ')' && depth;
        if (s[i] == ':' && !depth)
            colon = i;
    }
    char *fmt = colon < n ? trimmed(s + colon + 1, n - colon - 1) : xstrdup("");
    char *expr = trimmed(s, colon);
    char *text = NULL;
    json_t *v = NULL;
    if (!fmt || !expr) {
        *bad = bd_fail(f->err, "out of memory");
        goto out;
    }
    if (!format_known(fmt)) {
        *bad = bd_fail(f->err, "%s: headline: {%.*s}: unknown format '%s' (pct, %%, share, abs, sha, cell, variant, "
                               "date, time, DIGITS or WORD/WORDS)", f->where, (int)n, s, fmt);
        goto out;
    }
    const char *e = expr;
    const struct report_eval *src = f->ev;
    if (strncmp(e, "chart.", 6) == 0) {
        e += 6;
        src = f->chart_ev ? f->chart_ev : f->ev;
    }
    const char *paren = strchr(e, '(');
    if (paren) {
        size_t len = strlen(e);
        if (e[len - 1] != ')') {
            *bad = bd_fail(f->err, "%s: headline: {%.*s}: expected NAME(...)", f->where, (int)n, s);
            goto out;
        }
        if (call(f, e, (size_t)(paren - e), paren + 1, len - (size_t)(paren - e) - 2, check ? NULL : src->rows, &v)) {
            *bad = -1;
            goto out;
        }
    } else if (!*e) {
        *bad = bd_fail(f->err, "%s: headline: {}: expected a column or NAME(...)", f->where);
        goto out;
    } else if (!check && f->row) {
        v = json_incref(json_object_get(f->row, e));
    }
    /* a parameter without a format as people write it, the same double
     * (p ≤ 0.0012345678, not the 4 digits of a row's value, 0.001235) */
    int bare_param = paren && !*fmt && strncmp(e, "param(", 6) == 0 && json_is_real(v);
    /* a parameter in percent as given too (threshold=12.345: 12.345%, not 12.3%) */
    int pct_param = paren && strcmp(fmt, "%") == 0 && strncmp(e, "param(", 6) == 0 && json_is_number(v);
    if (!check && pct_param && (json_number_value(v) != 0 || !optional)) {
        char *given = evaldata_param(v);
        text = given ? bd_strdupf("%s%%", given) : NULL;
        free(given);
    } else if (!check)
        text = bare_param ? evaldata_param(v) : format_value(v, fmt, optional);
out:
    json_decref(v);
    free(fmt);
    free(expr);
    return text;
}

/* Where the bracket opened at s[i] closes (open '{' or '['), skipping
 * escapes and nested brackets of the same kind; n when it does not. */
static size_t closing(const char *s, size_t n, size_t i)
{
    char open = s[i], close = open == '{' ? '}' : ']';
    int depth = 0;
    for (; i < n; i++) {
        if (s[i] == '\\') {
            i++;
            continue;
        }
        depth += s[i] == open;
        if (s[i] == close && --depth == 0)
            return i;
    }
    return n;
}

/* Fills the template s[0..n) into sb. Returns 1 when every placeholder
 * outside an optional segment was filled, 0 when one was not, -1 on an
 * error (check: only the syntax is looked at; optional: inside [...]). */
static int render(const struct fill *f, const char *s, size_t n, struct strbuf *sb, int check, int optional)
{
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n) {
            sb_putc(sb, s[++i]);
        } else if (s[i] == '{' || s[i] == '[') {
            size_t j = closing(s, n, i);
            if (j == n)
                return bd_fail(f->err, "%s: headline: '%c' without its '%c'", f->where, s[i], s[i] == '{' ? '}' : ']');
            if (s[i] == '{') {
                int bad = 0;
                char *t = placeholder(f, s + i + 1, j - i - 1, check, optional, &bad);
                if (bad)
                    return -1;
                if (t)
                    sb_puts(sb, t);
                else
                    ok = 0;
                free(t);
            } else {
                struct strbuf part = {0};
                int rc = render(f, s + i + 1, j - i - 1, &part, check, 1);
                if (rc < 0) {
                    sb_free(&part);
                    return -1;
                }
                if (rc > 0 && part.len)
                    sb_append(sb, xsb_text(&part), part.len);
                sb_free(&part);
            }
            i = j;
        } else if (s[i] == '}' || s[i] == ']') {
            return bd_fail(f->err, "%s: headline: '%c' without its opening bracket", f->where, s[i]);
        } else {
            sb_putc(sb, s[i]);
        }
    }
    return check || ok;
}

/* One headline line's value (after "headline"): "[ROW]: TEMPLATE" or
 * ": TEMPLATE". Returns 1 with *out filled, 0 when the rows do not fill
 * it, -1 on an error. ev NULL: checks the syntax. */
static int headline_line(const char *line, const struct report_eval *ev, const struct report_eval *chart_ev,
                         const char *where, char **out, char **err)
{
    struct fill f = {ev, chart_ev, NULL, where, err};
    struct conds c = {0};
    const char *p = line;
    int rc = -1;
    if (*p == '[') {
        const char *q = strchr(p, ']');
        if (!q)
            return bd_fail(err, "%s: headline: '[' without its ']'", where);
        if (parse_list(p + 1, (size_t)(q - p - 1), &c, 1, NULL, NULL, &f))
            goto out;
        p = q + 1;
    }
    if (*p != ':') {
        bd_fail(err, "%s: headline: expected 'headline: TEMPLATE' or 'headline[ROW]: TEMPLATE'", where);
        goto out;
    }
    p++;
    while (*p == ' ')
        p++;
    if (!*p) {
        bd_fail(err, "%s: headline: the template is empty", where);
        goto out;
    }
    if (ev) {
        f.row = choose_row(&c, ev->rows);
        if (!f.row && (c.n || c.order_dir)) { /* the line is about a row, and none is */
            rc = 0;
            goto out;
        }
    }
    struct strbuf sb = {0};
    rc = render(&f, p, strlen(p), &sb, ev == NULL, 0);
    if (rc > 0 && sb.failed)
        rc = bd_fail(err, "out of memory");
    if (rc > 0 && ev)
        *out = sb_detach(&sb);
    sb_free(&sb);
out:
    conds_free(&c);
    return rc;
}

/* Calls fn for each headline line of text's header with "SOURCE:LINE";
 * stops at the first that returns non-zero, and returns that. */
static int each_line(const char *text, const char *source, int (*fn)(const char *, const char *, void *), void *arg)
{
    const char *p = text;
    for (int line = 1; *p; line++) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *l = p;
        while (len && isspace((unsigned char)*l))
            l++, len--;
        if (len >= 2 && strncmp(l, "--", 2) == 0) {
            const char *c = l + 2;
            while (*c == ' ')
                c++;
            size_t rest = len - (size_t)(c - l);
            if (rest > 8 && strncmp(c, "headline", 8) == 0 && (c[8] == '[' || c[8] == ':')) {
                char where[512];
                snprintf(where, sizeof where, "%s:%d", source, line);
                char *v = xstrndup(c + 8, rest - 8);
                int rc = v ? fn(v, where, arg) : -1;
                free(v);
                if (rc)
                    return rc;
            }
        } else if (len) {
            break; /* the statement: the header is over */
        }
        if (!eol)
            break;
        p = eol + 1;
    }
    return 0;
}

struct run_arg {
    const struct report_eval *ev, *chart_ev;
    char **out, **err;
    int rows_only;     /* no chart: a line reading chart.* is passed over */
    int passed_chart;  /* and one was */
    int without_chart; /* the line filled is a [without chart] one */
};

/* "headline[without chart]: ..." is for the terminal only, where no
 * chart's rows are at hand (report_headline_rows): what an empty result
 * means without the chart's counts. The line after the marker, or NULL
 * when v has none. */
static const char *without_chart(const char *v)
{
    static const char mark[] = "[without chart]";
    return strncmp(v, mark, sizeof mark - 1) == 0 ? v + sizeof mark - 1 : NULL;
}

/* Whether a line's template reads the chart's rows ({chart.NAME(...)}). */
static int reads_chart(const char *v)
{
    for (const char *c = strchr(v, '{'); c; c = strchr(c + 1, '{')) {
        const char *e = c + 1;
        while (*e == ' ')
            e++;
        if (strncmp(e, "chart.", 6) == 0)
            return 1;
    }
    return 0;
}

static int check_one(const char *v, const char *where, void *arg)
{
    char *out = NULL;
    const char *w = without_chart(v);
    int rc = headline_line(w ? w : v, NULL, NULL, where, &out, (char **)arg);
    free(out);
    return rc < 0 ? -1 : 0;
}

static int fill_one(const char *v, const char *where, void *arg)
{
    struct run_arg *a = arg;
    const char *w = without_chart(v);
    if (w && !a->rows_only)
        return 0; /* the terminal's line: a page has the chart's rows */
    if (a->rows_only && reads_chart(w ? w : v)) {
        a->passed_chart = 1;
        return 0;
    }
    int rc = headline_line(w ? w : v, a->ev, a->chart_ev, where, a->out, a->err);
    if (rc > 0 && w)
        a->without_chart = 1;
    return rc; /* 1: filled, stop; 0: the next line; -1: an error */
}

int report_headline_check(const char *text, const char *source, char **err)
{
    return text ? each_line(text, source, check_one, err) : 0;
}

int report_headline(const struct report_eval *ev, const struct report_eval *chart_ev, const char *source,
                    char **out, char **err)
{
    *out = NULL;
    struct run_arg a = {ev, chart_ev, out, err, 0, 0, 0};
    if (!ev->text)
        return 0;
    return each_line(ev->text, source, fill_one, &a) < 0 ? -1 : 0;
}

int report_headline_rows(const struct report_eval *ev, const char *source, char **out, char **err)
{
    *out = NULL;
    struct run_arg a = {ev, NULL, out, err, 1, 0, 0};
    if (!ev->text)
        return 0;
    if (each_line(ev->text, source, fill_one, &a) < 0)
        return -1;
    if (a.passed_chart && !a.without_chart && !report_nrows(ev)) { /* what an empty result looked at is the chart's to say */
        free(*out);
        *out = NULL;
    }
    return 0;
}

char *report_headline_answer(const struct report_eval *ev, const char *source, char **warning)
{
    char *out = NULL, *err = NULL;
    *warning = NULL;
    if (report_headline_rows(ev, source, &out, &err)) {
        free(out);
        out = NULL;
        *warning = bd_strdupf("warning: %s (no headline; 'benchdb report' refuses the query until it is fixed)",
                              err ? err : "a headline line cannot be read");
    }
    free(err);
    return out;
}

char *report_failing_words(const char *headline)
{
    const char *p = headline ? strstr(headline, "fails: ") : NULL;
    if (!p || !isdigit((unsigned char)p[7]))
        return NULL;
    p += 7;
    size_t n = strcspn(p, ",;");
    while (n && p[n - 1] == ' ')
        n--;
    return xstrndup(p, n);
}
