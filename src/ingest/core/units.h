#ifndef BENCHDB_INGEST_CORE_UNITS_H
#define BENCHDB_INGEST_CORE_UNITS_H
/* The built-in units of measured values, in the order error messages list
 * them; the same set as the store's unit table (a unit test compares
 * them). The first UNIT_PRIMARY_COUNT are times and throughputs, which a
 * primary metric must have; unit_primary_list lists those. */

extern const char *const unit_names[];
extern const int unit_count;
#define UNIT_PRIMARY_COUNT 21
#define UNIT_TIME_COUNT 8 /* ns/op ... s: the first eight, Google Benchmark's time units among them */
/* Index of unit in unit_names, or -1. */
int unit_index(const char *unit);
/* "ns/op, us/op, ..., MB/s": the primary units */
extern const char unit_primary_list[];

#endif
