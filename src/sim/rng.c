/* splitmix64 and xoshiro256**: transcriptions of the public-domain
 * reference implementations (prng.di.unimi.it); see rng.h. */
#include "sim/rng.h"

#include <math.h>

uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    uint64_t st = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&st);
    /* splitmix64 is a bijection of its counter, so four consecutive
     * outputs are never all zero: the state is valid. */
}

uint64_t rng_key(uint64_t seed, const uint64_t *parts, size_t n)
{
    uint64_t k = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t st = k ^ parts[i];
        k = splitmix64(&st);
    }
    return k;
}

void rng_stream(struct rng *r, uint64_t seed, const uint64_t *parts, size_t n)
{
    rng_seed(r, rng_key(seed, parts, n));
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_uniform(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

double rng_normal(struct rng *r)
{
    double u, v, s;
    do {
        u = 2.0 * rng_uniform(r) - 1.0;
        v = 2.0 * rng_uniform(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * sqrt(-2.0 * log(s) / s);
}
