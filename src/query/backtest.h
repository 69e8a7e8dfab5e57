#ifndef BENCHDB_BACKTEST_H
#define BENCHDB_BACKTEST_H
#include <sqlite3.h>
#include <stdio.h>

#include "output/output.h"
#include "query/saved.h"
#include "store/db.h"

/* A back-test: a gate (a saved query with scope = every: one row per run of
 * every history, judged against the runs before it, with the columns
 * host, benchmark, params, metric, variant, seq, run, revision, statistic,
 * limit and alert) evaluated as of each past run, and scored against a
 * reference (a saved query with host, benchmark, params, metric, variant,
 * seq and kind: `regressions`, or `injected-steps` for simulated
 * histories). Both are composed into one saved query, named
 * backtest-GATE, whose text holds both statements and the scoring, so that
 * its evaluation is recorded, listed and re-run like any other
 * (docs/queries.md, "Back-testing a gate"). */

/* The reference used when none is named: injected-steps when the store
 * holds injected steps, else regressions. */
const char *backtest_default_reference(struct db *db);

/* Composes the back-test of gate against reference (each a name or a
 * FILE.sql found through qp). Parameters: the gate's (scope fixed to
 * every), the reference's (one of the same name must have the same
 * default), and within. Returns NULL with *err set. */
struct saved_query *backtest_compose(const struct query_path *qp, const char *gate, const char *reference,
                                     char **err);

/* --since TIME as the gates compare it (UTC, 'YYYY-MM-DDTHH:MM:SS.sssZ'),
 * malloc'd; NULL when TIME is not a date or an RFC 3339 time. SQLite's
 * strftime on a private in-memory connection, whatever the store's engine. */
char *backtest_normalize_time(const char *time);

/* Prints a back-test's rows: in table and Markdown format, the summary
 * (total and per history) and then the alerts and missed events, each its
 * own table; in CSV and JSON, all rows. 0, or -1 on a write error. */
int backtest_print(const struct rowset *rows, const struct out_opts *o, FILE *out);

/* The total row in words, malloc'd ("gate-zscore caught 5 of 5 ..."). */
char *backtest_sentence(const struct rowset *rows, const char *gate);

#endif
