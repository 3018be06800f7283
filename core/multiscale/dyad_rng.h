/* The random numbers of one calcium release unit in one step (core/multiscale/dyads.h),
 * shared by the CPU and GPU dyad stages so that both draw the same channel
 * counts. Philox4x32-10 (core/multiscale/rng.h) keyed by (seed, stream = 3 dyad + call),
 * counter (global cell, step): call 0 gives the two words of the L-type
 * channels, calls 1 and 2 the eight of the RyRs (call 2, those of the RyRs
 * in C2 and C3, only where c23: either state holds channels). Nothing depends on which
 * rank or GPU owns the cell or in which order cells and dyads are visited. */
#ifndef CARDIAC_DYAD_RNG_H
#define CARDIAC_DYAD_RNG_H
#include "rng.h"

/* The counter's cell of global cell gcell: gcell itself, or in an ensemble
 * (multiscale.key_period, core/engine/members.h) its index within its
 * member's layer, so that a member draws what it draws alone. */
CARDIAC_HD uint64_t dyad_key(uint64_t gcell, uint64_t key_period)
{
    return key_period ? gcell % key_period : gcell;
}

CARDIAC_HD void dyad_words(uint32_t seed, int dyad, uint64_t cell, uint64_t step, int c23, uint32_t *w)
{
    const uint32_t stream = 3u * (uint32_t)dyad;
    const rng_block b0 = rng_draw(seed, stream, cell, step);
    const rng_block b1 = rng_draw(seed, stream + 1, cell, step);
    w[0] = b0.v[0]; w[1] = b0.v[1];
    for (int t = 0; t < 4; t++) w[2 + t] = b1.v[t];
    /* the words of C2 and C3 only where either holds channels: with none,
     * their draws take no word (binomial_draw of n = 0), and a resting RyR
     * population has none there */
    if (c23) {
        const rng_block b2 = rng_draw(seed, stream + 2, cell, step);
        for (int t = 0; t < 4; t++) w[6 + t] = b2.v[t];
    } else {
        for (int t = 0; t < 4; t++) w[6 + t] = 0;
    }
}

#endif
