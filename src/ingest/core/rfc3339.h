#ifndef BENCHDB_INGEST_CORE_RFC3339_H
#define BENCHDB_INGEST_CORE_RFC3339_H
/* RFC 3339 date-times (section 5.6): full-date "T" full-time, with 't'
 * and 'z' accepted, fields in range (a leap second 60 is accepted), days
 * checked against the month and leap years. */

/* True when s is one. */
int rfc3339_valid(const char *s);
/* The same test; when valid, *seconds is the time as seconds since
 * 1970-01-01T00:00:00Z (the offset applied, a leap second counted as the
 * next second's start), for comparing times written with other offsets. */
int rfc3339_parse(const char *s, double *seconds);

#endif
