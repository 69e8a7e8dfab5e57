#ifndef BENCHDB_SIM_RNG_H
#define BENCHDB_SIM_RNG_H
#include <stddef.h>
#include <stdint.h>

/* The simulator's random numbers, fixed so that a seed gives the same
 * numbers on every machine (never rand()):
 *   - splitmix64 (Steele, Lea, Flood 2014) derives keys and seeds;
 *   - xoshiro256** 1.0 (Blackman, Vigna 2018) is the generator, its state
 *     filled by four splitmix64 outputs;
 *   - a uniform double is the top 53 bits of an output times 2^-53;
 *   - a standard normal deviate comes from Marsaglia's polar method
 *     (pairs of uniforms on (-1,1) until 0 < s < 1, then
 *     u * sqrt(-2 ln s / s); the second deviate of the pair is dropped so
 *     that each deviate depends only on the draws before it). */

struct rng {
    uint64_t s[4];
};

/* One splitmix64 step: advances *state and returns the next output. */
uint64_t splitmix64(uint64_t *state);
/* Seeds r from a 64-bit seed through splitmix64. */
void rng_seed(struct rng *r, uint64_t seed);
/* A key for an independent stream: seed, then each part mixed in turn
 * (k = splitmix64 output of k ^ part). Streams keyed by different parts
 * are unrelated, so a model quantity does not change when an unrelated
 * option changes the number of draws made elsewhere. */
uint64_t rng_key(uint64_t seed, const uint64_t *parts, size_t n);
/* Seeds r for the stream named by (seed, parts). */
void rng_stream(struct rng *r, uint64_t seed, const uint64_t *parts, size_t n);

uint64_t rng_next(struct rng *r);
/* Uniform on [0, 1), multiples of 2^-53. */
double rng_uniform(struct rng *r);
/* Standard normal deviate (polar method). */
double rng_normal(struct rng *r);

#endif
