#ifndef BENCHDB_COMPARE_H
#define BENCHDB_COMPARE_H
#include <sqlite3.h>

#include "store/db.h"
#include <stdio.h>

#include "output/output.h"

/* What 'benchdb compare' needs beyond running the saved query `compare`
 * (queries/compare.sql): finding the plan its two sides are in, and
 * printing its rows as benchstat prints them, one table per metric and
 * unit. */

/* The two sides: what they name (by: run, source, host, variant or attr, with
 * key the attribute) and their names. */
struct compare_sides {
    const char *by, *key;
    const char *a, *b;
    int given; /* --by was given */
};

/* "run 'old'", "variant 'HEAD'", "attribute jdk = '17'": malloc'd. */
char *compare_side_text(const struct compare_sides *s, const char *name);

/* --by source: a side that abbreviates one stored source (a revision's
 * first 7 or more hexadecimal digits, as git and the report pages show
 * it, and no source itself) of plan (of any plan when NULL) is replaced
 * by it; *a and *b own the new texts (NULL: unchanged). -1 with *err (a
 * usage error) when a side abbreviates more than one. */
int compare_expand_sources(struct db *db, struct compare_sides *s, const char *plan, char **a, char **b,
                           char **err);

/* --exact-units on a store: each unit of the comma-separated list that
 * no series of plan has as stored, but that compare's tables show for some
 * (sec/op for ns/op, B/s for MB/s), is replaced by those stored units, as
 * the files take a unit as shown. *out (malloc'd) is the list to bind, or
 * NULL when nothing changed. 0, or -1 with *err on a database error. */
int compare_expand_units(struct db *db, const char *plan, const char *list, char **out, char **err);

/* With *plan set, checks that the plan exists and holds both sides; with
 * *plan NULL, sets it (malloc'd) to the one plan that holds both. Returns
 * 0; -1 with *err set when the sides are not found or several plans hold
 * them (a usage error: the user names something that is not there); -2
 * with *err set on a database error. */
int compare_find_plan(struct db *db, const struct compare_sides *s, char **plan, char **err);

/* The rows of the saved query `compare` as benchstat's tables
 * (compare/compare.h): per pkg param and metric, in the order the query
 * gives them (first appearance), a row per cell: its name without the
 * "Benchmark" prefix, then its params but pkg ("-N" for procs, as Go
 * writes it; "/KEY=VALUE" for the others), the variant when they differ;
 * values in the unit benchstat shows (ns/op as sec/op...). j says how
 * the query judged (its adjustment, level, alpha and threshold) and
 * whether benchdb's columns are wanted. Returns 0, 1 when rs lacks a column this needs (the caller
 * prints rs as it is), -1 when memory ran out. */
struct cmp_model;
struct compare_judged {
    const char *adjust; /* "none", "holm" or "bh" (NULL: none) */
    double level, alpha, threshold;
    int extras;
};
int compare_rows_model(const struct rowset *rs, const struct compare_sides *s, const struct compare_judged *j,
                       struct cmp_model *m);

#endif
