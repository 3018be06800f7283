/* Karma two-variable model, single source for CPU and GPU, float and double
 * (instantiated by core/engine/instances.h; no include guard).
 *
 * Karma A., Spiral breakup in model equations of action potential propagation
 * in cardiac tissue, Phys. Rev. Lett. 71:1103 (1993), and Electrical alternans
 * and spiral wave breakup in cardiac tissue, Chaos 4:461 (1994), which gives
 * the model its physical time scale tau_E; written as in the thesis
 * (Vasconcellos 2019, eqs. 2.11-2.12) with the U^2/2 excitation term of
 * Karma's papers (the thesis prints U/2, which makes rest unstable; see
 * docs/models.md), and time in ms:
 *   dU/dt = (-U + (1 - tanh(U - uh)) U^2/2 [gamma - (v/vstar)^xm]) / tau_e + D lap U + I
 *   dv/dt = eps [Theta(U - uv) - v] / tau_e
 * U and v are dimensionless, tau_e in ms, eps = tau_e / tau_n; the diffusion
 * D lap U (mm^2/ms) and the stimulus I (1/ms) are not divided by tau_e.
 * tau_e = 1 is the thesis' reading of the model unit as 1 ms. */
#include "karma_consts.h"

/* 2 log2(e) */
#define KARMA_2LOG2E 2.8853900817779268

/* x^m, by repeated squaring when m is a small whole number (the usual case,
 * and much cheaper than pow in the inner loop). The loop has a fixed trip
 * count so that GPU code runs it without branches; squarings past the highest
 * bit of m are not used. */
CARDIAC_HD real R(karma_pow)(real x, real m)
{
    int n = (int)m;
    if ((real)n != m || n < 0 || n > 127) return pow(x, m);
    real r = 1;
    for (int b = 0; b < 7; b++, x *= x)
        if (n & (1 << b)) r *= x;
    return r;
}

/* Excitation source term (everything but the -U decay and the applied current),
 * in model time units (per tau_e). */
CARDIAC_HD real R(karma_excitation)(real U, real v, const real *p)
{
    /* 1 - tanh(x) = 2 / (1 + e^{2x}): one exp instead of tanh. In float,
     * e^{2(U - uh)} is taken as 2^(2 log2(e) (U - uh)): U times 2 log2(e),
     * less 2 log2(e) uh, is one FMA where uh is a compile-time constant, and
     * the GPU's exp2 is one instruction where its exp scales its argument
     * first (2 log2(e) rounds once, a relative error of 6e-8). In double,
     * exp2 is a library sequence like exp, and with it ptxas spilled more in
     * the fp64 tplane kernels (docs/gpu-notebook.md, item 48): there 2U - 2uh,
     * which is 2(U - uh) to the bit (doubling is exact). v * (1/vstar): a
     * constant where vstar is one too. */
    const real e = sizeof(real) == sizeof(float)
                     ? exp2(U * (real)KARMA_2LOG2E - (real)KARMA_2LOG2E * p[KARMA_UH])
                     : exp((real)2 * U - (real)2 * p[KARMA_UH]);
    return ((real)1 / ((real)1 + e)) * U * U
         * (p[KARMA_GAMMA] - R(karma_pow)(v * ((real)1 / p[KARMA_VSTAR]), p[KARMA_XM]));
}

/* The rates the step reads (KARMA_RATE_U, KARMA_RATE_V), from the
 * parameters, once for all cells: a division by tau_e in every cell would cost
 * the general (unfolded) fp64 kernels registers and time. */
CARDIAC_HD void R(karma_derive)(real *p)
{
    p[KARMA_RATE_U] = (real)1 / p[KARMA_TAUE];
    p[KARMA_RATE_V] = p[KARMA_EPS] * p[KARMA_RATE_U];
}

/* One step of one cell: idiff is the diffusion term, istim the stimulus (both dU/dt, 1/ms). */
CARDIAC_HD void R(karma_step)(real *y, real idiff, real istim, real dt, const real *p)
{
    real U = y[KARMA_U], v = y[KARMA_V];
    /* The reaction's product with 1/tau_e and the diffusion's sum make one
     * FMA, where -U + F + idiff were two adds: the step costs what it did.
     * With tau_e = 1 every operation rounds as before (x 1 is exact). */
    real dU = (R(karma_excitation)(U, v, p) - U) * p[KARMA_RATE_U] + idiff + istim;
    real dv = p[KARMA_RATE_V] * ((U > p[KARMA_UV] ? (real)1 : (real)0) - v);
    y[KARMA_U] = R(forward_euler)(U, dU, dt);
    y[KARMA_V] = R(forward_euler)(v, dv, dt);
}
