// Compile check for the single-source model headers under nvcc: every model's
// CARDIAC_HD step function must build as device code for sm_90, so the CUDA
// backend (next issue) can call exactly the functions the CPU backend runs.
// This translation unit is built, never launched; it has no runtime role.
#include "models/aliev_panfilov.h"
#include "models/karma.h"

__global__ void cardiac_header_check(float *y, const float *p, int n, float dt)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n) return;
    float k[KARMA_NSTATE] = {y[c], y[n + c]};
    karma_step(k, 0.0f, 0.0f, dt, p);
    float a[AP_NSTATE] = {k[0], k[1]};
    aliev_panfilov_step(a, 0.0f, 0.0f, dt, p + KARMA_NPARAM);
    y[c] = a[0];
    y[n + c] = a[1];
}
