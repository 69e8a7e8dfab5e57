#ifndef BENCHDB_INGEST_CORE_DECIMAL_H
#define BENCHDB_INGEST_CORE_DECIMAL_H
/* Decimals to doubles without strtod where that is exact: the JSON
 * parser's reals and the text readers' plain decimals. */
#include <stdint.h>

/* m * 10^e10 as the double nearest it (what strtod gives), into *out:
 *  - when m <= 2^53 and -22 <= e10 <= 22, by Clinger's fast path: m and
 *    10^|e10| are exact doubles, and one correctly rounded multiplication
 *    or division gives the nearest double;
 *  - on x86, for any other m > 0 (19 digits: a double printed in full has
 *    17) and -27 <= e10 <= 27, the same in x87 extended precision, whose
 *    result rounds to the nearest double unless it lies exactly halfway
 *    between two (decimal.c says why).
 * 0 (nothing written) otherwise: the caller uses strtod. */
int decimal_exact(uint64_t m, int e10, double *out);

#endif
