// Checked CUDA calls (cuda/cuda_check.h).
#include "cuda_check.h"
#include "sim.h"

bool cuda_ok(sim *s, cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return true;
    sim_fail(s, "CUDA error in %s: %s", what, cudaGetErrorString(e));
    return false;
}
