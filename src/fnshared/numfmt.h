#ifndef BENCHDB_NUMFMT_H
#define BENCHDB_NUMFMT_H
/* The text of a double, for every layer: one family, so that a number
 * reads the same in SQL results, stored rows, tables and pages. Here in
 * fnshared because the PostgreSQL extension (src/pg) needs the first and
 * links no util (docs/architecture.md, "The modules of src/"). Which to
 * use:
 *   numfmt_shortest  exact text of a finite double for a program (the SQL
 *                    functions' JSON results on both engines): reads back
 *                    as the same double; the fastest.
 *   numfmt_real      exact text of any double where it stays a real (CSV
 *                    and JSON output, canonical JSON, SQL literals and
 *                    parameters): nan, inf, -inf named, and a whole number
 *                    keeps ".0" (3.0, as SQLite's shell shows it).
 *   numfmt_digits    the output layer's --digits (table, vertical,
 *                    Markdown): numfmt_real rounded to `digits`
 *                    significant digits without cutting the integer part;
 *                    whole numbers below 2^53 never rounded.
 *   numfmt_sig       a fixed number of significant digits, the integer
 *                    part included (report pages, chart labels and ticks). */
#include <stddef.h>

/* Digits at and above which numfmt_digits rounds nothing (a double's 17). */
#define NUMFMT_DIGITS_MAX 17

/* The first of "%.15g", "%.16g", "%.17g" that reads back (strtod) as x,
 * byte for byte, for finite x; computed without printf for
 * 1e-6 <= |x| < 1e15 when size is at least 40. */
void numfmt_shortest(char *buf, size_t size, double x);
/* numfmt_shortest's text, "nan", "inf" or "-inf", with ".0" added to a
 * whole number (3 -> 3.0, as SQLite's shell shows a real); buf holds at
 * least 32 bytes. */
size_t numfmt_real(char *buf, double x); /* the text's length */
/* x rounded for display to `digits` significant digits in the shortest form
 * (0.8916666666666667 -> 0.8917, 1234.5678 -> 1235: the integer part is
 * never cut), except a whole number below 2^53, which shows in full as
 * numfmt_real gives it; all of numfmt_real from NUMFMT_DIGITS_MAX digits
 * on. buf holds at least 40 bytes. */
void numfmt_digits(char *buf, double x, int digits);
/* x rounded to `digits` (1 to 17) significant digits: no trailing zeros,
 * an exponent only below 1e-4 or from 1e15 on (1234.5678 to 2 digits is
 * 1200). buf holds at least 40 bytes. */
void numfmt_sig(char *buf, double x, int digits);

#endif
