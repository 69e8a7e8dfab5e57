#include "ingest/core/units.h"

#include <string.h>

/* Units a primary metric may have (time and throughput) first, then the
 * other built-in units (index >= UNIT_PRIMARY_COUNT). */
const char *const unit_names[] = {
    "ns/op", "us/op", "ms/op", "s/op", "ns", "us", "ms", "s",
    "ops/ns", "ops/us", "ops/ms", "ops/s", "ops/min", "sec/op", "B/s", "MB/s",
    "min/op", "hr/op", "day/op", "ops/hr", "ops/day",
    "B/op", "allocs/op", "bytes", "1", "items/s",
};
const int unit_count = (int)(sizeof unit_names / sizeof unit_names[0]);
const char unit_primary_list[] =
    "ns/op, us/op, ms/op, s/op, ns, us, ms, s, ops/ns, ops/us, ops/ms, ops/s, ops/min, sec/op, B/s, MB/s, min/op, hr/op, "
    "day/op, ops/hr, ops/day";

int unit_index(const char *unit)
{
    for (int i = 0; i < unit_count; i++)
        if (strcmp(unit_names[i], unit) == 0)
            return i;
    return -1;
}
