/* The phase of a cell and the winding number of the phase around a
 * plaquette (core/measure/singularity.h), written once for the CPU (gcc) and the GPU
 * (nvcc, core/measure/tips_cu.cu), so that both find the same
 * singularities from the same state. Everything is in double precision from
 * float field values, as the CPU always did: fast-math flags do not touch it. */
#ifndef CARDIAC_PHASE_WINDING_H
#define CARDIAC_PHASE_WINDING_H
#include "qualifiers.h"

#define PHASE_PI 3.14159265358979323846

/* theta = atan2(b - b0, a - a0) of a cell's two field values, as a float */
CARDIAC_HD float cell_phase(float a, float b, double a0, double b0)
{
    return (float)atan2((double)b - b0, (double)a - a0);
}

/* a phase difference brought into (-pi, pi] */
CARDIAC_HD double phase_wrap(double d)
{
    while (d > PHASE_PI) d -= 2 * PHASE_PI;
    while (d <= -PHASE_PI) d += 2 * PHASE_PI;
    return d;
}

/* Winding number of the phase around the corners th[0..3] (counter-clockwise
 * seen from the positive side of the plaquette's normal): +1, -1 or 0, and 0
 * when a corner has no tissue (NaN). The differences are wrapped and summed
 * in double precision. Most plaquettes are decided in single precision
 * first: when no difference lies within 1e-3 of +-pi, both precisions wrap
 * every difference the same way, the sums differ by rounding only (about
 * 1e-6, against the 2 pi between windings) and the winding is the same. */
CARDIAC_HD int phase_winding(const float th[4])
{
    float s32 = 0;
    int near_pi = 0;
    for (int q = 0; q < 4; q++) {
        if (th[q] != th[q]) return 0;
        float d = th[(q + 1) % 4] - th[q];         /* in (-2 pi, 2 pi): one wrap at most */
        if (d > (float)PHASE_PI) d -= (float)(2 * PHASE_PI);
        else if (d <= (float)-PHASE_PI) d += (float)(2 * PHASE_PI);
        near_pi |= fabsf(d) > (float)PHASE_PI - 1e-3f;
        s32 += d;
    }
    if (!near_pi) return s32 > (float)PHASE_PI ? 1 : s32 < (float)-PHASE_PI ? -1 : 0;
    double s = 0;
    for (int q = 0; q < 4; q++) s += phase_wrap((double)th[(q + 1) % 4] - th[q]);
    return (int)lround(s / (2 * PHASE_PI));
}

#endif
