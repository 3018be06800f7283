/* Karma two-variable model, single source for CPU and GPU.
 *
 * Karma A., Spiral breakup in model equations of action potential propagation
 * in cardiac tissue, Phys. Rev. Lett. 71:1103 (1993); written as in the thesis
 * (Vasconcellos 2019, eqs. 2.11-2.12) with the E^2/2 excitation term of
 * Karma's paper (the thesis prints U/2, which makes rest unstable; see
 * docs/models.md):
 *   dU/dt = -U + (1 - tanh(U - uh)) U^2/2 [gamma - (v/vstar)^xm] + I
 *   dv/dt = eps [Theta(U - uv) - v]
 * U and v are dimensionless; the time unit is taken as 1 ms (thesis: dt = 0.05 ms). */
#ifndef CARDIAC_MODEL_KARMA_H
#define CARDIAC_MODEL_KARMA_H
#include "../integrators.h"

enum { KARMA_U, KARMA_V, KARMA_NSTATE };
enum { KARMA_GAMMA, KARMA_VSTAR, KARMA_XM, KARMA_EPS, KARMA_UH, KARMA_UV, KARMA_NPARAM };

/* x^m, by repeated squaring when m is a small whole number (the usual case,
 * and much cheaper than powf in the inner loop). */
CARDIAC_HD float karma_pow(float x, float m)
{
    int n = (int)m;
    if ((float)n != m || n < 0 || n > 64) return powf(x, m);
    float r = 1.0f;
    for (; n; n >>= 1, x *= x)
        if (n & 1) r *= x;
    return r;
}

/* Excitation source term (everything but the -U decay and the applied current). */
CARDIAC_HD float karma_excitation(float U, float v, const float *p)
{
    /* 1 - tanh(x) = 2 / (1 + e^{2x}): one expf instead of tanhf */
    return (1.0f / (1.0f + expf(2.0f * (U - p[KARMA_UH])))) * U * U
         * (p[KARMA_GAMMA] - karma_pow(v / p[KARMA_VSTAR], p[KARMA_XM]));
}

/* One step of one cell: idiff is the diffusion term, istim the stimulus (both dU/dt). */
CARDIAC_HD void karma_step(float *y, float idiff, float istim, float dt, const float *p)
{
    float U = y[KARMA_U], v = y[KARMA_V];
    float dU = -U + karma_excitation(U, v, p) + idiff + istim;
    float dv = p[KARMA_EPS] * ((U > p[KARMA_UV] ? 1.0f : 0.0f) - v);
    y[KARMA_U] = forward_euler(U, dU, dt);
    y[KARMA_V] = forward_euler(v, dv, dt);
}

#endif
