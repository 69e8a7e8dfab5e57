/* The exact accumulator's carry pass, exact products, and its rounding to
 * double-double. Readers work on copies: a carried state has the same
 * value, so carrying the caller's in place is allowed, negating is not. */
#include <math.h>

#include "stats/xacc.h"

#define TWO32 (INT64_C(1) << 32)

static void mark(struct xacc *a, int i, int end)
{
    if (a->hi == 0) {
        a->lo = (int16_t)i;
        a->hi = (int16_t)end;
    } else {
        if (i < a->lo)
            a->lo = (int16_t)i;
        if (end > a->hi)
            a->hi = (int16_t)end;
    }
}

/* After the pass, every chunk in [lo, hi - 1) is in [0, 2^32) and the top
 * one, c[hi - 1], is nonzero and in (-2^32, 2^32): its sign is the value's. */
void xacc_carry(struct xacc *a)
{
    a->adds = 0;
    if (a->hi == 0)
        return;
    int64_t carry = 0;
    int i = a->lo;
    for (;; i++) {
        int64_t v = a->c[i] + carry;
        if ((i >= a->hi - 1 && v > -TWO32 && v < TWO32) || i == XACC_CHUNKS - 1) {
            a->c[i] = v;
            break;
        }
        /* floor(v / 2^32) and v mod 2^32, without shifting a negative. */
        int64_t low = (int64_t)((uint64_t)v & 0xffffffffu);
        carry = (v - low) / TWO32;
        a->c[i] = low;
    }
    int hi = i + 1, lo = a->lo;
    while (hi > lo && a->c[hi - 1] == 0)
        hi--;
    while (lo < hi && a->c[lo] == 0)
        lo++;
    if (hi == lo)
        lo = hi = 0;
    a->lo = (int16_t)lo;
    a->hi = (int16_t)hi;
}

int xacc_sign(struct xacc *a)
{
    xacc_carry(a);
    if (a->hi == 0)
        return 0;
    return a->c[a->hi - 1] > 0 ? 1 : -1;
}

void xacc_merge(struct xacc *a, const struct xacc *b)
{
    if (b->hi == 0)
        return;
    /* Both below 2^62 per chunk after their passes: the sum cannot overflow. */
    xacc_carry(a);
    struct xacc t = *b;
    xacc_carry(&t);
    if (t.hi == 0)
        return;
    for (int i = t.lo; i < t.hi; i++)
        a->c[i] += t.c[i];
    mark(a, t.lo, t.hi);
    xacc_carry(a);
}

/* A carried copy of b with its sign: the magnitude in out, every chunk in
 * [0, 2^32). Returns -1, 0 or 1. */
static int magnitude(const struct xacc *b, struct xacc *out)
{
    *out = *b;
    xacc_carry(out);
    if (out->hi == 0)
        return 0;
    if (out->c[out->hi - 1] > 0)
        return 1;
    for (int i = out->lo; i < out->hi; i++)
        out->c[i] = -out->c[i];
    xacc_carry(out);
    return -1;
}

/* a += v 2^(32 j + XACC_LOW), or -= when neg; v < 2^64. */
static void add_u64(struct xacc *a, int j, uint64_t v, int neg)
{
    int64_t lo = (int64_t)(v & 0xffffffffu), hi = (int64_t)(v >> 32);
    a->c[j] += neg ? -lo : lo;
    a->c[j + 1] += neg ? -hi : hi;
    mark(a, j, j + 2);
    if (++a->adds >= XACC_ROOM)
        xacc_carry(a);
}

void xacc_add_mul_int(struct xacc *a, const struct xacc *b, int64_t k)
{
    struct xacc m;
    int sb = magnitude(b, &m);
    if (sb == 0 || k == 0)
        return;
    int neg = (sb < 0) != (k < 0);
    uint64_t uk = k < 0 ? (uint64_t)0 - (uint64_t)k : (uint64_t)k;
    uint64_t k0 = uk & 0xffffffffu, k1 = uk >> 32;
    for (int j = m.lo; j < m.hi; j++) {
        uint64_t v = (uint64_t)m.c[j];
        add_u64(a, j, v * k0, neg);
        if (k1)
            add_u64(a, j + 1, v * k1, neg);
    }
}

void xacc_add_mul(struct xacc *a, const struct xacc *b, const struct xacc *c, int sign)
{
    struct xacc mb, mc;
    int sb = magnitude(b, &mb), sc = magnitude(c, &mc);
    if (sb == 0 || sc == 0)
        return;
    int neg = (sb * sc * sign) < 0;
    /* chunk i times chunk j has weight 2^(32 (i + j) + 2 XACC_LOW), which is
     * chunk i + j + XACC_LOW / 32 of a. */
    for (int i = mb.lo; i < mb.hi; i++)
        for (int j = mc.lo; j < mc.hi; j++)
            add_u64(a, i + j + XACC_LOW / 32, (uint64_t)mb.c[i] * (uint64_t)mc.c[j], neg);
}

/* The 64 bits of the magnitude m from weight 2^e0 up, and whether any bit
 * below 2^e0 is set. */
