#ifndef BENCHDB_REPORT_DISPLAY_H
#define BENCHDB_REPORT_DISPLAY_H
#include <jansson.h>

/* Default significant digits of the numbers a report shows
 * (fnshared/numfmt.h's numfmt_sig). */
#define REPORT_DIGITS 4

/* How a value of an evaluation's rows reads on a page (docs/report.md,
 * "Values on a page"): the exact value stays in the mark's data attributes
 * and in a cell's title; the text shown is short enough that the columns
 * that carry the answer fit 1280 px:
 *   - a revision (40 or 64 hexadecimal digits) cut to its first 12;
 *   - a time (RFC 3339) in UTC, as 2026-01-19 02:03:34, its fraction, "Z"
 *     and "+00:00" left out (an offset is applied);
 *   - a JSON object of parameters ({"format":"binary","workload":"large"})
 *     as format=binary, workload=large, and {} as nothing;
 *   - numbers to `digits` significant digits, null as nothing. */

/* The text shown for v, malloc'd (NULL when memory ran out). *full, when
 * not NULL, is set to the exact text when the shown one differs from it
 * (malloc'd, for a title), else NULL. */
char *display_value(const json_t *v, int digits, char **full);

/* RFC 3339 (2026-10-21T03:57:00Z, fractions, offsets, a space for the T)
 * or a date alone, as seconds since 1970 UTC. Returns 1, or 0 when s is
 * not a time. */
int display_time_parse(const char *s, double *out);

/* Seconds since 1970 as "2026-01-19 02:03:34" (date_only: "2026-01-19");
 * buf holds at least 24 bytes. */
void display_time(char *buf, double t, int date_only);

/* Whether s is a revision: 40 or 64 hexadecimal digits. */
int display_is_sha(const char *s);

/* A cell's parameters (a JSON object's text) as Go names them after the
 * benchmark: "/format=binary/workload=large", "" for {} or anything that
 * is not an object; go-bench's two (docs/formats.md) as Go writes them:
 * procs (GOMAXPROCS) as the name's "-8", pkg after a space, not as a
 * level of the name ("-8 pkg=hash/crc32", not "/pkg=hash/crc32/procs=8");
 * malloc'd. */
char *display_params_path(const char *json_text);

#endif
