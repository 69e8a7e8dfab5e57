#ifndef BENCHDB_EVALUATE_H
#define BENCHDB_EVALUATE_H
#include <sqlite3.h>

#include "util/params.h"
#include "output/output.h"
#include "query/saved.h"

/* One evaluation of a saved query. */
struct evaluation {
    struct rowset rows;
    double ms;
    char *params_json;   /* the effective parameters, as bound */
    char *outcome;       /* one line: the outcome column's first value, or "N rows" */
    char *registration;  /* e.g. "pre-registered", "retroactive", "unregistered"; NULL if the query judges no plan */
    char *registration_note; /* a sentence explaining registration, or NULL */
    long long id;        /* the evaluation's id when recorded, else 0 */
};

/* Checks given parameters against the query's header: every given one is
 * declared, every required one given. Returns 0, or -1 with *err set (a
 * usage error: the caller exits 2 and lists the parameters). */
int evaluation_check_params(const struct saved_query *q, const struct params *given, char **err);

/* Runs q on db with the given parameters (defaults filled in, values bound,
 * never pasted). The query must be one read-only statement whose
 * parameters are all declared. With record, stores an `evaluation` row.
 * Returns 0, or -1 with *err set. */
int evaluation_run(sqlite3 *db, const struct saved_query *q, const struct params *given, int record,
                   struct evaluation *ev, char **err);
void evaluation_free(struct evaluation *ev);

/* SHA-256 over the sorted SHA-256s of the store's archives (hex, one per
 * line), and their count. */
int data_fingerprint(sqlite3 *db, char out[65], long long *count);

#endif
