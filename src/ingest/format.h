#ifndef BENCHDB_INGEST_FORMAT_H
#define BENCHDB_INGEST_FORMAT_H
#include <jansson.h>
#include <stddef.h>

#include "util/strbuf.h"

/* Pieces of the benchdb-run/1 format shared by the loader and its tests
 * (docs/archive-format.md is the specification). */

#define ARCHIVE_FORMAT "benchdb-run/1"

/* The built-in units, in the order error messages list them; the same set
 * as the store's unit table (a unit test compares them). The first
 * format_primary_unit_count are times and throughputs, which a primary
 * metric must have; format_unit_list lists those. */
extern const char *const format_units[];
extern const int format_unit_count;
extern const int format_primary_unit_count;
/* Index of unit in format_units, or -1. */
int format_unit_index(const char *unit);
/* "ns/op, us/op, ..., MB/s": the primary units */
extern const char format_unit_list[];

/* True when s is an RFC 3339 date-time (section 5.6): full-date "T"
 * full-time, with 't' and 'z' accepted, fields in range (a leap second 60
 * is accepted), days checked against the month and leap years. */
int rfc3339_valid(const char *s);

/* What a JSON value is, for "got ..." in messages: numbers and short
 * strings as themselves (strings quoted, cut at 40 bytes), else its kind
 * ("an object", "an array"). Writes at most n bytes to buf. */
void json_describe(const json_t *v, char *buf, size_t n);

/* Appends the canonical text of v to sb: compact, object keys sorted by
 * their bytes, strings escaped minimally (", \, control characters),
 * integers as integers, reals in their shortest round-trip form with a
 * ".0" or exponent so that they stay reals. The same value always gives
 * the same text. Returns 0, or -1 when memory ran out. */
int json_canonical(const json_t *v, struct strbuf *sb);

#endif
