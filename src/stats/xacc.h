#ifndef BENCHDB_STATS_XACC_H
#define BENCHDB_STATS_XACC_H
/* An exact accumulator: a fixed-point number wide enough to hold, without
 * rounding, any sum of doubles and of squares and products of doubles
 * (bits of weight 2^-2240 to 2^2207), after Neal's "small superaccumulator"
 * ("Fast exact summation using small and large superaccumulators", 2015).
 *
 * The number is sum c[i] 2^(XACC_LOW + 32 i): 140 signed 64-bit chunks
 * of 32 bits each. Adding a double splits its 53-bit significand over the
 * two chunks its position spans and adds the pieces: no rounding, no
 * branch on the data, so the value after any sequence of additions and
 * subtractions is exactly the sum of the multiset added, whatever the
 * order, and a window frame that removes a value returns exactly to the
 * state of never having added it. Chunks grow by less than 2^52 per
 * addition; every XACC_ROOM additions a carry pass brings each back
 * below 2^32, long before any could overflow.
 *
 * The state is plain data (zero-initialised is the number 0), fixed in
 * size and position-independent, so it can be copied as bytes (a
 * PostgreSQL aggregate state) and two states merged exactly (xacc_merge).
 * Only the chunks in [lo, hi) may be nonzero: the carry pass and the
 * readers touch that range only. */
#include <stdint.h>
#include <string.h>

#include "stats/dd.h"

#define XACC_CHUNKS 140
#define XACC_LOW (-2240) /* weight of bit 0 of chunk 0: 2^XACC_LOW */
#define XACC_ROOM 1024   /* additions between carry passes */

struct xacc {
    int64_t c[XACC_CHUNKS];
    int32_t adds;   /* additions since the last carry pass */
    int16_t lo, hi; /* chunks outside [lo, hi) are zero; hi == 0: all are */
};

void xacc_carry(struct xacc *a);

/* Widens a's range of possibly nonzero chunks to include [lo, hi), for
 * callers that add with xacc_add_raw and keep their own range. */
void xacc_cover(struct xacc *a, int lo, int hi);

/* The chunk that mant 2^e (mant < 2^53) starts in; it ends in the next. */
static inline int xacc_chunk(int e) { return (e - XACC_LOW) >> 5; }

/* mant 2^e added (neg == 0) or subtracted (neg == -1) with no range
 * update and no count: the caller covers the chunks and carries in time
 * (each addition grows a chunk by less than 2^52). */
static inline void xacc_add_raw(struct xacc *a, uint64_t mant, int e, int64_t neg)
{
    int pos = e - XACC_LOW;
    int i = pos >> 5, s = pos & 31;
    int64_t lo = (int64_t)((mant << s) & 0xffffffffu);
    int64_t hi = (int64_t)(mant >> (32 - s));
    a->c[i] += (lo ^ neg) - neg;
    a->c[i + 1] += (hi ^ neg) - neg;
}

/* Adds (neg == 0) or subtracts (neg == -1) mant * 2^e, mant < 2^53,
 * XACC_LOW <= e <= 2150. */
static inline void xacc_add_mant(struct xacc *a, uint64_t mant, int e, int64_t neg)
{
    xacc_add_raw(a, mant, e, neg);
    int i = xacc_chunk(e);
    if (a->hi == 0) {
        a->lo = (int16_t)i;
        a->hi = (int16_t)(i + 2);
    } else {
        a->lo = (int16_t)(i < a->lo ? i : a->lo);
        a->hi = (int16_t)(i + 2 > a->hi ? i + 2 : a->hi);
    }
    if (++a->adds >= XACC_ROOM)
        xacc_carry(a);
}

/* The significand (with its hidden bit) and exponent of a finite double:
 * x = +-mant * 2^e. */
static inline uint64_t xacc_split(double x, int *e, int64_t *neg)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    int be = (int)((u >> 52) & 0x7ff);
    uint64_t mant = (u & ((UINT64_C(1) << 52) - 1)) | ((uint64_t)(be != 0) << 52);
    *e = (be ? be : 1) - 1075;
    *neg = -(int64_t)(u >> 63);
    return mant;
}

/* a += x (sign > 0) or a -= x (sign < 0); x finite. */
static inline void xacc_add(struct xacc *a, double x, int sign)
{
    int e;
    int64_t neg;
    uint64_t mant = xacc_split(x, &e, &neg);
    xacc_add_mant(a, mant, e, sign < 0 ? ~neg : neg);
}

