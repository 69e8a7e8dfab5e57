/* The number formatters (numfmt.h).
 *
 * numfmt_shortest: the text of printf("%.15g"), "%.16g" or "%.17g",
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
 * infinities, NaN, other magnitudes, a buffer under 40 bytes) takes the
 * printf loop.
 * tests/unit/test_fmt_double.c compares both paths on millions of doubles. */
#include "fnshared/numfmt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* 10^k for k = 0..22: 10^22 < 2^74 keeps m 10^k (m < 2^53) below 2^128. */
static const u128 pow10[23] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u,
    10000000000u, 100000000000u, 1000000000000u, 10000000000000u, 100000000000000u,
    1000000000000000u, 10000000000000000u, 100000000000000000u, 1000000000000000000u,
    10000000000000000000u, (u128)10000000000000000000u * 10u, (u128)10000000000000000000u * 100u,
    (u128)10000000000000000000u * 1000u,
};

static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";

/* The n decimal digits of v (v < 10^n, n even), two at a time. */
static void put_digits(char *out, uint32_t v, int n)
{
    for (int i = n - 2; i >= 0; i -= 2) {
        memcpy(out + i, pairs + 2 * (v % 100), 2);
        v /= 100;
    }
}

/* Writes "%.{p}g" of the p digits dg, the first worth 10^x, into out (room
 * for 32 bytes). */
static void emit_g(char *out, int neg, const char *dg, int p, int x)
{
    int nd = p; /* digits left after dropping trailing zeros, as %g does */
    while (nd > 1 && dg[nd - 1] == '0')
        nd--;
    char *o = out;
    if (neg)
        *o++ = '-';
    if (x < -4 || x >= p) {
        *o++ = dg[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, dg + 1, 16);
            o += nd - 1;
        }
        *o++ = 'e';
        *o++ = x < 0 ? '-' : '+';
        int ax = abs(x);
        if (ax >= 100)
            *o++ = (char)('0' + ax / 100);
        memcpy(o, pairs + 2 * (ax % 100), 2);
        o += 2;
    } else if (x >= 0) {
        memcpy(o, dg, 17);
        o += x + 1;
        if (nd > x + 1) {
            *o++ = '.';
            memcpy(o, dg + x + 1, 16);
            o += nd - x - 1;
        }
    } else {
        memcpy(o, "0.0000", 6);
        o += 1 - x;
        memcpy(o, dg, 17);
        o += nd;
    }
    *o = 0;
}

/* The exact path; 0 when x is outside its range. One product m 10^k gives
 * the 17 digits q17 of x and the remainder r17 (x 10^k = q17 + r17 / 2^s);
 * the 16- and 15-digit roundings are q17 with its last one or two digits
 * rounded away, their distance from x follows from the same remainder. */
