// One checked CUDA call: true on success, else the simulation fails with the
// call's name and CUDA's message (sim_fail; the shell raises it as a Lua
// error). Used by the CUDA backend and by the features' GPU halves.
#ifndef CARDIAC_CUDA_CHECK_H
#define CARDIAC_CUDA_CHECK_H
#include <cuda_runtime.h>

struct sim;
bool cuda_ok(sim *s, cudaError_t e, const char *what);
#define CU(s, call) cuda_ok((s), (call), #call)

#endif
