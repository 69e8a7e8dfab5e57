#ifndef BENCHDB_STORE_UNIT_ROWS_H
#define BENCHDB_STORE_UNIT_ROWS_H
/* The unit table's rows as a new store has them, for what reads units
 * without a store: ingest's decoders (which units a primary metric may
 * have) and compare on files (each unit's kind, factor and direction).
 * unit_rows.c is made from schema/benchdb.schema by tools/gen/schema.py,
 * so a unit added there is known here without a second list; unit/ingest
 * compares them with a fresh store's table. */

struct store_unit {
    const char *name;
    const char *kind;      /* time, throughput, byte-throughput, other */
    double factor;         /* seconds, operations/s or bytes/s per unit; 1 for other kinds */
    const char *direction; /* lower, higher, or NULL when unknown */
};

/* A primary metric's units (every kind but other) first: the first
 * store_unit_primary_count rows, listed in store_unit_primary_list
 * ("ns/op, us/op, ..."). */
extern const struct store_unit store_units[];
extern const int store_unit_count;
extern const int store_unit_primary_count;
extern const char store_unit_primary_list[];

/* The index of unit in store_units, or -1. */
int store_unit_find(const char *unit);

#endif
