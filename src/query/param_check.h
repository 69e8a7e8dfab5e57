#ifndef BENCHDB_PARAM_CHECK_H
#define BENCHDB_PARAM_CHECK_H
#include <sqlite3.h>

#include "store/db.h"

#include "query/saved.h"
#include "util/params.h"

/* Checks that the values given on the command line (defaults are the
 * query author's and are not checked) for parameters typed `text naming
 * a plan|run|host|attribute` name something in the store. A run, a host
 * or an attribute is looked for among the runs of the plan the query is
 * about (its -- judges: parameter, else its first parameter naming a
 * plan) when it has one, else among all runs. vals holds each declared
 * parameter's value, in header order. Returns EXIT_OK; EXIT_USAGE with
 * *err saying what does not exist and what does ("plan 'nope' does not
 * exist; plans: calibration-sim, git-perf-p0001", or the nearest name);
 * EXIT_FAIL with *err on an SQL error. */
int param_check_names(struct db *db, const struct saved_query *q, const struct params *given,
                      const struct param_value *vals, char **err);

#endif
