/* The exact accumulator's carry pass, exact products, and its rounding to
 * double-double. Readers carry the state they read in place (the value is
 * unchanged) and read a negative value's magnitude from a negated copy of
 * its chunks. */
#include <math.h>

#include "stats/xacc.h"

#define TWO32 (INT64_C(1) << 32)

/* 2^k for -1022 <= k <= 1023, exactly. */
static inline double pow2i(int k)
{
    uint64_t u = (uint64_t)(k + 1023) << 52;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* x 2^k for any k, one rounding at most. */
static double scale2(double x, int64_t k)
{
    if (k >= -1022 && k <= 1023)
        return x * pow2i((int)k);
    if (k > 4000)
        k = 4000;
    if (k < -4000)
        k = -4000;
    return ldexp(x, (int)k);
}

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

void xacc_cover(struct xacc *a, int lo, int hi) { mark(a, lo, hi); }

/* Carries c[lo..hi) (and upward while needed); returns the new end of the
 * nonzero range, *lo its new start (both 0 for zero). After it, chunks
 * below the top are in [0, 2^32) and the top one is nonzero and in
 * (-2^32, 2^32): its sign is the value's. */
static int carry_chunks(int64_t *c, int *lo, int hi)
{
    int64_t carry = 0;
    int i = *lo;
    for (;; i++) {
        int64_t v = c[i] + carry;
        if ((i >= hi - 1 && v > -TWO32 && v < TWO32) || i == XACC_CHUNKS - 1) {
            c[i] = v;
            break;
        }
        /* floor(v / 2^32) and v mod 2^32, without shifting a negative. */
        int64_t low = (int64_t)((uint64_t)v & 0xffffffffu);
        carry = (v - low) / TWO32;
        c[i] = low;
    }
    int end = i + 1, start = *lo;
    while (end > start && c[end - 1] == 0)
        end--;
    while (start < end && c[start] == 0)
        start++;
    if (end == start)
        start = end = 0;
    *lo = start;
    return end;
}

void xacc_carry(struct xacc *a)
{
    a->adds = 0;
    if (a->hi == 0)
        return;
    int lo = a->lo;
    int hi = carry_chunks(a->c, &lo, a->hi);
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

void xacc_merge(struct xacc *a, struct xacc *b)
{
    xacc_carry(b);
    if (b->hi == 0)
        return;
    /* Both carried: chunks below 2^32 in size, so the sums cannot overflow. */
    xacc_carry(a);
    for (int i = b->lo; i < b->hi; i++)
        a->c[i] += b->c[i];
    mark(a, b->lo, b->hi);
    xacc_carry(a);
}

/* The magnitude of a value: chunks c[lo..hi) in [0, 2^32), top nonzero. */
struct mag {
    int lo, hi, sign;
    const int64_t *c; /* the state's own chunks, or buf */
    int64_t buf[XACC_CHUNKS];
};

static int mag_of(struct xacc *b, struct mag *m)
{
    xacc_carry(b);
    m->lo = b->lo;
    m->hi = b->hi;
    m->c = b->c;
    if (b->hi == 0)
        return m->sign = 0;
    if (b->c[b->hi - 1] > 0)
        return m->sign = 1;
    /* Negative: -v fits in the same chunks (|v| < 2^(32 hi)), so the
     * negated chunks carry without reaching past hi. */
    for (int i = b->lo; i < b->hi; i++)
        m->buf[i] = -b->c[i];
    m->hi = carry_chunks(m->buf, &m->lo, b->hi);
    m->c = m->buf;
    return m->sign = -1;
}

void xacc_add_mul_int(struct xacc *a, struct xacc *b, int64_t k)
{
    struct mag m;
    int sb = mag_of(b, &m);
    if (sb == 0 || k == 0)
        return;
    int64_t s = (sb < 0) != (k < 0) ? -1 : 1;
    uint64_t uk = k < 0 ? (uint64_t)0 - (uint64_t)k : (uint64_t)k;
    uint64_t k0 = uk & 0xffffffffu, k1 = uk >> 32;
    /* Each chunk of a takes at most four additions below 2^32. */
    xacc_carry(a);
    mark(a, m.lo, m.hi + 2);
    for (int j = m.lo; j < m.hi; j++) {
        uint64_t v = (uint64_t)m.c[j], p0 = v * k0, p1 = v * k1;
        a->c[j] += s * (int64_t)(p0 & 0xffffffffu);
        a->c[j + 1] += s * ((int64_t)(p0 >> 32) + (int64_t)(p1 & 0xffffffffu));
        a->c[j + 2] += s * (int64_t)(p1 >> 32);
    }
    xacc_carry(a);
}

void xacc_add_mul(struct xacc *a, struct xacc *b, struct xacc *c, int sign)
{
    struct mag mb, mc;
    int sb = mag_of(b, &mb), sc = b == c ? sb : mag_of(c, &mc);
    const struct mag *m2 = b == c ? &mb : &mc;
    if (sb == 0 || sc == 0)
        return;
    int64_t s = sb * sc * sign < 0 ? -1 : 1;
    /* chunk i times chunk j has weight 2^(32 (i + j) + 2 XACC_LOW), which is
     * chunk i + j + XACC_LOW / 32 of a. With a carried, each chunk of a
     * takes at most 4 * 70 additions below 2^33: no overflow, one carry
     * pass at the end. A square takes each cross product once, doubled. */
    xacc_carry(a);
    const int off = XACC_LOW / 32;
    mark(a, mb.lo + m2->lo + off, mb.hi + m2->hi + off);
    for (int i = mb.lo; i < mb.hi; i++) {
        uint64_t bi = (uint64_t)mb.c[i];
        int j0 = b == c ? i : m2->lo;
        for (int j = j0; j < m2->hi; j++) {
            uint64_t p = bi * (uint64_t)m2->c[j];
            int64_t lo = (int64_t)(p & 0xffffffffu), hi = (int64_t)(p >> 32);
            if (b == c && j != i) {
                lo *= 2;
                hi *= 2;
            }
            a->c[i + j + off] += s * lo;
            a->c[i + j + off + 1] += s * hi;
        }
    }
    xacc_carry(a);
}

static int msb32(uint64_t v)
{
    int b = 0;
    while (v >> (b + 1))
        b++;
    return b;
}

static uint64_t chunk(const struct mag *m, int k)
{
    return k >= m->lo && k < m->hi ? (uint64_t)m->c[k] : 0;
}

/* The 64 bits of the magnitude from weight 2^e0 up, and whether any bit
 * below 2^e0 is set. */
static uint64_t window(const struct mag *m, int e0, int *sticky)
{
    int p = e0 - XACC_LOW;
    int k = p >= 0 ? p >> 5 : -((-p + 31) >> 5);
    int s = p - 32 * k;
    uint64_t c0 = chunk(m, k), c1 = chunk(m, k + 1), c2 = chunk(m, k + 2);
    uint64_t w = ((c0 | (c1 << 32)) >> s) | (s ? c2 << (64 - s) : 0);
    int st = s && (c0 & ((UINT64_C(1) << s) - 1)) != 0;
    for (int i = m->lo; !st && i < k && i < m->hi; i++)
        st = m->c[i] != 0;
    *sticky = st;
    return w;
}

struct xdd xacc_value(struct xacc *a)
{
    struct mag m;
    int sign = mag_of(a, &m);
    if (sign == 0)
        return (struct xdd){0, 0, 0};
    /* hi: the magnitude rounded to 53 bits at its leading bit E */
    int top = m.hi - 1;
    int E = XACC_LOW + 32 * top + msb32((uint64_t)m.c[top]);
    int sticky;
    uint64_t w = window(&m, E - 63, &sticky);
    uint64_t mant = w >> 11, rem = w & 0x7ff;
    int up = rem > 0x400 || (rem == 0x400 && (sticky || (mant & 1)));
    int e = E - 52; /* weight of mant's last bit */
    struct xdd r = {(double)(mant + up) * 0x1p-52 * sign, 0, E};
    if (mant + up == UINT64_C(1) << 53) {
        r.hi = sign;
        r.e = E + 1;
    }
    /* lo: the rest, L - up 2^e with L the bits below 2^e, to about 53 bits
     * (all a double-double needs): L from the three chunks below e. */
    double L = 0;
    if (rem || sticky) {
        int p = e - XACC_LOW, k = p >= 0 ? p >> 5 : -1, s = p - 32 * k;
        if (k >= 0) {
            uint64_t part = chunk(&m, k) & ((UINT64_C(1) << s) - 1);
            L = (double)part * scale2(1.0, (int64_t)XACC_LOW + 32 * k - r.e);
            for (int i = k - 1; i >= k - 3 && i >= m.lo; i--)
                L += (double)chunk(&m, i) * scale2(1.0, (int64_t)XACC_LOW + 32 * i - r.e);
        }
        r.lo = (L - (up ? scale2(1.0, (int64_t)e - r.e) : 0)) * sign;
    }
    return r;
}

double xdd_double(struct xdd a)
{
    if (a.hi == 0)
        return 0.0;
    if (a.e > 1023)
        return a.hi > 0 ? INFINITY : -INFINITY;
    if (a.e < -1000) {
        /* Near or below the subnormal range: round hi + lo once. */
        return scale2(a.hi + a.lo, a.e);
    }
    return scale2(a.hi, a.e) + scale2(a.lo, a.e);
}

double xacc_double(struct xacc *a) { return xacc_div_double(a, 1); }

/* The sign of 2 a - n (r + nb): of a / n against the midpoint of the
 * doubles r and nb, exactly (an infinite neighbour stands for 2^1024, the
 * point round-to-nearest treats as the next value past the largest double). */
static int cmp_midpoint(struct xacc *a, int64_t n, double r, double nb)
{
    struct xacc t = {0}, m = {0};
    xacc_add_mul_int(&t, a, 2);
    double v[2] = {r, nb};
    for (int i = 0; i < 2; i++) {
        if (isinf(v[i]))
            xacc_add_mant(&m, UINT64_C(1) << 52, 972, v[i] < 0 ? -1 : 0);
        else
            xacc_add(&m, v[i], 1);
    }
    xacc_add_mul_int(&t, &m, -n);
    return xacc_sign(&t);
}

static int is_even(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (u & 1) == 0; /* +-inf (2^1024) and 0 count as even */
}

/* The quotient's double-double value q = (hi + lo) 2^e is within 2^-101 of
 * the exact one relative to 2^e (xacc_value: 2^-104; the division: 3.5
 * 2^-106), and |lo| <= 2^-53 |hi|. Rounding hi + lo gives hi itself unless
 * lo comes near half an ulp of hi: 2^-53, or 2^-54 below a power of two.
 * Away from those points by 2^-80, far more than q's error, hi is the
 * correctly rounded quotient; near them (or near the ends of the range)
 * the neighbours' midpoints are compared with the exact sum. */
double xacc_div_double(struct xacc *a, int64_t n)
{
    struct xdd q = xdd_div(xacc_value(a), xdd_from_dd(dd_i64(n)));
    if (q.hi == 0)
        return 0.0;
    double h = fabs(q.hi), l = q.hi < 0 ? -q.lo : q.lo;
    const double margin = 0x1p-80;
    double half = l < 0 && h == 1 ? 0x1p-54 : 0x1p-53;
    if (q.e >= -1022 && q.e <= 1023 && fabs(l) < half - margin)
        return scale2(q.hi, q.e);
    double r = xdd_double(q); /* within an ulp or two */
    for (int iter = 0; iter < 64; iter++) {
        double up = nextafter(r, INFINITY), dn = nextafter(r, -INFINITY);
        int c = up != r ? cmp_midpoint(a, n, r, up) : -1;
        if (c > 0) {
            r = up;
            continue;
        }
        if (c == 0) {
            r = is_even(r) ? r : up;
            break;
        }
        c = dn != r ? cmp_midpoint(a, n, r, dn) : 1;
        if (c < 0) {
            r = dn;
            continue;
        }
        if (c == 0)
            r = is_even(r) ? r : dn;
        break;
    }
    return r == 0 ? copysign(0.0, q.hi) : r;
}

dd xdd_dd(struct xdd a) { return (dd){scale2(a.hi, a.e), scale2(a.lo, a.e)}; }

/* Brings hi into [1, 2). */
static struct xdd norm(dd v, int64_t e)
{
    if (v.hi == 0 || !isfinite(v.hi))
        return (struct xdd){v.hi, 0, v.hi == 0 ? 0 : e};
    uint64_t u;
    memcpy(&u, &v.hi, sizeof u);
    int be = (int)((u >> 52) & 0x7ff);
    if (be == 0) {
        int k;
        frexp(v.hi, &k);
        return (struct xdd){ldexp(v.hi, 1 - k), ldexp(v.lo, 1 - k), e + k - 1};
    }
    int k = be - 1023;
    double f = pow2i(-k);
    return (struct xdd){v.hi * f, v.lo * f, e + k};
}

struct xdd xdd_from_dd(dd v) { return norm(v, 0); }

/* A divisor or factor that is one double (a count below 2^53) takes the
 * cheaper double-double operations. */
struct xdd xdd_mul(struct xdd a, struct xdd b)
{
    dd x = dd_make(a.hi, a.lo);
    return norm(b.lo == 0 ? dd_mul_d(x, b.hi) : dd_mul(x, dd_make(b.hi, b.lo)), a.e + b.e);
}

struct xdd xdd_div(struct xdd a, struct xdd b)
{
    dd x = dd_make(a.hi, a.lo);
    return norm(b.lo == 0 ? dd_div_d(x, b.hi) : dd_div(x, dd_make(b.hi, b.lo)), a.e - b.e);
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
    dd bs = {scale2(b.hi, -d), scale2(b.lo, -d)};
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
