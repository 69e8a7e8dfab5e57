#ifndef BENCHDB_COMPARE_H
#define BENCHDB_COMPARE_H
#include <sqlite3.h>

#include "store/db.h"
#include <stdio.h>

#include "output/output.h"

/* What 'benchdb compare' needs beyond running the saved query `compare`
 * (queries/compare.sql): finding the plan its two sides are in, and
 * printing its rows as benchstat prints them, one table per metric and
 * unit, within 100 columns. */

/* The two sides: what they name (by: run, source, variant or attr, with
 * key the attribute) and their names. */
struct compare_sides {
    const char *by, *key;
    const char *a, *b;
};

/* "run 'old'", "variant 'HEAD'", "attribute jdk = '17'": malloc'd. */
char *compare_side_text(const struct compare_sides *s, const char *name);

/* With *plan set, checks that the plan exists and holds both sides; with
 * *plan NULL, sets it (malloc'd) to the one plan that holds both. Returns
 * 0; -1 with *err set when the sides are not found or several plans hold
 * them (a usage error: the user names something that is not there); -2
 * with *err set on a database error. */
int compare_find_plan(struct db *db, const struct compare_sides *s, char **plan, char **err);

/* Prints the rows of the saved query `compare` as tables: per metric and
 * unit, a row per cell with each side's median and "± x%", the change of
 * the medians, its interval, p and the verdict, then the geomean row and
 * the warnings as numbered notes (benchstat's layout). Labels are shortened
 * in the middle when a line would pass `width` columns. Returns 0, 1 when
 * rs lacks a column this needs (the caller prints rs as it is), -1 on a
 * write error. */
int compare_print(const struct rowset *rs, const struct compare_sides *s, const char *adjust, double level,
                  int width, FILE *out);

#endif
