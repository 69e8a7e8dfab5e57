#ifndef BENCHDB_FN_SUMMARY_H
#define BENCHDB_FN_SUMMARY_H
/* moments(x), mean(x), pooled_t_ci_of, t_ci_of (fn_summary.c): the
 * registration table's callbacks. */
#include "sqlfn/sqlfn.h"

/* The kind (struct sqlfn_def) of mean(x); moments(x) is 0. */
enum { KIND_SUMMARY_MEAN = 100, KIND_SUMMARY_SUM = 101 };

void sqlfn_summary_step(sqlite3_context *, int, sqlite3_value **);
void sqlfn_summary_inverse(sqlite3_context *, int, sqlite3_value **);
void sqlfn_summary_final(sqlite3_context *);
void sqlfn_summary_value(sqlite3_context *);
void sqlfn_pooled_t_ci_of(sqlite3_context *, int, sqlite3_value **);
void sqlfn_t_ci_of(sqlite3_context *, int, sqlite3_value **);

#endif