static int fmt_fast(char *buf, size_t size, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int neg = (int)(bits >> 63);
    int bexp = (int)(bits >> 52) & 0x7ff;
    if (bexp == 0 || bexp == 0x7ff || size < 40)
        return 0;
    uint64_t m = (bits & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
    int s = 1075 - bexp; /* x = m / 2^s */
    if (s < 1 || s > 118)
        return 0;
    /* floor(log10 |x|) is floor(e2 log10 2) or one more, e2 = bexp - 1023
     * (1233 / 4096 is log10 2 closely enough for |e2| <= 118). */
    int e10 = ((bexp - 1023) * 1233) >> 12;
    u128 nm, q, r;
    for (int tries = 0;; tries++) {
        int k = 16 - e10;
        if (tries == 2 || k < 0 || k > 22)
            return 0;
        nm = (u128)m * pow10[k];
        q = nm >> s;
        r = nm - (q << s);
        if (q < pow10[16])
            return 0;
        if (q < pow10[17])
            break;
        e10++;
    }
    if (e10 < -6 || e10 > 14)
        return 0;
    uint64_t q17 = (uint64_t)q;
    u128 r17 = r, half = (u128)1 << (s - 1), one = (u128)1 << s, unit = pow10[16 - e10];
    /* Below m 2^-s the gap is half as wide when m is a power of two. */
    int lower_mul = m == UINT64_C(1) << 52 && bexp > 1 ? 4 : 2, even = (m & 1) == 0;
    char dg[40];
    put_digits(dg, (uint32_t)(q17 / 1000000000u), 8);
    dg[8] = (char)('0' + q17 / 100000000u % 10);
    put_digits(dg + 9, (uint32_t)(q17 % 100000000u), 8);
    memset(dg + 17, '0', sizeof dg - 17);
    for (int p = 15; p <= 17; p++) {
        uint64_t pd = p == 15 ? 100 : p == 16 ? 10 : 1;
        uint64_t c0 = q17 / pd, rem = q17 - c0 * pd;
        int up;
        if (pd == 1)
            up = r17 > half || (r17 == half && (q17 & 1));
        else
            up = rem > pd / 2 || (rem == pd / 2 && (r17 > 0 || (c0 & 1)));
        /* |decimal - x| in units of 10^-k 2^-s; within half a gap of x
         * (10^k / 2 in those units) it reads back as x. */
        int ok;
        if (rem == 0 && r17 == 0) {
            ok = 1;
        } else if (up) {
            u128 d = 2 * ((u128)(pd - rem) * one - r17);
            ok = d < unit || (d == unit && even);
        } else {
            u128 d = (u128)lower_mul * ((u128)rem * one + r17);
            ok = d < unit || (d == unit && even);
        }
        if (!ok)
            continue;
        int xe = e10;
        if (up) {
            int i = p - 1;
            while (i >= 0 && dg[i] == '9')
                dg[i--] = '0';
            if (i >= 0) {
                dg[i]++;
            } else {
                dg[0] = '1';
                xe++;
            }
        }
        memset(dg + p, '0', sizeof dg - (size_t)p);
        emit_g(buf, neg, dg, p, xe);
        return 1;
    }
    return 0;
}

/* A whole number 1 <= |x| < 1e15: its digits, which "%.15g" writes in
 * full and which read back exactly. Harness details hold one per value
 * (iteration counts, cargo bench's deviations): the exact path costs ten
 * times more. */
static int fmt_whole(char *buf, size_t size, double x)
{
    double a = fabs(x);
    if (!(a >= 1 && a < 1e15) || a != trunc(a) || size < 24)
        return 0;
    char d[24];
    size_t k = sizeof d;
    d[--k] = 0;
    for (uint64_t u = (uint64_t)a; u; u /= 10)
        d[--k] = (char)('0' + u % 10);
    if (x < 0)
        d[--k] = '-';
    memcpy(buf, d + k, sizeof d - k);
    return 1;
}

void numfmt_shortest(char *buf, size_t size, double x)
{
    if (fmt_whole(buf, size, x) || fmt_fast(buf, size, x))
        return;
    if (x == 0 && size >= 3) { /* printf's "%.15g" of zeros, which the exact path leaves out */
        strcpy(buf, signbit(x) ? "-0" : "0");
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
}

size_t numfmt_real(char *buf, double x)
{
    if (isnan(x)) {
        strcpy(buf, "nan");
        return 3;
    }
    if (isinf(x)) {
        strcpy(buf, x > 0 ? "inf" : "-inf");
        return strlen(buf);
    }
    /* The exact path needs 40 bytes to work in; the text itself is at most
     * 24 ("-1.2345678901234567e-308"), which the caller's 32 hold. Canonical
     * JSON formats every real of a harness file's detail through here
     * (docs/formats.md), so printf's three tries cost ingest dearly. */
    char tmp[40];
    numfmt_shortest(tmp, sizeof tmp, x);
    size_t n = strlen(tmp);
    memcpy(buf, tmp, n + 1);
    /* Keep a real looking like a real: 3 -> 3.0, as SQLite's shell does. */
    if (!memchr(tmp, '.', n) && !memchr(tmp, 'e', n) && !memchr(tmp, 'E', n)) {
        memcpy(buf + n, ".0", 3);
        n += 2;
    }
    return n;
}

/* Significant digits of a number's text (its mantissa, leading zeros left out). */
static int significant_digits(const char *s)
{
    int n = 0, started = 0;
    for (; *s && *s != 'e' && *s != 'E'; s++) {
        if (*s < '0' || *s > '9')
            continue;
        started |= *s != '0';
        n += started;
    }
    /* Trailing zeros of an integer part ("1200.5" has five) count; those
     * of a fraction never reach here: the shortest form has none. */
    return n;
}

void numfmt_digits(char *buf, double x, int digits)
{
    numfmt_real(buf, x);
    if (!isfinite(x) || digits >= NUMFMT_DIGITS_MAX)
        return;
    double ax = fabs(x);
    if (ax == trunc(ax) && ax < 9007199254740992.0)
        return; /* a whole number below 2^53: never rounded */
    if (significant_digits(buf) <= digits)
        return; /* already short: 0.95 stays 0.95 */
    if (ax >= 1 && ax < 1e15) {
        /* Round the fraction only: 1234.5678 to 4 digits is 1235, not 1.235e+03. */
        char ip[40];
        snprintf(ip, sizeof ip, "%.0f", trunc(ax));
        int dec = digits - (int)strlen(ip);
        snprintf(buf, 40, "%.*f", dec > 0 ? dec : 0, x);
        if (strchr(buf, '.')) {
            char *e = buf + strlen(buf) - 1;
            while (*e == '0')
                *e-- = 0;
            if (*e == '.')
                *e = 0;
        }
    } else {
        snprintf(buf, 40, "%.*g", digits, x);
    }
}

void numfmt_sig(char *buf, double x, int digits)
{
    if (digits < 1)
        digits = 1;
    if (digits > 17)
        digits = 17;
    if (!isfinite(x)) {
        strcpy(buf, isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
        return;
    }
    /* printf's rounding to `digits` significant digits decides the
     * magnitude (9.99996 is 10.00), and the magnitude the notation. */
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*e", digits - 1, x);
    double r = strtod(tmp, NULL), ar = fabs(r);
    if (ar != 0 && (ar < 1e-4 || ar >= 1e15)) {
        snprintf(buf, 40, "%.*g", digits, x);
        return;
    }
    int mag = ar == 0 ? 0 : (int)floor(log10(ar));
    int dec = digits - 1 - mag;
    if (dec < 0) {
        snprintf(buf, 40, "%.0f", r);
        return;
    }
    snprintf(buf, 40, "%.*f", dec, r);
    if (strchr(buf, '.')) {
        size_t n = strlen(buf);
        while (buf[n - 1] == '0')
            buf[--n] = 0;
        if (buf[n - 1] == '.')
            buf[--n] = 0;
    }
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
}
