#ifndef BENCHDB_PARAM_TYPE_H
#define BENCHDB_PARAM_TYPE_H
#include <sqlite3.h>

#include "store/db.h"
#include "util/strbuf.h"

/* The type of a saved query's parameter, declared in its header by
 *   -- type: NAME = TYPE
 * with TYPE one of
 *   text                           any text (also the type of an undeclared parameter)
 *   text naming a plan             a plan that exists; likewise a run, a host,
 *   text naming an attribute       an attribute of a run, a metric, a benchmark,
 *                                  a source or a variant (see query/param_check.c)
 *   text naming a side             a run, a source, a host, a variant or a value of the
 *                                  attribute `key`, as the query's parameter `by`
 *                                  says (run, source, host, variant or attr; run when
 *                                  the query has no `by`)
 *   text naming sides              a comma-separated list of sides
 *   text naming params             a benchmark's parameters (a cell's canonical JSON,
 *                                  benchmark.params) that exist
 *   integer [in RANGE]             a decimal integer (64-bit)
 *   real [in RANGE]                a finite decimal number
 *   boolean                        true/false, yes/no, on/off or 1/0; binds 1 or 0
 *   choice of A, B, ...            one of the listed words, as text
 *   time                           a UTC time as the store writes history_point.started
 *                                  (2026-01-31T00:00:00.000Z), or a leading part of
 *                                  one (2026-01-31, 2026-01-31T06): compared as text
 *                                  with it, so that another way of writing a time
 *                                  (an offset, no milliseconds, 2026-1-31) is refused
 * and RANGE an interval, each end optional (unbounded) and closed by [ ]
 * or open by ( ): [1, 1000], (0, 1), [0, ). Values bind as their type:
 * integer as an SQLite integer, real as a real, the rest as text. */
enum param_type { PARAM_TEXT, PARAM_INTEGER, PARAM_REAL, PARAM_BOOLEAN, PARAM_CHOICE, PARAM_TIME };
enum param_names {
    NAMES_NOTHING, NAMES_PLAN, NAMES_RUN, NAMES_HOST, NAMES_ATTRIBUTE, NAMES_METRIC, NAMES_BENCHMARK, NAMES_SOURCE,
    NAMES_VARIANT, NAMES_SIDE, NAMES_SIDES, NAMES_PARAMS, NAMES_COUNT
};

struct param_range {
    int has_lo, has_hi;
    int lo_open, hi_open;
    double lo, hi;
};

struct param_type_spec {
    enum param_type type;
    enum param_names names;
    struct param_range range; /* integer and real */
    char **choices;           /* choice */
    int nchoices;
};

/* Parses TYPE; -1 with *err set ("expected ..., got ..."). */
int param_type_parse(const char *text, struct param_type_spec *t, char **err);
void param_type_free(struct param_type_spec *t);
/* TYPE as written canonically ("real in (0, 1)"), malloc'd. */
char *param_type_describe(const struct param_type_spec *t);
/* The name of what a NAMES_* value names: "plan", "run", ... */
const char *param_names_kind(enum param_names n);

/* A parameter's value, checked against its type, as it binds. */
struct param_value {
    int sqlite_type; /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT or SQLITE_TEXT */
    long long i;
    double d;
    const char *s;   /* the text given (not owned), or own */
    char *own;       /* the text as param_check completed it (an abbreviated revision, whole), malloc'd; freed by
                        resolved_params_free */
};
/* Checks text against t. Returns 0, or -1 with *err set to what was
 * expected ("expected a number in (0, 1)"). */
int param_value_parse(const struct param_type_spec *t, const char *text, struct param_value *out, char **err);
/* text (a date or an RFC 3339 time) in UTC as the store writes
 * history_point.started, 2026-01-31T00:00:00.000Z, by SQLite's strftime
 * (whatever engine the store is on); NULL when it is not a time. malloc'd. */
char *param_time_normalize(const char *text);
/* The SQL NULL value (a default written `null`). */
void param_value_null(struct param_value *out);
int param_value_bind(struct db_stmt *st, int i, const struct param_value *v);
/* As JSON: numbers as numbers, text as a string, NULL as null. */
int param_value_json(struct strbuf *sb, const struct param_value *v);
/* Whether two values are the same value (0.950 and 0.95 are). */
int param_value_equal(const struct param_value *a, const struct param_value *b);

#endif
