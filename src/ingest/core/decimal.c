#include "ingest/core/decimal.h"

#include <float.h>
#include <string.h>

#if LDBL_MANT_DIG == 64 && (defined(__x86_64__) || defined(__i386__))
#define DECIMAL_EXTENDED 1
/* 10^k for k <= 27 as x87 extended doubles: exact, since 5^27 < 2^64. */
static const long double pow10_extended[] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
                                             1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
                                             1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};

/* m * 10^e10 through one correctly rounded extended (64-bit mantissa)
 * operation on exact operands, then rounded to double. Rounding twice
 * can differ from rounding once only when the extended result is exactly
 * halfway between two doubles: rounding is monotonic and every such
 * halfway point is an extended number, so the exact value and the
 * extended result lie on the same side of each unless the result is one.
 * Then 0, and strtod decides (unit/jsonparse_diff holds decimals where
 * rounding twice would miss). The results are far from the subnormal and
 * infinite ranges (|e10| <= 27, 1 <= m < 2^64). */
static int decimal_extended(uint64_t m, int e10, double *out)
{
    /* Only where long double arithmetic really keeps 64 bits: valgrind
     * computes x87 operations in doubles, and a thread may have set the
     * x87 precision to 53 bits; either would round twice unseen (under
     * valgrind a quarter of random 19-digit decimals came out wrong).
     * There 1 + 2^-63 is 1, and strtod decides. */
    volatile long double one = 1.0L, eps = LDBL_EPSILON;
    if (one + eps == one)
        return 0;
    long double x = (long double)m;
    x = e10 < 0 ? x / pow10_extended[-e10] : x * pow10_extended[e10];
    uint64_t mant;
    memcpy(&mant, &x, sizeof mant); /* x87 layout: the 64-bit mantissa first */
    if ((mant & 0x7FF) == 0x400)    /* the 11 bits below a double's last one */
        return 0;
    *out = (double)x;
    return 1;
}
#endif

int decimal_exact(uint64_t m, int e10, double *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (m <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22) {
        *out = e10 < 0 ? (double)m / pow10[-e10] : (double)m * pow10[e10];
        return 1;
    }
#ifdef DECIMAL_EXTENDED
    if (m > 0 && e10 >= -27 && e10 <= 27)
        return decimal_extended(m, e10, out);
#endif
    return 0;
}
