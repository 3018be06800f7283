/* Bueno-Orovio-Cherry-Fenton minimal model of human ventricular action
 * potentials, single source for CPU and GPU, float and double (instantiated
 * by core/engine/instances.h; no include guard).
 *
 * A. Bueno-Orovio, E. M. Cherry, F. H. Fenton, Minimal model for human
 * ventricular action potentials in tissue, J. Theor. Biol. 253:544-560 (2008):
 *   du/dt = -(J_fi + J_so + J_si) + I,   V (mV) = 85.7 u - 84
 *   J_fi = -v H(u - theta_v)(u - theta_v)(u_u - u) / tau_fi
 *   J_so = (u - u_o)(1 - H(u - theta_w)) / tau_o + H(u - theta_w) / tau_so
 *   J_si = -H(u - theta_w) w s / tau_si
 *   dv/dt = (1 - H(u - theta_v))(v_inf - v) / tau_v- - H(u - theta_v) v / tau_v+
 *   dw/dt = (1 - H(u - theta_w))(w_inf - w) / tau_w- - H(u - theta_w) w / tau_w+
 *   ds/dt = ((1 + tanh(k_s (u - u_s))) / 2 - s) / tau_s
 * with the piecewise time constants and targets of the paper (eqs. 1-3 and
 * table 1; defaults: the epicardial set). u takes forward Euler; v, w and s
 * are linear in themselves with a target and a time constant fixed within a
 * step, so they take the Rush-Larsen update. */
#include "bueno_orovio_consts.h"

/* (1 + tanh(k (u - m))) / 2 = 1 / (1 + e^{-2k(u - m)}): one exp */
CARDIAC_HD real R(bo_sigmoid)(real u, real k, real m) { return (real)1 / ((real)1 + exp((real)-2 * k * (u - m))); }

/* One step of one cell: idiff and istim are du/dt contributions in 1/ms. */
CARDIAC_HD void R(bueno_orovio_step)(real *y, real idiff, real istim, real dt, const real *p)
{
    const real u = y[BO_U], v = y[BO_V], w = y[BO_W], s = y[BO_S];
    const int above_v = u > p[BO_THV], above_w = u > p[BO_THW];
    const int above_vm = u > p[BO_THVM], above_o = u > p[BO_THO];
    const real tau_so = p[BO_TSO1] + (p[BO_TSO2] - p[BO_TSO1]) * R(bo_sigmoid)(u, p[BO_KSO], p[BO_USO]);
    const real jfi = above_v ? -v * (u - p[BO_THV]) * (p[BO_UU] - u) / p[BO_TFI] : (real)0;
    const real jso = above_w ? (real)1 / tau_so : (u - p[BO_UO]) / (above_o ? p[BO_TO2] : p[BO_TO1]);
    const real jsi = above_w ? -w * s / p[BO_TSI] : (real)0;
    /* gates: target and time constant for this step */
    const real v_inf = above_vm ? (real)0 : (real)1;
    const real tau_v = above_v ? p[BO_TVP] : (above_vm ? p[BO_TV2M] : p[BO_TV1M]);
    const real w_inf = above_o ? p[BO_WINFS] : (real)1 - u / p[BO_TWINF];
    const real tau_wm = p[BO_TW1M] + (p[BO_TW2M] - p[BO_TW1M]) * R(bo_sigmoid)(u, p[BO_KWM], p[BO_UWM]);
    y[BO_U] = R(forward_euler)(u, -(jfi + jso + jsi) + idiff + istim, dt);
    y[BO_V] = R(rush_larsen)(v, above_v ? (real)0 : v_inf, tau_v, dt);
    y[BO_W] = R(rush_larsen)(w, above_w ? (real)0 : w_inf, above_w ? p[BO_TWP] : tau_wm, dt);
    y[BO_S] = R(rush_larsen)(s, R(bo_sigmoid)(u, p[BO_KS], p[BO_US]), above_w ? p[BO_TS2] : p[BO_TS1], dt);
}
