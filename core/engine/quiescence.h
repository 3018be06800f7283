/* Quiescent cells (cardiac.simulation{multirate = m, quiescent_below = v,
 * quiescent_diffusion = e}): a tissue cell whose V lies below v (mV), into
 * which its neighbours drive less than e (mV/ms) of diffusion current, and
 * that no stimulus drives, takes no ionic step at multirate's holding steps;
 * its V takes the step's diffusion alone. Its ionic state then advances at the next updating step
 * (every m-th), or at the first step at which the cell is no longer quiescent
 * (an approaching wave's diffusion current, a stimulus), by one step
 * of the elapsed time: k = lag + 1 steps of dt, with lag the steps it sat out
 * since it last advanced. That step takes the cell's own currents over k dt
 * (Rush-Larsen for the gates, forward Euler for the rest) and the diffusion
 * of this step only, which the holding steps applied already: the step is
 * given idiff / k, so that k dt times it is the step's dt times idiff.
 * Multirate's slow states, at an updating step, take m / k times the change
 * of that step, m dt of change in all, as every cell's do.
 *
 * Why: at rest, before the wave comes and after the cell has repolarised,
 * ORd's currents change on time scales of tens to hundreds of ms, and a
 * quiescent cell's holding step reads and writes V alone, so a second of
 * paced tissue, which sits at rest most of the time, moves a fraction of
 * the bytes (docs/gpu-notebook.md, item 45). The scheme is the time-adaptive
 * splitting of Qu and Garfinkel (1999), with the large step taken where V is
 * quiet; its effect on activation and APD is measured against fp64 without
 * it (docs/models.md, "Quiescent cells").
 *
 * Each cell keeps the step count at which its ionic state is next due, modulo
 * 256 (one byte: the lag is at most m - 1 < 255, since every cell advances at
 * every updating step). Both backends apply the same rule with the same
 * arithmetic. */
#ifndef CARDIAC_QUIESCENCE_H
#define CARDIAC_QUIESCENCE_H
#include "qualifiers.h"

/* The largest multirate interval the one-byte lag can count. */
#define QUIESCENT_MAX_MULTIRATE 255

/* Steps cell's ionic state sat out before step n (the simulation's count of
 * steps taken before it), from its stamp. */
CARDIAC_HD unsigned quiescent_lag(long long n, unsigned char stamp)
{
    return (unsigned)((unsigned long long)n - stamp) & 255u;
}

/* The stamp of a cell whose ionic state advanced at step n: due at n + 1. */
CARDIAC_HD unsigned char quiescent_stamp(long long n) { return (unsigned char)((unsigned long long)(n + 1) & 255u); }

/* The bound on the diffusion current when the script gives none, mV/ms:
 * on ORd's cable at the heart's resolution it kept activation within 0.0004
 * ms of the run without quiescent cells, where the bound on V alone (-86 mV)
 * gave 0.043 ms, at the same cost (docs/gpu-notebook.md, item 45). */
#define QUIESCENT_DIFFUSION_DEFAULT 0.1

/* Whether a cell sits this holding step out: V below the bound, a diffusion
 * current idiff (mV/ms) smaller than `current` either way, and no stimulus.
 * The current wakes a cell as the foot of a wave reaches it, before V moves:
 * with the bound on V alone the foot's first millivolts went unstepped, which
 * delayed the wave and moved a dying front's edge. */
CARDIAC_HD int quiescent_f32(float v, float istim, float idiff, float below, float current)
{
    return v < below && istim == 0 && idiff < current && idiff > -current;
}
CARDIAC_HD int quiescent_f64(double v, double istim, double idiff, double below, double current)
{
    return v < below && istim == 0 && idiff < current && idiff > -current;
}

/* idiff / k rounded to nearest (the GPU's float division under fast math is
 * approximate; this one is not), k = 1 giving idiff itself. */
CARDIAC_HD float quiescent_share_f32(float idiff, unsigned k)
{
#if defined(__CUDA_ARCH__)
    return __fdiv_rn(idiff, (float)k);
#else
    return idiff / (float)k;
#endif
}
CARDIAC_HD double quiescent_share_f64(double idiff, unsigned k) { return idiff / (double)k; }

#endif
