/*
 * common/pmu_rng.h - the one pseudo-random generator of pmusim: xoshiro256** seeded through
 * splitmix64 (Blackman and Vigna), integer arithmetic only, so a seed gives the same
 * sequence on every machine.  The stream generator, conformance runs and the random
 * tests all draw from it; every random run prints its seed and replays from it.
 */
#ifndef PMU_RNG_H
#define PMU_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmu_rng {
    uint64_t s[4];
} pmu_rng;

static inline uint64_t pmu_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void pmu_rng_seed(pmu_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = pmu_splitmix64(&seed);
}

static inline uint64_t pmu_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t pmu_rng_next(pmu_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = pmu_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = pmu_rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1, without modulo bias. */
static inline uint64_t pmu_rng_below(pmu_rng *r, uint64_t n)
{
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = pmu_rng_next(r);
        if (x >= threshold)
            return x % n;
    }
}

/* Uniform in [lo, hi]. */
static inline uint64_t pmu_rng_range(pmu_rng *r, uint64_t lo, uint64_t hi)
{
    return lo + pmu_rng_below(r, hi - lo + 1);
}

/* Probabilities are integers: per mille and per million. */
static inline int pmu_rng_chance(pmu_rng *r, unsigned permille) { return pmu_rng_below(r, 1000) < permille; }
static inline int pmu_rng_chance_ppm(pmu_rng *r, unsigned ppm) { return pmu_rng_below(r, 1000000) < ppm; }

#ifdef __cplusplus
}
#endif
#endif
