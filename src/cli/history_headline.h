#ifndef BENCHDB_CLI_HISTORY_HEADLINE_H
#define BENCHDB_CLI_HISTORY_HEADLINE_H
/* The first line of `benchdb history`'s list: what the listed evaluations
 * say, in words (docs/queries.md, "The history"). */
#include "cli/cli.h"
#include "store/db.h"

/* From the listed rows (id, evaluated_at, query, outcome): "5 evaluations
 * of 3 queries, 2026-12-01 to 2026-12-05; the latest decision of each
 * query: 1 of 2 fails (compare (id 4): 5 of 36 benchmarks slower or
 * worse); the latest: regressions (id 5): 8 rows, 2 regressions in 2
 * histories; ...". The latest decision of each query is read back from
 * the store (its rows, its -- outcome: column; a failing one counted in
 * its headline's unit, as its page counts it, else in rows), and so is
 * the latest evaluation when it is a lookup whose outcome is a row count,
 * for its headline; and whether each latest decision changed from its
 * query's decision before it (of the same plan): "1 of 2 changed from the
 * query's decision before it: gate-percent (id 4) holds, after id 2
 * failed". A headline line that does not parse is warned of in
 * rep (as `query` warns of it). older: the earlier evaluations a limit
 * left out, said after the count ("3 evaluations of 1 query (the last 3
 * of 13: 10 earlier not listed)"). NULL when rs has no rows. */
char *history_headline(struct db *db, const struct rowset *rs, long long older, struct out_notes *rep);

#endif
