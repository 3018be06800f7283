/* Counter-based random numbers for stochastic models: Philox4x32-10 (J. K.
 * Salmon, M. A. Moraes, R. O. Dror, D. E. Shaw, Parallel random numbers: as
 * easy as 1, 2, 3, SC 2011). A draw is a pure function of
 * (seed, stream; global cell index, step), so a run gives the same numbers
 * on the CPU, on one GPU or split over any number of ranks and GPUs: no
 * generator state is stored, split or communicated (docs/mpi.md). `stream`
 * tells apart the draws one cell needs in one step (e.g. one per calcium
 * release unit and channel). Shared by gcc and nvcc (core/engine/qualifiers.h). */
#ifndef CARDIAC_RNG_H
#define CARDIAC_RNG_H
#include <stdint.h>
#include "qualifiers.h"

typedef struct { uint32_t v[4]; } rng_block;

/* The Philox4x32 bijection with 10 rounds of counter c under key k. */
CARDIAC_HD rng_block rng_philox4x32_10(rng_block c, uint32_t k0, uint32_t k1)
{
    for (int r = 0; r < 10; r++) {
        if (r > 0) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }   /* Weyl key schedule */
        /* each product's high and low words from one 64-bit product: on the
         * GPU one wide multiply, where a separate low product cost one more
         * instruction each (docs/gpu-notebook.md, item 33) */
        const uint64_t p0 = (uint64_t)0xD2511F53u * c.v[0], p1 = (uint64_t)0xCD9E8D57u * c.v[2];
        rng_block n = {{(uint32_t)(p1 >> 32) ^ c.v[1] ^ k0, (uint32_t)p1, (uint32_t)(p0 >> 32) ^ c.v[3] ^ k1,
                        (uint32_t)p0}};
        c = n;
    }
    return c;
}

/* Four independent 32-bit words for (cell, step) of a run's seed and stream. */
CARDIAC_HD rng_block rng_draw(uint32_t seed, uint32_t stream, uint64_t cell, uint64_t step)
{
    rng_block c = {{(uint32_t)cell, (uint32_t)(cell >> 32), (uint32_t)step, (uint32_t)(step >> 32)}};
    return rng_philox4x32_10(c, seed, stream);
}

/* A word as a uniform number in (0, 1): 24 random bits, centred in their bin
 * (never 0 or 1, so log(u) and 1/u are safe). */
CARDIAC_HD float rng_uniform_f32(uint32_t x) { return ((float)(x >> 8) + 0.5f) * (1.0f / 16777216.0f); }
CARDIAC_HD double rng_uniform_f64(uint32_t hi, uint32_t lo)
{
    return ((double)(((uint64_t)hi << 21) ^ (lo >> 11)) + 0.5) * (1.0 / 9007199254740992.0);
}

#endif
