/* NAME=VALUE parameters (--param) and how `benchdb sql` binds them. */
#include "util/params.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int params_add(struct params *ps, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return -1;
    size_t nlen = (size_t)(eq - arg);
    /* Accept :name, @name and $name as well as name. */
    if (strchr(":@$", arg[0]) && nlen > 1) {
        arg++;
        nlen--;
    }
    for (int i = 0; i < ps->n; i++)
        if (strlen(ps->v[i].name) == nlen && strncmp(ps->v[i].name, arg, nlen) == 0)
            return -2;
    struct param *v = realloc(ps->v, (size_t)(ps->n + 1) * sizeof *v);
    if (!v)
        return -1;
    ps->v = v;
    ps->v[ps->n].name = strndup(arg, nlen);
    ps->v[ps->n].value = strdup(eq + 1);
    /* gcc -fanalyzer reads a leak of value: both are freed below on failure,
     * or kept in ps->v (ps->n counts them). */
    if (!ps->v[ps->n].name || !ps->v[ps->n].value) {
        free(ps->v[ps->n].name);
        free(ps->v[ps->n].value);
        return -1;
    }
    ps->n++;
    return 0;
}

const char *params_get(const struct params *ps, const char *name)
{
    for (int i = 0; i < ps->n; i++)
        if (strcmp(ps->v[i].name, name) == 0)
            return ps->v[i].value;
    return NULL;
}

void params_free(struct params *ps)
{
    for (int i = 0; i < ps->n; i++) {
        free(ps->v[i].name);
        free(ps->v[i].value);
    }
    free(ps->v);
    ps->v = NULL;
    ps->n = 0;
}

/* Digits at *p, advancing it; returns how many. */
static size_t digits(const char **p)
{
    size_t n = 0;
    while (isdigit((unsigned char)**p))
        (*p)++, n++;
    return n;
}

/* 0: not a plain number; 1: a plain integer; 2: a plain real. */
static int plain_number(const char *s)
{
    const char *p = s + (*s == '-');
    const char *int_start = p;
    size_t n = digits(&p);
    if (!n || (n > 1 && *int_start == '0'))
        return 0;
    int real = 0;
    if (*p == '.') {
        p++;
        if (!digits(&p) || p[-1] == '0')
            return 0; /* "1." or a trailing zero: 1.10 stays text */
        real = 1;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!digits(&p))
            return 0;
        real = 1;
    }
    return *p ? 0 : real ? 2 : 1;
}

int plain_number_parse(const char *value, long long *i, double *d)
{
    int kind = plain_number(value);
    char *end;
    errno = 0;
    if (kind == 1) {
        *i = strtoll(value, &end, 10);
        if (errno == 0)
            return SQLITE_INTEGER;
    } else if (kind == 2) {
        *d = strtod(value, &end);
        if (errno == 0 && isfinite(*d))
            return SQLITE_FLOAT;
    }
    return SQLITE_TEXT;
}

int bind_plain_number_or_text(sqlite3_stmt *st, int i, const char *value)
{
    long long ll = 0;
    double d = 0;
    switch (plain_number_parse(value, &ll, &d)) {
    case SQLITE_INTEGER: return sqlite3_bind_int64(st, i, ll);
    case SQLITE_FLOAT: return sqlite3_bind_double(st, i, d);
    default: return sqlite3_bind_text(st, i, value, -1, SQLITE_TRANSIENT);
    }
}
