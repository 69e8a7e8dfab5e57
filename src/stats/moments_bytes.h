#ifndef BENCHDB_STATS_MOMENTS_BYTES_H
#define BENCHDB_STATS_MOMENTS_BYTES_H
/* The exact state of a struct moments (n, sum x and sum x^2) as bytes: the
 * form in which a summary is stored (run_cell_data.moments) and from which
 * an interval is computed later with the bits the rows would have given.
 *
 *   byte 0      the format, 1
 *   bytes 1-8   n, a signed 64-bit integer, little-endian (n >= 0)
 *   then sum x, then sum x^2, each as
 *     1 byte    0 for zero (nothing follows), 1 positive, 2 negative
 *     1 byte    f, the first digit's place (0-139)
 *     1 byte    k, the number of digits (1-140)
 *     4k bytes  the magnitude's digits d_0 .. d_(k-1), 32-bit unsigned,
 *               little-endian, lowest first; d_0 and d_(k-1) nonzero
 *   magnitude = sum d_i 2^(32 (f + i) - 2240).
 *
 * The digits are those of the exact value in base 2^32 (nothing is
 * rounded), without leading or trailing zero digits, so the bytes are a
 * function of the exact sums alone: the same multiset of values gives the
 * same bytes in any order, on any platform, and in PostgreSQL (bytea).
 * A state of finite doubles has sum x between 2^-1074 and 2^1087 (places
 * 36 to 103) and sum x^2 between 2^-2148 and 2^2111 (places 2 to 135);
 * reading refuses anything else. */
#include <stddef.h>

#include "stats/stats.h"

/* The longest encoding (both sums over every place they can use). */
#define MOMENTS_BYTES_MAX (9 + 2 * (3 + 4 * XACC_CHUNKS))

/* Writes m's state to out (MOMENTS_BYTES_MAX bytes at least); returns the
 * length. m is carried in place (its value does not change). */
size_t moments_to_bytes(struct moments *m, unsigned char *out);

/* Reads a state written by moments_to_bytes into *m (zeroed first).
 * Returns 0, or -1 when the bytes are not such a state: the wrong length
 * or format, digits out of place, a negative n or sum of squares, sums
 * without values, or n sum x^2 < (sum x)^2, which no values give. */
int moments_from_bytes(const unsigned char *in, size_t len, struct moments *m);

#endif
