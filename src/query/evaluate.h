#ifndef BENCHDB_EVALUATE_H
#define BENCHDB_EVALUATE_H
#include <sqlite3.h>

#include "store/db.h"

#include "output/output.h"
#include "query/saved.h"
#include "query/schema_hash.h"
#include "util/params.h"

/* Evaluating a saved query, in the steps query_evaluate takes in order:
 * resolve the parameters (declared, typed, in range: a usage error
 * otherwise), check the values that name things in the store
 * (query/param_check.h), check the query's needs, run it read-only, sum
 * up its outcome, judge its registration, record it. */

/* Each declared parameter's value, given or default, checked against its
 * type; in header order. Texts point into the query or the params given. */
struct resolved_params {
    int n;
    struct param_value *v;
};
/* EXIT_OK, or EXIT_USAGE with *err: an undeclared or missing parameter, or
 * a value not of its type ("--param band_lo=abc: expected a number").
 * Messages here and in param_check name no query: the caller says which. */
int evaluation_resolve(const struct saved_query *q, const struct params *given, struct resolved_params *rp,
                       char **err);
void resolved_params_free(struct resolved_params *rp);

/* Checks the query's -- needs: lines in order: EXIT_OK; EXIT_NO_ROWS with
 * *err the -- unmet: message of the first that is false (its :NAMEs
 * replaced by the parameters' values); EXIT_FAIL with *err when a check
 * cannot run. */
int evaluation_check_needs(struct db *db, const struct saved_query *q, const struct resolved_params *rp, char **err);

/* One evaluation of a saved query. */
struct evaluation {
    struct rowset rows;
    double ms;
    char *params_json;   /* the effective parameters, as bound */
    char *outcome;       /* one line, as recorded: the verdict, else how many rows the outcome holds in, else "N rows" */
    char *verdict;       /* the -- verdict: column's first value, or NULL */
    int outcome_column;  /* the -- outcome: column's index in rows, or -1 */
    size_t holding;      /* rows whose outcome holds */
    int outcome_text;    /* some outcome value is text: not a truth value */
    char *registration;  /* e.g. "pre-registered", "retroactive", "unregistered"; NULL if the query judges no plan */
    char *registration_note; /* a sentence explaining registration, or NULL */
    long long id;        /* the evaluation's id when recorded, else 0 */
    int stopped;         /* ROWSET_OVER_ROWS or ROWSET_OVER_BYTES: a limit stopped it; else 0 */
    int record_failed;   /* it ran (rows and outcome are whole) but could not be recorded: 1, or 2 when its
                            result never can be (evaluation_recordable) */
    char schema_sha256[65]; /* what it read (query/schema_hash.h), when recorded or re-run; else "" */
    char *judged_plan;   /* the -- judges: parameter's value, or NULL */
    long long rule_id;   /* the registered rule of its text, or 0 */
    struct schema_reads read_set; /* re-run: the tables and views its schema hash covers */
    char *empty_why;     /* no rows: why, when the parameters say (param_explain_empty), else NULL */
};

/* Runs q on db with resolved parameters (values bound, never pasted). The
 * query must be one read-only statement whose parameters are all declared
 * and whose header names columns it has; its result is held within lim
 * (NULL: the defaults, ROWSET_MAX_*_DEFAULT). With record, stores an
 * `evaluation` row, after removing any time limit on db
 * (store_set_timeout: it limits the analysis, and recording is bounded).
 * Returns 0, or -1 with *err set; ev->stopped says a limit stopped it,
 * ev->record_failed that only recording failed (*err says why: the store
 * stayed locked past the busy timeout, a full disk...): ev is whole then,
 * and can be shown. */
int evaluation_run(struct db *db, const struct saved_query *q, const struct params *given,
                   const struct resolved_params *rp, int record, const struct rowset_limits *lim,
                   struct evaluation *ev, char **err);
void evaluation_free(struct evaluation *ev);

/* Whether ev's result can be recorded: the record holds JSON that every
 * reader takes (report, history --verify, a PostgreSQL store), so text
 * that is not UTF-8 or holds a NUL byte, in a value, a column's name or a
 * parameter, is refused by name (row, column, byte) rather than recorded
 * as bytes no reader can read back (docs/queries.md, "The verdict
 * history"). Returns 0, or -1 with *err ("cannot record the evaluation:
 * row 1, column a holds a byte that is not UTF-8 ..."). */
int evaluation_recordable(const struct evaluation *ev, char **err);

/* record for evaluation_run and query_evaluate: 0 not, 1 recorded, or
 * EVAL_RECORD_LATER: run as for recording (its schema hash computed) but
 * recorded by evaluation_record. */
enum { EVAL_RECORD_LATER = 2 };

/* Records an evaluation evaluation_run ran with EVAL_RECORD_LATER (report
 * checks that it can draw the rows first, so that a report that fails
 * records nothing). Sets ev->id. Returns 0, or -1 with *err ("cannot record
 * the evaluation: WHY"). */
int evaluation_record(struct db *db, const struct saved_query *q, struct evaluation *ev, char **err);

/* Runs a recorded evaluation's query again (history --verify): q parsed
 * from the recorded text, rp the values as recorded; no needs checked,
 * nothing recorded, no registration judged. Fills ev's rows, params_json,
 * outcome and schema_sha256. Returns 0, or -1 with *err (ev->stopped when
 * a limit stopped it). */
int evaluation_rerun(struct db *db, const struct saved_query *q, const struct resolved_params *rp,
                     const struct rowset_limits *lim, struct evaluation *ev, char **err);

/* The judgement of a re-run (history --verify): the -- judges: plan of
 * the values rp, and whether the rule was registered before it
 * (ev->judged_plan, ev->registration, ev->rule_id), as recording judges
 * them now. Returns 0, or -1 with *err. */
int evaluation_judge(struct db *db, const struct saved_query *q, const struct resolved_params *rp,
                     struct evaluation *ev, char **err);

/* Every step: EXIT_OK, EXIT_USAGE (a parameter), EXIT_NO_ROWS (needs
 * unmet: nothing run, nothing recorded) or EXIT_FAIL, with *err set (and
 * ev->stopped or ev->record_failed as evaluation_run sets them). */
int query_evaluate(struct db *db, const struct saved_query *q, const struct params *given, int record,
                   const struct rowset_limits *lim, struct evaluation *ev, char **err);

/* --gate: EXIT_OK when the outcome holds in every row, EXIT_NOT_HELD when
 * not, EXIT_NO_ROWS when there are no rows; EXIT_USAGE with *err when the
 * query has no -- outcome: column, EXIT_FAIL when a value of it is text. */
int evaluation_gate(const struct saved_query *q, const struct evaluation *ev, char **err);

/* SHA-256 over the sorted SHA-256s of the store's archives (hex, one per
 * line), and their count. Returns 0, or -1 with *err set. */
int data_fingerprint(struct db *db, char out[65], long long *count, char **err);
/* The same over the first `first` archives by id (first < 0: all): those
 * an evaluation that counted `first` archives saw, when none was deleted
 * since. */
int data_fingerprint_first(struct db *db, long long first, char out[65], long long *count, char **err);

#endif
