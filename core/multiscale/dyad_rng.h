/* The random numbers of one calcium release unit in one step (core/multiscale/dyads.h),
 * shared by the CPU and GPU dyad stages so that both draw the same channel
 * counts. Philox4x32-10 (core/multiscale/rng.h) keyed by (seed, stream = 3 dyad + call),
 * counter (global cell, step). Ten words, two per binomial split: the L-type
 * channels (w[0], w[1]) and the RyRs in C1 (w[2], w[3]), O1 (w[4], w[5]), C2
 * (w[6], w[7]) and C3 (w[8], w[9]). A state with no channels takes no word
 * (binomial_split of n = 0), so the words are drawn by need: call 0 gives
 * the L-type's and C1's, which every dyad takes; call 1 those of O1 and C2,
 * only where either holds channels; call 2 those of C3, only where it holds
 * some. A resting dyad (every RyR in C1) then draws one block of four words
 * a step, not two (docs/gpu-notebook.md, item 35). Nothing depends on which
 * rank or GPU owns the cell or in which order cells and dyads are visited. */
#ifndef CARDIAC_DYAD_RNG_H
#define CARDIAC_DYAD_RNG_H
#include "rng.h"
#include "models/gaur_rudy_consts.h"   /* DYAD_C1 .. DYAD_C3 */

/* The counter's cell of global cell gcell: gcell itself, or in an ensemble
 * (multiscale.key_period, core/engine/members.h) its index within its
 * member's layer, so that a member draws what it draws alone. */
CARDIAC_HD uint64_t dyad_key(uint64_t gcell, uint64_t key_period)
{
    return key_period ? gcell % key_period : gcell;
}

CARDIAC_HD void dyad_words(uint32_t seed, int dyad, uint64_t cell, uint64_t step, const int *ryr, uint32_t *w)
{
    const uint32_t stream = 3u * (uint32_t)dyad;
    const rng_block b0 = rng_draw(seed, stream, cell, step);
    for (int t = 0; t < 4; t++) w[t] = b0.v[t];
    if (ryr[DYAD_O1] | ryr[DYAD_C2]) {
        const rng_block b1 = rng_draw(seed, stream + 1, cell, step);
        for (int t = 0; t < 4; t++) w[4 + t] = b1.v[t];
    } else {
        for (int t = 0; t < 4; t++) w[4 + t] = 0;
    }
    if (ryr[DYAD_C3]) {
        const rng_block b2 = rng_draw(seed, stream + 2, cell, step);
        w[8] = b2.v[0]; w[9] = b2.v[1];
    } else {
        w[8] = w[9] = 0;
    }
}

#endif
