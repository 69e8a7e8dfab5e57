/* SHA-256 after FIPS 180-4, section 6.2: a portable compression function,
 * and on x86-64 processors with the SHA extensions (detected at run time
 * with CPUID) the same rounds in their instructions, about 6 times faster:
 * ingest hashes every archive twice (before reading it, to skip one already
 * stored, and while streaming it), and the portable code was 2% of each of
 * its two threads' instructions. */
#include "util/sha256.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void compress(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t S1 = ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = hh + S1 + ch + K[i] + w[i];
        uint32_t S0 = ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22);
        uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = S0 + mj;
        hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

#ifdef SHA256_X86
#define SHA_NI __attribute__((target("sha,sse4.1,ssse3")))

/* A state h[8] as SHA-NI holds it, ABEF in *st0 and CDGH in *st1, and back. */
SHA_NI static inline void ni_load(const uint32_t h[8], __m128i *st0, __m128i *st1)
{
    __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1); /* CDAB */
    __m128i hi = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);  /* EFGH */
    *st0 = _mm_alignr_epi8(tmp, hi, 8);                                             /* ABEF */
    *st1 = _mm_blend_epi16(hi, tmp, 0xF0);                                          /* CDGH */
}

SHA_NI static inline void ni_store(uint32_t h[8], __m128i st0, __m128i st1)
{
    __m128i tmp = _mm_shuffle_epi32(st0, 0x1B); /* FEBA */
    st1 = _mm_shuffle_epi32(st1, 0xB1);         /* DCHG */
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(tmp, st1, 0xF0)); /* DCBA */
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(st1, tmp, 8));    /* HGFE */
}

/* Group g (0-15) of a block's message schedule, four words W[4g..4g+3]
 * kept in m[g & 3], plus their round constants: W[t] = s1(W[t-2]) +
 * W[t-7] + s0(W[t-15]) + W[t-16] (sha256msg1 adds s0, alignr brings
 * W[t-7], sha256msg2 adds s1). */
SHA_NI static inline __m128i ni_schedule(__m128i m[4], int g, const unsigned char *p)
{
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    if (g < 4) {
        m[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), swap);
    } else {
        __m128i x = _mm_sha256msg1_epu32(m[g & 3], m[(g + 1) & 3]);
        x = _mm_add_epi32(x, _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4));
        m[g & 3] = _mm_sha256msg2_epu32(x, m[(g + 3) & 3]);
    }
    return _mm_add_epi32(m[g & 3], _mm_loadu_si128((const __m128i *)&K[4 * g]));
}

/* The 64 rounds of blocks of 64 bytes with SHA-NI: four rounds per group
 * of four message words. */
SHA_NI static void compress_ni(uint32_t h[8], const unsigned char *p, size_t blocks)
{
    __m128i st0, st1;
    ni_load(h, &st0, &st1);
    for (; blocks > 0; blocks--, p += 64) {
        __m128i save0 = st0, save1 = st1, m[4];
#pragma GCC unroll 16
        for (int g = 0; g < 16; g++) {
            __m128i msg = ni_schedule(m, g, p);
            st1 = _mm_sha256rnds2_epu32(st1, st0, msg);
            st0 = _mm_sha256rnds2_epu32(st0, st1, _mm_shuffle_epi32(msg, 0x0E));
        }
        st0 = _mm_add_epi32(st0, save0);
        st1 = _mm_add_epi32(st1, save1);
    }
    ni_store(h, st0, st1);
}

/* The same rounds for two states over the same blocks: the message
 * schedule computed once, the two states' rounds interleaved (each
 * sha256rnds2 waits on the one before it in its own state, so two
 * independent chains keep the unit busy): about 0.6x the CPU of two
 * passes (bench/README.md, figure 3). */
SHA_NI static void compress_ni2(uint32_t ha[8], uint32_t hb[8], const unsigned char *p, size_t blocks)
{
    __m128i a0, a1, b0, b1;
    ni_load(ha, &a0, &a1);
    ni_load(hb, &b0, &b1);
    for (; blocks > 0; blocks--, p += 64) {
        __m128i sa0 = a0, sa1 = a1, sb0 = b0, sb1 = b1, m[4];
#pragma GCC unroll 16
        for (int g = 0; g < 16; g++) {
            __m128i msg = ni_schedule(m, g, p);
            __m128i hi = _mm_shuffle_epi32(msg, 0x0E);
            a1 = _mm_sha256rnds2_epu32(a1, a0, msg);
            b1 = _mm_sha256rnds2_epu32(b1, b0, msg);
            a0 = _mm_sha256rnds2_epu32(a0, a1, hi);
            b0 = _mm_sha256rnds2_epu32(b0, b1, hi);
        }
        a0 = _mm_add_epi32(a0, sa0);
        a1 = _mm_add_epi32(a1, sa1);
        b0 = _mm_add_epi32(b0, sb0);
        b1 = _mm_add_epi32(b1, sb1);
    }
    ni_store(ha, a0, a1);
    ni_store(hb, b0, b1);
}

