/* 16-bit fractions of [0, 1]: a gate stored as k / 65535, k = 0 .. 65535.
 * Precision "fp32g" stores some of a model's gates so (model_def.frac_gates),
 * the others of its gates in IEEE half (half_round.h). Half's step is 2^-11
 * of a value's binade, so near 1 it is 2^-11, and a gate relaxing towards 1
 * with time constant tau stops where a step's change dt/tau (1 - x) falls
 * below half a step: 2^-12 tau/dt short of its target (0.14 for tau = 29 ms at
 * dt = 0.05 ms). A fraction's step is 2^-16 everywhere, so such a gate stops
 * 32 times closer (docs/numerics.md, "Gates in 16 bits").
 *
 * One codec for both backends: the GPU stores k (cuda/device_common.cuh), the
 * CPU rounds its float state to the value k stands for after every step, and
 * both compute k and k's value by the same two float operations, so that they
 * hold the same values. */
#ifndef CARDIAC_FRACTION16_H
#define CARDIAC_FRACTION16_H
#include "qualifiers.h"

/* The code of x: the nearest k / 65535, ties to even; x is clamped to [0, 1]
 * (a NaN codes as 0: the kernels test the state for finite values before
 * they store it). */
CARDIAC_HD unsigned fraction16_code(float x)
{
    x = fminf(fmaxf(x, 0.0f), 1.0f);
    return (unsigned)rintf(x * 65535.0f);
}

/* The value code k stands for. */
CARDIAC_HD float fraction16_value(unsigned k) { return (float)k * (1.0f / 65535.0f); }

/* x rounded to the nearest fraction; a NaN stays NaN (the CPU's test for
 * finite values follows the rounding). */
CARDIAC_HD float fraction16_round(float x) { return x != x ? x : fraction16_value(fraction16_code(x)); }

/* The states of y (n of them) whose bit is set in mask, rounded to fractions. */
CARDIAC_HD void round_states_to_fraction(float *y, int n, unsigned long long mask)
{
    for (int v = 0; v < n; v++)
        if (mask >> v & 1) y[v] = fraction16_round(y[v]);
}

#endif
