#ifndef BENCHDB_INGEST_CORE_DECIMAL_H
#define BENCHDB_INGEST_CORE_DECIMAL_H
/* Decimals to doubles without strtod where that is exact (Clinger's fast
 * path): the JSON parser's reals and the text readers' plain decimals. */
#include <stdint.h>

/* m * 10^e10 as the double nearest it, into *out, when m <= 2^53 and
 * -22 <= e10 <= 22: m and 10^|e10| are then exact doubles, so one
 * correctly rounded multiplication or division gives what strtod gives.
 * 0 (nothing written) otherwise: the caller uses strtod. */
int decimal_exact(uint64_t m, int e10, double *out);

#endif
