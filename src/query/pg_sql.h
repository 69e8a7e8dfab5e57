#ifndef BENCHDB_PG_SQL_H
#define BENCHDB_PG_SQL_H
/* A saved query's SQL for PostgreSQL (docs/postgresql.md). Saved queries
 * are written in the SQL both engines run (docs/postgresql.md, "Saved
 * queries on PostgreSQL"); what differs is the parameters' types: each
 * named parameter (:name, also @name and $name) goes in a cast to the
 * type its declaration gives (-- type: lines), so that PostgreSQL knows it
 * even where the text alone does not say (:p IS NULL), and is bound by
 * its name as on SQLite (the connection layer sends it as $N):
 *   :level  ->  CAST(:level AS DOUBLE PRECISION)
 * or, for a client that sends no parameters (psql), the value itself:
 *   :level  ->  CAST('0.95' AS DOUBLE PRECISION)
 * Nothing else changes: string literals, quoted identifiers, comments
 * and PostgreSQL's :: casts are copied as they are. What the two engines
 * read differently is refused, for on PostgreSQL a saved query runs only
 * as the statement SQLite's read-only guard checked (docs/postgresql.md,
 * "Read-only analysis"): a string with a prefix (E'', N'', B'', U&''), a
 * U&"" name, a name quoted with [ ] or ` `, a dollar-quoted string, a
 * comment nested in another. */
#include "query/evaluate.h"
#include "query/saved.h"
#include "util/strbuf.h"

/* PostgreSQL's type for a declared parameter type: BIGINT for integers
 * and booleans (SQLite binds them 1 or 0), DOUBLE PRECISION for reals,
 * TEXT for the rest. */
const char *pg_param_type(const struct param_type_spec *t);

/* Writes what a parameter reference becomes: name (len bytes, without the
 * prefix) is the parameter. Returns 0, or -1 with *err set. */
typedef int (*pg_param_writer)(void *arg, const char *name, size_t len, struct strbuf *out, char **err);

/* sql with every named parameter reference replaced by what write()
 * makes of it, appended to out. A positional parameter (?, ?NNN) is an
 * error, as benchdb refuses it on SQLite, and so is a token the engines
 * read differently (above). Returns 0, or -1 with *err set. */
int pg_sql_rewrite(const char *sql, pg_param_writer write, void *arg, struct strbuf *out, char **err);

/* q's statement for PostgreSQL with each parameter in a cast to its
 * type, spelt :name whichever of SQLite's prefixes it had. Returns 0, or
 * -1 with *err set (a parameter the header does not declare, as on
 * SQLite). */
int pg_sql_typed(const struct saved_query *q, struct strbuf *out, char **err);
/* The same for another text of q's (a -- needs: check), its parameters
 * q's. */
int pg_sql_typed_text(const struct saved_query *q, const char *sql, struct strbuf *out, char **err);
/* For a client that binds parameters by number (bench/pg_query.c, libpq
 * alone): $k in a cast to its type, k the parameter's place in q's header
 * (1-based). */
int pg_sql_positional(const struct saved_query *q, struct strbuf *out, char **err);

/* q's statement with the resolved values written in as typed literals. */
int pg_sql_literal(const struct saved_query *q, const struct resolved_params *rp, struct strbuf *out, char **err);

#endif
