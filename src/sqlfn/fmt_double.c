/* sqlfn_fmt_double: the text of printf("%.15g"), "%.16g" or "%.17g",
 * whichever comes first that reads back (strtod) as the same double.
 *
 * glibc's printf and strtod do this exactly with multi-precision arithmetic,
 * at a cost of up to three of each per number; it was a third of a
 * placement-rule evaluation (pooled_t_ci writes 12 numbers per interval).
 * For the numbers statistics mostly produce, 1e-6 <= |x| < 1e15, the same
 * text follows exactly from 128-bit integers: x = m 2^e with e <= 0, so
 * x 10^k = m 10^k / 2^s (s = -e), whose quotient q and remainder r give the
 * P-digit rounding (ties to even, as printf rounds) and its distance from x.
 * That decimal reads back as x exactly when it lies inside x's rounding
 * interval (half a gap to each neighbour; a closed interval when m is even,
 * as strtod rounds ties to even). Everything else (zero, subnormals,
 * infinities, NaN, other magnitudes) takes the printf loop.
 * tests/unit/test_fmt_double.c compares both paths on millions of doubles. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfn/sqlfn.h"

__extension__ typedef unsigned __int128 u128;

/* 10^k for k = 0..22; 10^22 < 2^75 keeps m 10^k (m < 2^53) below 2^128.
 * Doubles up to 1e22 are exact, so each entry is exact. */
static const u128 pow10[23] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u,
    10000000000u, 100000000000u, 1000000000000u, 10000000000000u, 100000000000000u,
    1000000000000000u, 10000000000000000u, 100000000000000000u, 1000000000000000000u,
    10000000000000000000u, (u128)10000000000000000000u * 10u, (u128)10000000000000000000u * 100u,
    (u128)10000000000000000000u * 1000u,
};

/* Writes "%.{p}g" of the decimal c 10^(x - p + 1), c having exactly p
 * digits, into out (room for 32 bytes); returns its length. */
static size_t emit_g(char *out, int neg, uint64_t c, int p, int x)
{
    char dg[20];
    for (int i = p - 1; i >= 0; i--) {
        dg[i] = (char)('0' + c % 10);
        c /= 10;
    }
    int nd = p; /* digits left after dropping trailing zeros, as %g does */
    while (nd > 1 && dg[nd - 1] == '0')
        nd--;
    size_t n = 0;
    if (neg)
        out[n++] = '-';
    if (x < -4 || x >= p) {
        out[n++] = dg[0];
        if (nd > 1) {
            out[n++] = '.';
            memcpy(out + n, dg + 1, (size_t)nd - 1);
            n += (size_t)nd - 1;
        }
        out[n++] = 'e';
        out[n++] = x < 0 ? '-' : '+';
        int ax = abs(x);
        if (ax >= 100)
            out[n++] = (char)('0' + ax / 100);
        out[n++] = (char)('0' + ax / 10 % 10);
        out[n++] = (char)('0' + ax % 10);
    } else if (x >= 0) {
        memcpy(out + n, dg, (size_t)x + 1);
        n += (size_t)x + 1;
        if (nd > x + 1) {
            out[n++] = '.';
            memcpy(out + n, dg + x + 1, (size_t)(nd - x - 1));
            n += (size_t)(nd - x - 1);
        }
    } else {
        out[n++] = '0';
        out[n++] = '.';
        for (int i = -1; i > x; i--)
            out[n++] = '0';
        memcpy(out + n, dg, (size_t)nd);
        n += (size_t)nd;
    }
    out[n] = 0;
    return n;
}

/* The exact path; 0 when x is outside its range. */
static int fmt_fast(char *buf, size_t size, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int neg = (int)(bits >> 63);
    int bexp = (int)(bits >> 52) & 0x7ff;
    if (bexp == 0 || bexp == 0x7ff || size < 32)
        return 0;
    uint64_t m = (bits & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
    int s = 1075 - bexp; /* x = m / 2^s */
    if (s < 0 || s > 120)
        return 0;
    /* E = floor(log10 |x|): estimated from the binary exponent, then made
     * exact by the number of digits of floor(|x| 10^(16 - E)). */
    int e10 = (int)((bexp - 1023) * 0.30102999566398120) - ((bexp - 1023) < 0);
    u128 q17 = 0, r17 = 0;
    for (int tries = 0;; tries++) {
        int k = 16 - e10;
        if (tries == 3 || k < 0 || k > 22)
            return 0;
        u128 nm = (u128)m * pow10[k];
        q17 = nm >> s;
        r17 = nm - (q17 << s);
        if (q17 < pow10[16])
            e10--;
        else if (q17 >= pow10[17])
            e10++;
        else
            break;
    }
    if (e10 < -6 || e10 > 14)
        return 0;
    u128 half = s > 0 ? (u128)1 << (s - 1) : 0, one = (u128)1 << s;
    /* Below m 2^-s the gap is half as wide when m is a power of two. */
    int lower_mul = m == UINT64_C(1) << 52 && bexp > 1 ? 4 : 2, even = (m & 1) == 0;
    for (int p = 15; p <= 17; p++) {
        int k = p - 1 - e10;
        u128 q = q17, r = r17;
        if (p < 17) {
            u128 nm = (u128)m * pow10[k];
            q = nm >> s;
            r = nm - (q << s);
        }
        int up = s > 0 && (r > half || (r == half && (q & 1)));
        int ok;
        if (r == 0) {
            ok = 1;
        } else if (up) {
            u128 d = 2 * (one - r);
            ok = d < pow10[k] || (d == pow10[k] && even);
        } else {
            u128 d = (u128)lower_mul * r;
            ok = d < pow10[k] || (d == pow10[k] && even);
        }
        if (!ok)
            continue;
        uint64_t c = (uint64_t)(q + (u128)up);
        int xe = e10;
        if (c == (uint64_t)pow10[p]) {
            c = (uint64_t)pow10[p - 1];
            xe++;
        }
        emit_g(buf, neg, c, p, xe);
        return 1;
    }
    return 0;
}

void sqlfn_fmt_double(char *buf, size_t size, double x)
{
    if (fmt_fast(buf, size, x))
        return;
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
}