/* a b = hi 2^53 + lo with hi, lo < 2^53, for a, b < 2^53. */
static inline void xacc_mul53(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    __extension__ unsigned __int128 p = (unsigned __int128)a * b;
    *lo = (uint64_t)p & ((UINT64_C(1) << 53) - 1);
    *hi = (uint64_t)(p >> 53);
#else
    /* a = ah 2^27 + al: a b = ah bh 2^54 + (ah bl + al bh) 2^27 + al bl */
    uint64_t ah = a >> 27, al = a & ((UINT64_C(1) << 27) - 1);
    uint64_t bh = b >> 27, bl = b & ((UINT64_C(1) << 27) - 1);
    uint64_t mid = ah * bl + al * bh; /* < 2^54, weight 2^27 */
    uint64_t low = al * bl;           /* < 2^54, weight 1 */
    uint64_t lo = (low & ((UINT64_C(1) << 53) - 1)) + ((mid & ((UINT64_C(1) << 26) - 1)) << 27);
    *hi = ah * bh * 2 + (mid >> 26) + (low >> 53) + (lo >> 53);
    *lo = lo & ((UINT64_C(1) << 53) - 1);
#endif
}

/* mant^2 = hi 2^53 + lo with hi, lo < 2^53. */
static inline void xacc_square53(uint64_t mant, uint64_t *hi, uint64_t *lo) { xacc_mul53(mant, mant, hi, lo); }

/* a += x^2 (sign > 0) or a -= x^2, exactly: the 106-bit square of the
 * significand as two 53-bit halves. */
static inline void xacc_add_square(struct xacc *a, double x, int sign)
{
    int e;
    int64_t neg;
    uint64_t hi, lo, mant = xacc_split(x, &e, &neg);
    int64_t s = sign < 0 ? -1 : 0;
    xacc_square53(mant, &hi, &lo);
    xacc_add_mant(a, lo, 2 * e, s);
    xacc_add_mant(a, hi, 2 * e + 53, s);
}

/* a += x y (sign > 0) or a -= x y, exactly; x, y finite. */
static inline void xacc_add_prod(struct xacc *a, double x, double y, int sign)
{
    int ex, ey;
    int64_t nx, ny;
    uint64_t hi, lo, mx = xacc_split(x, &ex, &nx), my = xacc_split(y, &ey, &ny);
    if (mx == 0 || my == 0)
        return;
    int64_t s = nx ^ ny ^ (sign < 0 ? -1 : 0);
    xacc_mul53(mx, my, &hi, &lo);
    xacc_add_mant(a, lo, ex + ey, s);
    xacc_add_mant(a, hi, ex + ey + 53, s);
}

/* a += b exactly (b keeps its value; it is carried in place). */
void xacc_merge(struct xacc *a, struct xacc *b);

/* -1, 0 or 1. */
int xacc_sign(struct xacc *a);

/* a += k * b exactly, for an integer k (|k| < 2^63). */
void xacc_add_mul_int(struct xacc *a, struct xacc *b, int64_t k);

/* a += sign * b * c exactly (sign is 1 or -1). b and c must be sums of
 * doubles (or their products with integers below 2^63), so that the
 * product stays in range. b may be c (a square). */
void xacc_add_mul(struct xacc *a, struct xacc *b, struct xacc *c, int sign);

/* The value as (hi + lo) * 2^e with |hi| in [1, 2) (or hi == lo == 0 and
 * e == 0): hi is the value's correct rounding to 53 bits, lo the rest to
 * about 53 bits of its own, so hi + lo is good to 2^-105 relative.
 * Readers carry their argument in place (its value does not change). */
struct xdd {
    double hi, lo;
    int64_t e;
};
struct xdd xacc_value(struct xacc *a);

/* The value rounded to the nearest double (overflow gives +-inf). */
double xacc_double(struct xacc *a);

/* The exact value of a / n (n >= 1) rounded once to the nearest double,
 * ties to even: +-inf beyond the largest double, subnormal or +-0 below the
 * smallest. Correct also where the quotient lies within far less than
 * double-double's precision of a halfway point between two doubles: the
 * side is then decided exactly (xacc.c). */
double xacc_div_double(struct xacc *a, int64_t n);

/* Arithmetic on (hi + lo) 2^e, with double-double's accuracy and an
 * exponent that neither overflows nor underflows. */
struct xdd xdd_from_dd(dd v);
struct xdd xdd_mul(struct xdd a, struct xdd b);
struct xdd xdd_div(struct xdd a, struct xdd b);
struct xdd xdd_add(struct xdd a, struct xdd b);
struct xdd xdd_sqrt(struct xdd a);
/* The nearest double (+-inf beyond the range, 0 or subnormal below). */
double xdd_double(struct xdd a);
/* As a double-double (the low part may underflow). */
dd xdd_dd(struct xdd a);

#endif
