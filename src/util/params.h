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
/* Adds NAME=VALUE (NAME may be written :NAME, @NAME or $NAME). Returns 0;
 * -1 when arg is not NAME=VALUE; -2 when NAME was given before (a
 * repeated --param is a usage error, never a silent override). */
int params_add(struct params *ps, const char *arg);
const char *params_get(const struct params *ps, const char *name);
void params_free(struct params *ps);

/* How `benchdb sql` binds a --param value, having no declared types: as a
 * number only when the text is a number written the plain way, so that
 * binding it loses nothing of the text: an integer -?(0|[1-9][0-9]*) in
 * range, or a finite real -?(0|[1-9][0-9]*)(.[0-9]*[1-9])?([eE][-+]?[0-9]+)?
 * with a point or an exponent. Anything else binds as text: 007, 1.10,
 * +3, 0x10, nan, " 5". Returns sqlite3_bind_*'s result. */
int bind_plain_number_or_text(sqlite3_stmt *st, int i, const char *value);
/* The same judgement for any engine: SQLITE_INTEGER with *i, SQLITE_FLOAT
 * with *d, or SQLITE_TEXT (bind the text itself). */
int plain_number_parse(const char *value, long long *i, double *d);

#endif
