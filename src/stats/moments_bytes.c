/* A struct moments as bytes and back (stats/moments_bytes.h). A carried
 * accumulator holds chunks in [0, 2^32) below a signed top chunk; the
 * bytes hold the magnitude's base-2^32 digits instead, which are unique
 * for a value, and reading puts the sign back and carries. */
#include "stats/moments_bytes.h"

#include <stdint.h>
#include <string.h>

#include "stats/moments.h"

enum { FORMAT = 1, SIGN_ZERO = 0, SIGN_POS = 1, SIGN_NEG = 2 };

/* The places a sum of finite doubles (s1) or of their squares (s2) can
 * use: chunk of 2^-1074 to chunk of 2^1086, chunk of 2^-2148 to chunk of
 * 2^2110 (fewer than 2^63 values). Within these, the exact products of
 * moments.c and ttest.c stay inside the accumulator. */
#define S1_FIRST ((-1074 - XACC_LOW) >> 5)
#define S1_LAST ((1086 - XACC_LOW) >> 5)
#define S2_FIRST ((-2148 - XACC_LOW) >> 5)
#define S2_LAST ((2110 - XACC_LOW) >> 5)

static void put_u32(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One sum: its sign, place and digits. */
static size_t put_sum(struct xacc *a, unsigned char *out)
{
    int sign = xacc_sign(a); /* carries a */
    if (sign == 0) {
        out[0] = SIGN_ZERO;
        return 1;
    }
    struct xacc neg;
    const struct xacc *m = a;
    if (sign < 0) {
        /* -a carried: chunks in [0, 2^32) under a positive top, which are
         * the magnitude's digits. */
        neg = *a;
        for (int i = neg.lo; i < neg.hi; i++)
            neg.c[i] = -neg.c[i];
        xacc_carry(&neg);
        m = &neg;
    }
    out[0] = sign > 0 ? SIGN_POS : SIGN_NEG;
    out[1] = (unsigned char)m->lo;
    out[2] = (unsigned char)(m->hi - m->lo);
    size_t len = 3;
    for (int i = m->lo; i < m->hi; i++, len += 4)
        put_u32(out + len, (uint64_t)m->c[i]);
    return len;
}

size_t moments_to_bytes(struct moments *m, unsigned char *out)
{
    moments_sync(m);
    out[0] = FORMAT;
    for (int i = 0; i < 8; i++)
        out[1 + i] = (unsigned char)((uint64_t)m->n >> (8 * i));
    size_t len = 9;
    len += put_sum(&m->s1, out + len);
    len += put_sum(&m->s2, out + len);
    return len;
}

/* Reads one sum at *at; -1 when it is not one within [first, last]. */
static int get_sum(const unsigned char *in, size_t len, size_t *at, int first, int last, struct xacc *a)
{
    if (*at >= len)
        return -1;
    int sign = in[*at];
    if (sign == SIGN_ZERO) {
        *at += 1;
        return 0;
    }
    if ((sign != SIGN_POS && sign != SIGN_NEG) || len - *at < 3)
        return -1;
    int f = in[*at + 1], k = in[*at + 2];
    if (k < 1 || f < first || f + k - 1 > last || len - *at - 3 < (size_t)k * 4)
        return -1;
    const unsigned char *d = in + *at + 3;
    if (get_u32(d) == 0 || get_u32(d + 4 * (k - 1)) == 0)
        return -1;
    for (int i = 0; i < k; i++)
        a->c[f + i] = sign == SIGN_POS ? (int64_t)get_u32(d + 4 * i) : -(int64_t)get_u32(d + 4 * i);
    a->lo = (int16_t)f;
    a->hi = (int16_t)(f + k);
    xacc_carry(a);
    *at += 3 + (size_t)k * 4;
    return 0;
}

int moments_from_bytes(const unsigned char *in, size_t len, struct moments *m)
{
    memset(m, 0, sizeof *m);
    if (len < 11 || in[0] != FORMAT)
        return -1;
    uint64_t n = 0;
    for (int i = 0; i < 8; i++)
        n |= (uint64_t)in[1 + i] << (8 * i);
    if (n > (uint64_t)INT64_MAX)
        return -1;
    m->n = (int64_t)n;
    size_t at = 9;
    if (get_sum(in, len, &at, S1_FIRST, S1_LAST, &m->s1) || get_sum(in, len, &at, S2_FIRST, S2_LAST, &m->s2) ||
        at != len)
        return -1;
    int s2 = xacc_sign(&m->s2);
    if (s2 < 0 || (m->n == 0 && (s2 != 0 || xacc_sign(&m->s1) != 0)))
        return -1;
    /* n sum x^2 - (sum x)^2 = n sum (x - mean)^2, never negative for
     * values (its sign is exact: moments.c). */
    if (m->n > 0 && moments_ndev2(m).hi < 0)
        return -1;
    return 0;
}
