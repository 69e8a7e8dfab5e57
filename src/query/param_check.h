#ifndef BENCHDB_PARAM_CHECK_H
#define BENCHDB_PARAM_CHECK_H
#include <sqlite3.h>

#include "store/db.h"

#include "query/param_type.h"
#include "query/saved.h"
#include "util/params.h"

/* Checks that the values given on the command line (defaults are the
 * query author's and are not checked) for parameters typed `text naming
 * a plan|run|host|attribute|metric|benchmark|source|variant` name
 * something in the store. A run, a host, an attribute, a metric or a
 * source is looked for among the runs of the plan the query is about (its
 * -- judges: parameter, else its first parameter naming a plan) when it
 * has one, else among all runs; a benchmark or a variant in the whole
 * store. A metric may also be `*` (every metric), or the name a harness
 * gives its primary metric (Google Benchmark's real_time), which is bound
 * as `primary`, or a unit as stored (ns/op) or as compare shows it
 * (sec/op), bound as the one metric that has it. vals holds each declared
 * parameter's value, in header order. Returns EXIT_OK; EXIT_USAGE with
 * *err saying what does not exist and what does ("plan 'nope' does not
 * exist; plans: calibration-sim, git-perf-p0001", or the nearest name);
 * EXIT_FAIL with *err on an SQL error. */
int param_check_names(struct db *db, const struct saved_query *q, const struct params *given,
                      struct param_value *vals, char **err);

/* The same check for one value of an option (list --plan, delete --run):
 * EXIT_OK when value names a KIND of the store (in plan, when not NULL and
 * the kind is scoped by plans); EXIT_USAGE with *err ("plan 'x' does not
 * exist; plans: a, b; did you mean ...") when not; EXIT_FAIL on an error. */
int param_check_name(struct db *db, enum param_names kind, const char *value, const char *plan, char **err);

/* Why a query returned no rows, when its parameters say: the values
 * (given or default) naming a plan, run, host, metric, benchmark, source
 * or variant, taken in turn (the plan first), until no measured value has
 * them all: "no measured value has plan 'crc32' and benchmark 'serialize'
 * together". NULL when the values have some (the query's own logic left
 * nothing), or on an error. malloc'd. */
char *param_explain_empty(struct db *db, const struct saved_query *q, const struct param_value *vals);

#endif
