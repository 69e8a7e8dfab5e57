#ifndef BENCHDB_SAVED_H
#define BENCHDB_SAVED_H
#include <stddef.h>

#include "query/param_type.h"

/* A saved query: a file NAME.sql holding one SQL statement with named
 * parameters, preceded by a header of comment lines (docs/queries.md):
 *   -- name: NAME
 *   -- summary: one line
 *   -- param: NAME [= DEFAULT]  description      (no default: required)
 *   -- type: NAME = TYPE           (optional: see param_type.h; else text)
 *   -- choices: NAME = A, B, ...   (the same as -- type: NAME = choice of A, B, ...)
 *   -- judges: PARAM      (optional: the parameter naming the judged plan)
 *   -- outcome: COLUMN    (optional: the column that holds, 1, or fails, 0,
 *                          in each row; --gate exits by it)
 *   -- verdict: COLUMN    (optional: the column whose first value says the
 *                          result in words, printed once)
 *   -- show: COL[, COL]...(optional: the columns a table shows)
 *   -- key: COL[, COL]... (optional: columns identifying a row, for history --diff)
 *   -- needs: SQL         (optional, repeatable: an expression on the
 *                          parameters that must be true for the query to
 *                          mean anything, e.g. EXISTS (SELECT ...))
 *   -- unmet: MESSAGE     (what to say when the needs line above is false;
 *                          :NAME stands for a parameter's value)
 * A default written `null` binds SQL NULL. */
struct saved_param {
    char *name;
    char *def;        /* NULL when required */
    int has_default;
    char *description;
    struct param_type_spec type; /* PARAM_TEXT unless declared */
    int line;         /* of its -- param: line */
};

struct saved_need {
    char *check;
    char *message;
    int line;
};

struct saved_query {
    char *name;
    char *summary;
    char *source;     /* "built-in" or the file's path */
    char *text;       /* the whole file, as hashed and recorded */
    const char *sql;  /* the statement: points into text, after the header */
    struct saved_param *params;
    int nparams;
    char *judges;
    char *outcome;
    char *verdict;
    char **keys;
    int nkeys;
    char **show;
    int nshow;
    struct saved_need *needs;
    int nneeds;
    int builtin;
};

/* Where saved queries come from, in lookup order: --queries entries
 * (directories or .sql files), then $BENCHDB_QUERIES (':'-separated), then
 * the queries compiled into the binary. The first query of a name wins. */
struct query_path {
    char **entries;
    int n;
};
int query_path_add(struct query_path *qp, const char *entry);
/* Adds $BENCHDB_QUERIES's entries. */
void query_path_add_env(struct query_path *qp);
void query_path_free(struct query_path *qp);

/* Parses text (taking ownership) as a saved query from source. Returns NULL
 * with *err set (naming source and line) when the header is malformed. */
struct saved_query *saved_query_parse(char *text, const char *source, int builtin, char **err);
void saved_query_free(struct saved_query *q);

/* A saved query file is untrusted input (docs/queries.md, "Where saved
 * queries come from"): it is read only if it is a regular file (a symbolic
 * link to one is fine; to /dev/zero or a FIFO is not) of at most this
 * many bytes, holding no NUL byte, with a header that parses. */
#define SAVED_QUERY_MAX_BYTES ((size_t)1 << 20)

/* Finds a query by name, or by path when name ends in .sql or holds a '/'
 * (such a file must be usable: its problem is the error). Returns NULL
 * with *err set when there is none (*unknown = 1: no query of that name;
 * the message suggests the nearest name or lists them) or when it cannot
 * be read or parsed (*unknown = 0): a file named NAME.sql on the query
 * path that cannot be used, unless a query NAME comes before it, is that
 * error too. Other files that cannot be used are skipped with a warning
 * on stderr. */
struct saved_query *saved_query_find(const struct query_path *qp, const char *name, int *unknown, char **err);

/* A file (or a query path entry) that could not be used, and why (the
 * message names it). entry: its index in the query path. */
struct query_skip {
    char *path;
    char *why;
    int entry;
};
struct query_skips {
    struct query_skip *v;
    int n;
};
void query_skips_free(struct query_skips *sk);

/* Every saved query reachable through qp, sorted by name (first of a name
 * wins); a file or entry that cannot be used (unreadable, not a regular
 * file, too large, a bad header) is skipped and noted in *sk (freed with
 * query_skips_free; zeroed on failure), so that one bad file does not
 * take the other queries with it. Returns the count, or -1 with *err set
 * (out of memory). */
int saved_query_scan(const struct query_path *qp, struct saved_query ***out, struct query_skips *sk, char **err);
/* saved_query_scan, printing a warning on stderr for each file skipped. */
int saved_query_list(const struct query_path *qp, struct saved_query ***out, char **err);
void saved_query_list_free(struct saved_query **v, int n);

const struct saved_param *saved_query_param(const struct saved_query *q, const char *name);
/* "plan (required), level = 0.95, ..." malloc'd. */
char *saved_query_param_list(const struct saved_query *q);

#endif
