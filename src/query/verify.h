#ifndef BENCHDB_VERIFY_H
#define BENCHDB_VERIFY_H
#include "output/output.h"
#include "query/saved.h"
#include "store/db.h"

/* history --verify (docs/queries.md, "Re-verifying evaluations"): each
 * recorded evaluation run again on the current store, from its recorded
 * text with its recorded parameters, and compared with its record:
 *   rows     the result, row by row (matched by the query's -- key:);
 *   data     the archives it saw, by the data fingerprint: the same when
 *            the store holds them unchanged (archives ingested after it
 *            are counted, not a difference);
 *   schema   the definitions its statement read (query/schema_hash.h);
 *   text     the rule's text now (the saved query of its name on the query
 *            path; a back-test composed again from its gate and reference)
 *            against the text it ran;
 *   version  benchdb's version.
 * One row per evaluation: id, query, evaluated_at, result ("identical",
 * "differs", or "cannot re-run"), differences (what differs, in words),
 * then one column per comparison above ("same" or what differs). */
struct verify_counts {
    long long identical, differ;
    /* of those that differ, those whose rows alone moved, their archives
     * unchanged and more ingested since (a query of the latest runs) */
    long long since_only;
    /* the connection to the server was lost: the evaluations not tried
     * (none verified after it, which would each fail the same way), the
     * first of them (0: it was lost on the last one) */
    int lost;
    long long not_tried, first_not_tried;
};

/* ids: the evaluations (all of them when all is set), in the order given
 * (all: by id). Each runs within timeout seconds and lim; a lost
 * connection stops the rest (counts->lost, with what was not tried, the
 * rows verified until then in out). Returns 0, or
 * -1 with *err when the history cannot be read or an id names no
 * evaluation; an evaluation that cannot be re-run (an error, a limit) is
 * a row, not a failure. */
int history_verify(struct db *db, const struct query_path *qp, const long long *ids, int nids, int all, double timeout,
                   const struct rowset_limits *lim, struct rowset *out, struct verify_counts *counts, char **err);

#endif
