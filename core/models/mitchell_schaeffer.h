/* Mitchell-Schaeffer two-current model, single source for CPU and GPU, float
 * and double (instantiated by core/engine/instances.h; no include guard).
 *
 * C. C. Mitchell, D. G. Schaeffer, A two-current model for the dynamics of
 * cardiac membrane, Bull. Math. Biol. 65:767-793 (2003):
 *   dv/dt = J_in + J_out + J_stim,  J_in = h v^2 (1 - v) / tau_in,  J_out = -v / tau_out
 *   dh/dt = (1 - h) / tau_open  if v < v_gate,  -h / tau_close  otherwise
 * v is the dimensionless membrane potential (0 at rest, about 1 excited), time
 * in ms. The gate's equation is linear with a piecewise constant target, so
 * the Rush-Larsen update is exact for it within a step. */
#include "mitchell_schaeffer_consts.h"

/* One step of one cell: idiff and istim are dv/dt contributions in 1/ms. */
CARDIAC_HD void R(mitchell_schaeffer_step)(real *y, real idiff, real istim, real dt, const real *p)
{
    const real v = y[MS_V], h = y[MS_H];
    const real jin = h * v * v * ((real)1 - v) * ((real)1 / p[MS_TAU_IN]);
    const real jout = -v * ((real)1 / p[MS_TAU_OUT]);
    const int opening = v < p[MS_VGATE];
    y[MS_V] = R(forward_euler)(v, jin + jout + idiff + istim, dt);
    y[MS_H] = R(rush_larsen)(h, opening ? (real)1 : (real)0, opening ? p[MS_TAU_OPEN] : p[MS_TAU_CLOSE], dt);
}
