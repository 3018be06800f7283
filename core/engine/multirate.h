/* Multirate stepping (cardiac.simulation{multirate = m}): the states a model
 * declares slow (model_def.slow_states) change only every m-th step, by m
 * times that step's own change, and are held between. Every other state,
 * and V, steps every step as before; the slow states' values at the held
 * steps are what the fast currents read.
 *
 * Why: ORd's slow gates (time constants of tens to thousands of ms over
 * most of the cycle) and slow concentrations change little in a step of
 * 0.05 ms, and a step that only reads them moves fewer bytes: the GPU
 * kernels write them every m-th step only (ORd in fp32h: 14 of 41 states,
 * about 218 bytes a cell-step instead of 268). The change over m steps is
 * that step's rate (its forward-Euler or Rush-Larsen step, taken at the
 * step's fast states) times m dt: a forward-Euler step of m dt for a
 * concentration, and for a gate of time constant tau m Rush-Larsen
 * increments of dt, which differ from one of m dt by about (m dt / tau)^2 / 2
 * of the gate's distance to its target (docs/numerics.md). Its effect on the
 * tissue was measured before it was built (docs/gpu-notebook.md, item 28)
 * and is reported beside each timing (docs/models.md, "Multirate").
 *
 * Both backends apply the same rule with the same rounding: the combined
 * value is one fused multiply-add, m (y - old) + old, rounded once (then to
 * the state's precision). */
#ifndef CARDIAC_MULTIRATE_H
#define CARDIAC_MULTIRATE_H
#include "qualifiers.h"

/* Whether the step taken after `step` steps (the simulation's count, so
 * that the schedule does not depend on how a run is cut into calls) is one
 * at which the slow states take their change: steps m, 2m, 3m, ... */
CARDIAC_HD int multirate_updates(long long step, int every)
{
    return every > 1 && (step + 1) % every == 0;
}

/* The slow state's new value at an updating step: old plus `every` times
 * the change y - old the step computed. A float's change is taken in
 * double, where it is exact: a state that moves by more than a factor of 2
 * in a step (a gate near 0) would lose bits to y - old in float. */
CARDIAC_HD float multirate_by_f32(float old, float y, double factor)
{
    return (float)fma(factor, (double)y - (double)old, (double)old);
}
CARDIAC_HD double multirate_by_f64(double old, double y, double factor)
{
    return fma(factor, y - old, old);
}
CARDIAC_HD float multirate_f32(float old, float y, int every) { return multirate_by_f32(old, y, (double)every); }
CARDIAC_HD double multirate_f64(double old, double y, int every) { return multirate_by_f64(old, y, (double)every); }

/* A quiescent cell's updating step (core/engine/quiescence.h) covered k
 * steps of dt: its slow states take every / k times that step's change, so
 * that they too change by every dt of their rate (k = 1: the factor every). */
CARDIAC_HD double multirate_factor(int every, unsigned k) { return (double)every / (double)k; }

#endif
