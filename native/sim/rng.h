/*
 * rng.h -- SplitMix64, the one random stream of a match (docs/rules.md section 1).
 * Seeded with the match seed reinterpreted as uint32, then one draw discarded.
 * below(n) = ((next >> 32) * n) >> 32. The state lives in the match.
 */
#ifndef GOTA_RNG_H
#define GOTA_RNG_H
#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline void rng_seed(uint64_t *state, int64_t seed)
{
    *state = (uint64_t)(uint32_t)(int32_t)seed;
    (void)rng_next(state);
}

static inline uint32_t rng_below(uint64_t *state, uint32_t n)
{
    return (uint32_t)(((rng_next(state) >> 32) * (uint64_t)n) >> 32);
}

/* A stateless mix of several words (the hit-order hash). */
static inline uint32_t rng_mix(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t s = a * 0x9E3779B97F4A7C15ull ^ b;
    s = rng_next(&s) ^ c;
    s = rng_next(&s) ^ d;
    return (uint32_t)(rng_next(&s) >> 32);
}

#endif
