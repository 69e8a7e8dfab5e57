#ifndef BENCHDB_FMT_SIG_H
#define BENCHDB_FMT_SIG_H

/* Default significant digits of the numbers a report shows. */
#define REPORT_DIGITS 4

/* x rounded to `digits` significant digits, as the table output shows it:
 * no trailing zeros, an exponent only below 1e-4 or from 1e15 on. buf holds
 * at least 40 bytes.
 * To be replaced by the output layer's --digits formatter when
 * the branches merge: every number a report prints goes through here. */
void report_fmt_sig(char *buf, double x, int digits);

#endif
