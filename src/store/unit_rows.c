/* The unit table's rows as a new store has them (docs/schema.md, unit):
 * made by tools/gen/schema.py from schema/benchdb.schema (make regen),
 * change that description, not this file. A primary metric's units
 * (times and throughputs) first. */
#include "store/unit_rows.h"

#include <stddef.h>

const struct store_unit store_units[] = {
    {"ns/op", "time", 1e-09, "lower"},
    {"us/op", "time", 1e-06, "lower"},
    {"ms/op", "time", 0.001, "lower"},
    {"s/op", "time", 1.0, "lower"},
    {"ns", "time", 1e-09, "lower"},
    {"us", "time", 1e-06, "lower"},
    {"ms", "time", 0.001, "lower"},
    {"s", "time", 1.0, "lower"},
    {"ops/ns", "throughput", 1000000000.0, "higher"},
    {"ops/us", "throughput", 1000000.0, "higher"},
    {"ops/ms", "throughput", 1000.0, "higher"},
    {"ops/s", "throughput", 1.0, "higher"},
    {"ops/min", "throughput", 0.016666666666666666, "higher"},
    {"sec/op", "time", 1.0, "lower"},
    {"B/s", "byte-throughput", 1.0, "higher"},
    {"MB/s", "byte-throughput", 1000000.0, "higher"},
    {"min/op", "time", 60.0, "lower"},
    {"hr/op", "time", 3600.0, "lower"},
    {"day/op", "time", 86400.0, "lower"},
    {"ops/hr", "throughput", 0.0002777777777777778, "higher"},
    {"ops/day", "throughput", 1.1574074074074073e-05, "higher"},
    {"B/op", "other", 1.0, "lower"},
    {"allocs/op", "other", 1.0, "lower"},
    {"bytes", "other", 1.0, "lower"},
    {"1", "other", 1.0, NULL},
    {"items/s", "other", 1.0, "higher"},
};
const int store_unit_count = 26;
const int store_unit_primary_count = 21;
const char store_unit_primary_list[] = "ns/op, us/op, ms/op, s/op, ns, us, ms, s, ops/ns, ops/us, ops/ms, ops/s, ops/min, sec/op, B/s, MB/s, min/op, hr/op, day/op, ops/hr, ops/day";
