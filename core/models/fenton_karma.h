/* Fenton-Karma three-variable model, single source for CPU and GPU, float
 * and double (instantiated by core/engine/instances.h; no include guard).
 *
 * F. Fenton, A. Karma, Vortex dynamics in three-dimensional continuous
 * myocardium with fiber rotation: filament instability and fibrillation,
 * Chaos 8:20-47 (1998), eqs. 3-7 and table 1:
 *   du/dt = -(J_fi + J_so + J_si) + I,   V (mV) = V_0 + u (V_fi - V_0)
 *   J_fi = -v H(u - u_c)(1 - u)(u - u_c) / tau_d,   tau_d = C_m / g_fi
 *   J_so = u (1 - H(u - u_c)) / tau_o + H(u - u_c) / tau_r
 *   J_si = -w (1 + tanh(k (u - u_csi))) / (2 tau_si)
 *   dv/dt = (1 - H(u - u_c))(1 - v) / tau_v-(u) - H(u - u_c) v / tau_v+
 *   dw/dt = (1 - H(u - u_c))(1 - w) / tau_w-    - H(u - u_c) w / tau_w+
 *   tau_v-(u) = H(u - u_v) tau_v1- + (1 - H(u - u_v)) tau_v2-
 * u takes forward Euler; v and w are linear in themselves with a target and
 * a time constant fixed within a step, so they take the Rush-Larsen update. */
#include "fenton_karma_consts.h"

/* One step of one cell: idiff and istim are du/dt contributions in 1/ms. */
CARDIAC_HD void R(fenton_karma_step)(real *y, real idiff, real istim, real dt, const real *p)
{
    const real u = y[FK_U], v = y[FK_V], w = y[FK_W];
    const int above = u >= p[FK_UC];
    const real jfi = above ? -v * (1 - u) * (u - p[FK_UC]) * p[FK_GFI] : (real)0;
    const real jso = above ? 1 / p[FK_TR] : u / p[FK_TO];
    /* (1 + tanh(x)) / 2 = 1 / (1 + e^{-2x}): one exp */
    const real jsi = -w / (p[FK_TSI] * (1 + exp(-2 * p[FK_K] * (u - p[FK_UCSI]))));
    const real tvm = u >= p[FK_UV] ? p[FK_TV1M] : p[FK_TV2M];
    y[FK_U] = R(forward_euler)(u, -(jfi + jso + jsi) + idiff + istim, dt);
    y[FK_V] = R(rush_larsen)(v, above ? (real)0 : (real)1, above ? p[FK_TVP] : tvm, dt);
    y[FK_W] = R(rush_larsen)(w, above ? (real)0 : (real)1, above ? p[FK_TWP] : p[FK_TWM], dt);
}
