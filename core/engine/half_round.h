/* Rounding to IEEE half precision (binary16: 11 significant bits, normal from
 * 2^-14, subnormal steps of 2^-24, largest 65504), to nearest with ties to
 * even, as the GPU's __float2half_rn stores a value. Precision "fp32h" keeps
 * some gates of a model in half on the GPU (model_def.half_gates); the CPU
 * computes in float and rounds those gates after every step with this, so
 * that both backends hold the same values. */
#ifndef CARDIAC_HALF_ROUND_H
#define CARDIAC_HALF_ROUND_H
#include <math.h>

/* x rounded to the nearest half-precision value (NaN stays NaN; 65520 and
 * above, the overflow threshold of the rounding, become infinite). */
static inline float half_round(float x)
{
    const float a = fabsf(x);
    if (!(a < 65520.0f)) return a != a ? x : copysignf(INFINITY, x);
    if (a < 0x1p-14f) return copysignf(rintf(a * 0x1p24f) * 0x1p-24f, x);   /* subnormal: steps of 2^-24 */
    int e;
    frexpf(a, &e);                                   /* a in [2^(e-1), 2^e) */
    const float ulp = ldexpf(1.0f, e - 11);          /* 10 fraction bits below the leading one */
    return copysignf(rintf(a / ulp) * ulp, x);       /* rintf: to nearest, ties to even */
}

/* The states of y (n of them) whose bit is set in mask, rounded to half. */
static inline void round_states_to_half(float *y, int n, unsigned long long mask)
{
    for (int v = 0; v < n; v++)
        if (mask >> v & 1) y[v] = half_round(y[v]);
}

#endif
