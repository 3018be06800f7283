/* Aliev-Panfilov two-variable model, single source for CPU and GPU, float and
 * double (instantiated by core/engine/instances.h; no include guard).
 *
 * Aliev R.R., Panfilov A.V., A simple two-variable model of cardiac
 * excitation, Chaos Solitons Fractals 7(3):293-301 (1996):
 *   du/dt = -k u (u - a)(u - 1) - u v + I
 *   dv/dt = (eps0 + mu1 v/(u + mu2)) (-v - k u (u - b - 1))
 * in dimensionless time; t_norm ms per time unit and V = vm_rest + vm_norm u (mV).
 * Default constants: those of Unat, Cai & Baden's GPU study (a = b = 0.1,
 * mu1 = 0.07, mu2 = 0.3, eps0 = 0.01, k = 8) with t_norm = 1, i.e. their time
 * unit; the paper's physiological mapping (12.9 ms, 100 mV, -80 mV) goes with
 * its own constants (a = 0.15, eps0 = 0.002, mu1 = 0.2). See docs/models.md. */
#include "aliev_panfilov_consts.h"

/* One step of one cell: idiff and istim are dV/dt contributions in mV/ms. */
CARDIAC_HD void R(aliev_panfilov_step)(real *y, real idiff, real istim, real dt, const real *p)
{
    /* divisions by parameters are written as products with their inverses,
     * constants when the GPU folds the default parameters */
    real u = (y[AP_V] - p[AP_VREST]) * ((real)1 / p[AP_VNORM]), w = y[AP_W];
    real k = p[AP_K];
    real du = -k * u * (u - p[AP_A]) * (u - (real)1) - u * w;          /* per model time unit */
    real eps = p[AP_EPS0] + p[AP_MU1] * w / (u + p[AP_MU2]);
    real dw = eps * (-w - k * u * (u - p[AP_B] - (real)1));
    real dV = du * (p[AP_VNORM] / p[AP_TNORM]) + idiff + istim;        /* mV/ms */
    y[AP_V] = R(forward_euler)(y[AP_V], dV, dt);
    y[AP_W] = R(forward_euler)(w, dw * ((real)1 / p[AP_TNORM]), dt);
}
