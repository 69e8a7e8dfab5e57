#ifndef BENCHDB_PARAMS_H
#define BENCHDB_PARAMS_H
#include <sqlite3.h>

/* A NAME=VALUE parameter from --param. */
struct param {
    char *name;
    char *value;
};
struct params {
    struct param *v;
    int n;
};
/* Adds NAME=VALUE (replacing an earlier value of NAME); -1 if not NAME=VALUE. */
int params_add(struct params *ps, const char *arg);
const char *params_get(const struct params *ps, const char *name);
void params_free(struct params *ps);
/* Binds a text value to parameter i: an integer or a finite real when the
 * whole text reads as one, else text. */
int bind_param_value(sqlite3_stmt *st, int i, const char *value);

#endif
