#ifndef BENCHDB_CLI_SQL_DOT_H
#define BENCHDB_CLI_SQL_DOT_H
/* benchdb sql: the sqlite3 shell's dot commands on either engine, and
 * what an SQL error about an unknown name suggests (docs/schema.md,
 * "Finding your way in the store"). */
#include "cli/cli.h"

struct sql_names {
    char **v;
    size_t n;
};
void sql_names_free(struct sql_names *names);

/* When text is a dot command (.tables [PATTERN], .schema [TABLE],
 * .functions), runs it, prints its result in out's format (.schema: the
 * definitions as text) and returns 1 with *rc the exit status; else 0. */
int sql_dot_command(struct db *db, const char *text, const struct out_opts *out, int *rc);

/* After an error naming a table, column or function that does not exist
 * (SQLite's "no such table: x", PostgreSQL's relation "x" does not exist),
 * appends "; did you mean 'y'?" or the nearest names to hint. */
void sql_error_hint(struct db *db, const char *msg, struct strbuf *hint);

#endif
