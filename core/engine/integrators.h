/* Time-integration rules shared by all cell models (CPU and GPU, both
 * precisions; instantiated by core/engine/instances.h, so no include guard).
 * Forward Euler for the membrane potential and non-gating states; the
 * Rush-Larsen exponential update (Rush & Larsen 1978, thesis eq. 2.4) for
 * Hodgkin-Huxley gates dy/dt = (y_inf - y)/tau, exact for frozen y_inf, tau. */

CARDIAC_HD real R(forward_euler)(real y, real dydt, real dt) { return y + dt * dydt; }

CARDIAC_HD real R(rush_larsen)(real y, real y_inf, real tau, real dt)
{
    return y_inf + (y - y_inf) * exp(-dt / tau);
}

/* The exponential step of a linear relaxation dy/dt = (y_inf - y)/tau whose
 * state stays in real (ORd's release fluxes), with its decay factor
 * exp(-dt/tau) in greal like the gates' (fp32 in the mixed instance: a
 * relative error of about 6e-8 in how fast y approaches y_inf, none in
 * y_inf). Its exponential is cardiac_exp, out of line on the GPU in double
 * precision (core/engine/qualifiers.h): ORd's fp64 kernel is otherwise too large for
 * the instruction cache. Smaller models keep rush_larsen inline: TP06's fp64
 * kernel ran 17% slower with its calls outlined (docs/gpu-notebook.md, item 6). */
CARDIAC_HD real R(relax_step)(real y, real y_inf, greal tau, greal dt)
{
    return y_inf + (y - y_inf) * (real)cardiac_exp(-dt / tau);
}

/* A Hodgkin-Huxley gate's Rush-Larsen step in the precision of the model's
 * gate kinetics, greal (float in the mixed instance, core/engine/instances.h; else
 * real), with the exponential out of line like relax_step's. */
CARDIAC_HD greal R(rush_larsen_gate)(greal y, greal y_inf, greal tau, greal dt)
{
    return y_inf + (y - y_inf) * cardiac_exp(-dt / tau);
}

/* The same step from the gate's rate 1/tau: where a model's time constant is
 * the reciprocal of a rate sum, as most of ORd's are, the step then needs no
 * division (in double a dependent chain of some twenty instructions on the
 * GPU; docs/gpu-notebook.md, item 36). */
CARDIAC_HD greal R(rush_larsen_rate)(greal y, greal y_inf, greal rate, greal dt)
{
    return y_inf + (y - y_inf) * cardiac_exp(-dt * rate);
}