static int cpu_has_sha(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1))
        return 0;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & bit_SHA) != 0;
}
#endif

/* -1: not decided yet; 0: portable; 1: SHA extensions. */
static _Atomic int use_ni = -1;

int sha256_accelerated(void)
{
#ifdef SHA256_X86
    if (use_ni < 0)
        use_ni = cpu_has_sha();
    return use_ni;
#else
    return 0;
#endif
}

int sha256_use_accelerated(int on)
{
    int was = sha256_accelerated();
#ifdef SHA256_X86
    use_ni = on && cpu_has_sha();
#else
    (void)on;
#endif
    return was;
}

static void compress_blocks(uint32_t h[8], const unsigned char *p, size_t blocks)
{
#ifdef SHA256_X86
    if (sha256_accelerated()) {
        compress_ni(h, p, blocks);
        return;
    }
#endif
    for (; blocks > 0; blocks--, p += 64)
        compress(h, p);
}

static void compress_blocks2(uint32_t ha[8], uint32_t hb[8], const unsigned char *p, size_t blocks)
{
#ifdef SHA256_X86
    if (sha256_accelerated()) {
        compress_ni2(ha, hb, p, blocks);
        return;
    }
#endif
    for (; blocks > 0; blocks--, p += 64) {
        compress(ha, p);
        compress(hb, p);
    }
}

void sha256_init(struct sha256 *s)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, iv, sizeof iv);
    s->len = 0;
    s->fill = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->len += n;
    if (s->fill) {
        size_t take = 64 - s->fill < n ? 64 - s->fill : n;
        memcpy(s->buf + s->fill, p, take);
        s->fill += take; p += take; n -= take;
        if (s->fill < 64)
            return;
        compress_blocks(s->h, s->buf, 1);
        s->fill = 0;
    }
    compress_blocks(s->h, p, n / 64);
    p += n / 64 * 64;
    n %= 64;
    memcpy(s->buf, p, n);
    s->fill = n;
}

void sha256_update2(struct sha256 *a, struct sha256 *b, const void *data, size_t n)
{
    const unsigned char *p = data;
    if (a->fill != b->fill) { /* their blocks do not line up */
        sha256_update(a, p, n);
        sha256_update(b, p, n);
        return;
    }
    if (a->fill) { /* both blocks completed alike, then one pass over the whole ones */
        size_t take = 64 - a->fill < n ? 64 - a->fill : n;
        sha256_update(a, p, take);
        sha256_update(b, p, take);
        p += take;
        n -= take;
        if (a->fill)
            return;
    }
    a->len += n;
    b->len += n;
    compress_blocks2(a->h, b->h, p, n / 64);
    p += n / 64 * 64;
    n %= 64;
    memcpy(a->buf, p, n);
    memcpy(b->buf, p, n);
    a->fill = b->fill = n;
}

void sha256_final(struct sha256 *s, unsigned char out[32])
{
    uint64_t bits = s->len * 8;
    unsigned char pad = 0x80;
    sha256_update(s, &pad, 1);
    unsigned char zero = 0;
    while (s->fill != 56)
        sha256_update(s, &zero, 1);
    unsigned char lenbuf[8];
    for (int i = 0; i < 8; i++)
        lenbuf[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(s, lenbuf, 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(s->h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
        out[4 * i + 3] = (unsigned char)s->h[i];
    }
}

void sha256_hex(const unsigned char digest[32], char out[65])
{
    static const char hexdig[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hexdig[digest[i] >> 4];
        out[2 * i + 1] = hexdig[digest[i] & 15];
    }
    out[64] = 0;
}

void sha256_hex_of(const void *data, size_t n, char out[65])
{
    struct sha256 s;
    unsigned char d[32];
    sha256_init(&s);
    sha256_update(&s, data, n);
    sha256_final(&s, d);
    sha256_hex(d, out);
}
