#ifndef BENCHDB_HISTORY_H
#define BENCHDB_HISTORY_H
#include <sqlite3.h>

#include "store/db.h"

#include "output/output.h"

/* The verdict history: the `evaluation` table (docs/queries.md). */

/* The last `limit` (< 0: all) evaluations of the query name (NULL: of
 * every query), oldest first: id, evaluated_at, query, sha256 (short),
 * params, outcome, registration. With decisions set (and name NULL), only
 * the decisions: evaluations of a query with an -- outcome: line, and
 * back-tests; *lookups (when not NULL) is then set to how many others
 * there are (lookups recorded with --record or for a page); *older (when
 * not NULL) to how many earlier ones the limit left out. Returns 0, or -1
 * with *err. */
int history_list(struct db *db, const char *name, long long limit, int decisions, long long *lookups,
                 long long *older, struct rowset *rs, char **err);

/* The names of the queries with recorded evaluations, sorted. Returns the
 * count, or -1 with *err; free with history_names_free. */
int history_names(struct db *db, char ***names, char **err);
void history_names_free(char **names, int n);

/* "no evaluation ID in the store (its evaluations are 1 to 4: 'benchdb
 * history --all' lists them)", or "(it holds none yet)": the one message
 * of an id that names no evaluation, with the ids there are. -1. */
int history_no_evaluation(struct db *db, long long id, char **err);

/* What changed between two evaluations of one query. */
struct history_diff {
    long long id[2];
    char *query;
    char *when[2];
    char *outcome[2]; /* each one's recorded outcome line */
    char sha256[2][65];
    char fingerprint[2][65];
    long long archives[2];
    char *params_changes; /* "level: 0.95 -> 0.9, ..." or "" when the same */
    size_t rows_changed;  /* rows of either evaluation that differ */
    size_t rows_total;    /* the rows of either (by key): the first's and those only in the second */
    /* The differing rows: the query's key columns (-- key:), the changed
     * column ("(row)" for a row present in one evaluation only) and its
     * value in each evaluation. Fixed columns are named column, ID1 and
     * ID2, renamed when a key column has that name. */
    struct rowset rows;
};
/* Returns EXIT_OK; EXIT_FAIL with *err when an evaluation does not exist,
 * the two are of different queries, or on an SQL error. */
int history_diff(struct db *db, long long id1, long long id2, struct history_diff *d, char **err);
void history_diff_free(struct history_diff *d);

/* How the rows now differ from the rows recorded (JSON arrays of objects),
 * matched by the key columns as --diff matches them: the rows of either
 * that differ, the larger row count, and a summary of the first max
 * differences ("run_group=protobuf-3: adopt 0 -> 1; ..."), malloc'd.
 * Returns 0, or -1 with *err. */
typedef struct json_t json_t;
int history_rows_differ(char **keys, int nkeys, json_t *was, json_t *now, size_t *changed, size_t *total,
                        char **summary, int max, char **err);

#endif