static uint64_t window(const struct xacc *m, int e0, int *sticky)
{
    int p = e0 - XACC_LOW;
    int k = p >= 0 ? p >> 5 : -((-p + 31) >> 5);
    int s = p - 32 * k;
    uint64_t c0 = 0, c1 = 0, c2 = 0;
    if (k >= m->lo && k < m->hi)
        c0 = (uint64_t)m->c[k];
    if (k + 1 >= m->lo && k + 1 < m->hi)
        c1 = (uint64_t)m->c[k + 1];
    if (k + 2 >= m->lo && k + 2 < m->hi)
        c2 = (uint64_t)m->c[k + 2];
    uint64_t low64 = c0 | (c1 << 32);
    uint64_t w = (low64 >> s) | (s ? c2 << (64 - s) : 0);
    int st = s && (c0 & ((UINT64_C(1) << s) - 1)) != 0;
    for (int i = m->lo; !st && i < k && i < m->hi; i++)
        st = m->c[i] != 0;
    *sticky = st;
    return w;
}

static int msb32(uint64_t v)
{
    int b = 0;
    while (v >> (b + 1))
        b++;
    return b;
}

/* Rounds the magnitude m (carried, nonzero) to 53 bits: returns the
 * significand (2^52 <= mant < 2^53) and sets *e so that the result is
 * mant * 2^*e. */
static uint64_t round53(const struct xacc *m, int *e)
{
    int top = m->hi - 1;
    int E = XACC_LOW + 32 * top + msb32((uint64_t)m->c[top]); /* weight of the leading bit */
    int sticky;
    uint64_t w = window(m, E - 63, &sticky);
    uint64_t mant = w >> 11, rem = w & 0x7ff;
    if (rem > 0x400 || (rem == 0x400 && (sticky || (mant & 1))))
        mant++;
    *e = E - 52;
    if (mant >> 53) {
        mant >>= 1;
        (*e)++;
    }
    return mant;
}

struct xdd xacc_value(struct xacc *a)
{
    struct xacc m;
    int s = magnitude(a, &m);
    if (s == 0)
        return (struct xdd){0, 0, 0};
    int e;
    uint64_t mant = round53(&m, &e);
    struct xdd r = {(double)mant * 0x1p-52 * s, 0, e + 52};
    /* The rest, m - mant 2^e, exactly; empty when m had at most 53 bits. */
    if (e >= XACC_LOW) {
        xacc_add_mant(&m, mant, e, -1);
        struct xacc rest;
        int s2 = magnitude(&m, &rest);
        if (s2 != 0) {
            int e2;
            uint64_t mant2 = round53(&rest, &e2);
            r.lo = ldexp((double)mant2 * s2 * s, e2 - e - 52 < -2000 ? -2000 : e2 - e - 52);
        }
    }
    return r;
}

static double ldexp64(double x, int64_t e)
{
    if (e > 4000)
        e = 4000;
    if (e < -4000)
        e = -4000;
    return ldexp(x, (int)e);
}

double xdd_double(struct xdd a)
{
    if (a.hi == 0)
        return 0.0;
    if (a.e < -1000) {
        /* Near or below the subnormal range: round hi + lo once. */
        return ldexp64(a.hi + a.lo, a.e);
    }
    return ldexp64(a.hi, a.e) + ldexp64(a.lo, a.e);
}

double xacc_double(struct xacc *a) { return xdd_double(xacc_value(a)); }

dd xdd_dd(struct xdd a) { return (dd){ldexp64(a.hi, a.e), ldexp64(a.lo, a.e)}; }

/* Brings hi into [1, 2). */
static struct xdd norm(dd v, int64_t e)
{
    if (v.hi == 0 || !isfinite(v.hi))
        return (struct xdd){v.hi, 0, v.hi == 0 ? 0 : e};
    int k;
    frexp(v.hi, &k);
    return (struct xdd){ldexp(v.hi, 1 - k), ldexp(v.lo, 1 - k), e + k - 1};
}

struct xdd xdd_from_dd(dd v) { return norm(v, 0); }

struct xdd xdd_mul(struct xdd a, struct xdd b)
{
    return norm(dd_mul(dd_make(a.hi, a.lo), dd_make(b.hi, b.lo)), a.e + b.e);
}

struct xdd xdd_div(struct xdd a, struct xdd b)
{
    return norm(dd_div(dd_make(a.hi, a.lo), dd_make(b.hi, b.lo)), a.e - b.e);
}

struct xdd xdd_add(struct xdd a, struct xdd b)
{
    if (b.hi == 0)
        return a;
    if (a.hi == 0)
        return b;
    if (a.e < b.e) {
        struct xdd t = a;
        a = b;
        b = t;
    }
    int64_t d = a.e - b.e;
    if (d > 2000)
        return a;
    dd bs = {ldexp(b.hi, (int)-d), ldexp(b.lo, (int)-d)};
    return norm(dd_add(dd_make(a.hi, a.lo), bs), a.e);
}

struct xdd xdd_sqrt(struct xdd a)
{
    if (a.hi <= 0)
        return (struct xdd){a.hi == 0 ? 0.0 : NAN, 0, 0};
    dd m = {a.hi, a.lo};
    int64_t e = a.e;
    if (e % 2 != 0) {
        m = dd_ldexp(m, 1);
        e--;
    }
    return norm(dd_sqrt(m), e / 2);
}
