/* NAME=VALUE parameters (--param) and how their values bind. */
#include "util/params.h"

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
        if (strlen(ps->v[i].name) == nlen && strncmp(ps->v[i].name, arg, nlen) == 0) {
            free(ps->v[i].value);
            ps->v[i].value = strdup(eq + 1);
            return 0;
        }
    struct param *v = realloc(ps->v, (size_t)(ps->n + 1) * sizeof *v);
    if (!v)
        return -1;
    ps->v = v;
    ps->v[ps->n].name = strndup(arg, nlen);
    ps->v[ps->n].value = strdup(eq + 1);
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

int bind_param_value(sqlite3_stmt *st, int i, const char *value)
{
    if (*value && !strchr(" \t\n", value[0])) {
        char *end;
        errno = 0;
        long long ll = strtoll(value, &end, 10);
        if (*end == 0 && errno == 0)
            return sqlite3_bind_int64(st, i, ll);
        errno = 0;
        double d = strtod(value, &end);
        if (*end == 0 && errno == 0 && isfinite(d) && !strpbrk(value, "xXnN"))
            return sqlite3_bind_double(st, i, d);
    }
    return sqlite3_bind_text(st, i, value, -1, SQLITE_TRANSIENT);
}
