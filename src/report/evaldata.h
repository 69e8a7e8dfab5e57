#ifndef BENCHDB_EVALDATA_H
#define BENCHDB_EVALDATA_H
#include <jansson.h>
#include <stddef.h>

#include "store/db.h"

/* One recorded evaluation, read back from the `evaluation` table: what a
 * report draws. Its rows are the JSON the evaluation recorded, so the
 * picture and the verdict come from the same numbers. */
struct report_eval {
    long long id;
    char *query_name, *sha256, *text, *outcome, *evaluated_at, *tool_version;
    char *fingerprint, *judged_plan, *registration;
    long long archive_count, rule_id, row_count;
    json_t *params;   /* object: the effective parameters as bound */
    json_t *rows;     /* array of objects */
    const char **cols; /* the first row's column names, in order */
    int ncol;
};

/* Loads evaluation id. Returns 0, or -1 with *err set. */
int report_eval_load(struct db *db, long long id, struct report_eval *ev, char **err);
/* An evaluation that has run but is not recorded yet (id 0), from its
 * parameters and rows as JSON: what report checks it can draw before it
 * records anything. Returns 0, or -1 with *err set. */
int report_eval_unrecorded(struct report_eval *ev, const char *name, const char *params, const char *rows, char **err);
/* An evaluation made of rows in memory (a site's history): takes the
 * references params (an object) and rows (an array of objects). Returns
 * 0, or -1 (out of memory; both released). */
int report_eval_take(struct report_eval *ev, const char *name, json_t *params, json_t *rows);
void report_eval_free(struct report_eval *ev);

static inline size_t report_nrows(const struct report_eval *ev) { return json_array_size(ev->rows); }
static inline json_t *report_cell(const struct report_eval *ev, size_t i, const char *col)
{
    return json_object_get(json_array_get(ev->rows, i), col);
}
/* Whether the rows have column col (true when there are no rows). */
int report_has_col(const struct report_eval *ev, const char *col);

/* A JSON value as a number: numbers, true/false as 1/0, text that reads
 * wholly as a finite number. Returns 1, or 0 (null, other text). */
int evaldata_num(const json_t *v, double *out);
/* A JSON value as text for a page (numbers as table output shows them,
 * null as ""), malloc'd. digits: significant digits of reals. */
char *evaldata_show(const json_t *v, int digits);
/* A JSON value exactly (reals in shortest round-trip form, null as
 * "null"), malloc'd: for data attributes a test reads back. */
char *evaldata_exact(const json_t *v);
/* A recorded parameter's value as people write it: text bare, a real in
 * the shortest form that reads back as the same double (25, not 25.0:
 * `--param threshold=25` binds it again, a real parameter's type making
 * it a real), anything else as evaldata_exact; malloc'd. The record keeps
 * the real as a real (docs/report.md, "Parameters"). */
char *evaldata_param(const json_t *v);
/* Truthy: a non-zero number, true, or text other than "", "0", "false". */
int evaldata_truthy(const json_t *v);
/* Whether a row's outcome holds, as `benchdb query` counts it (docs/queries.md,
 * "Outcome, verdict and --gate"): a number other than 0 (or true); 0, null
 * and text do not. */
int evaldata_outcome_holds(const json_t *v);
/* How many of ev's rows the outcome column does not hold in (0 when
 * outcome is NULL: a lookup has no outcome). */
size_t report_failing_rows(const struct report_eval *ev, const char *outcome);

#endif
