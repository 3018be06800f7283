/* The phase of a cell and the winding number of the phase around a
 * plaquette (core/singularity.h), written once for the CPU (gcc) and the GPU
 * (nvcc, cuda/singularity_kernels.cu), so that both find the same
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
 * when a corner has no tissue (NaN). */
CARDIAC_HD int phase_winding(const float th[4])
{
    double s = 0;
    for (int q = 0; q < 4; q++) {
        if (th[q] != th[q]) return 0;
        s += phase_wrap((double)th[(q + 1) % 4] - th[q]);
    }
    return (int)lround(s / (2 * PHASE_PI));
}

#endif
