// The dyad stage of multiscale cell models on the GPU (the GPU half of
// core/multiscale/multiscale.c; its C entry points are in multiscale.h):
// every dyad's state in GPU memory for the whole run, and one time step of
// every dyad of every owned tissue cell as kernels on the compute stream
// (dyads_cu.cu): the cells' shared coefficients, the reaction step of each
// dyad, diffusion between the cell's dyads, and the cells' means (in fp32
// the last three in one kernel, a block per cell). The equations are
// core/multiscale/dyads.h, the same functions as the CPU's stage, and the random words
// the same keys (core/multiscale/dyad_rng.h), so both backends draw the same channel
// counts from the same probabilities.
#ifndef CARDIAC_DYADS_CU_H
#define CARDIAC_DYADS_CU_H
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

struct sim;
struct gpu_dyads;

// Device bytes the dyad stage of s needs for ncells cells (0 for models without dyads).
double gpu_dyads_bytes(const sim *s, size_t ncells);
// The dyads of s->ms's cells (core/multiscale/multiscale.c made the host-side lists),
// at the resting state, filled on stream st; nullptr with err.
gpu_dyads *gpu_dyads_create(sim *s, cudaStream_t st, char *err, size_t errlen);
void gpu_dyads_free(gpu_dyads *g);
// The simulation's own parameters (cells without a set of their own): uploaded on st when they changed.
void gpu_dyads_params(gpu_dyads *g, const double *p, int np, cudaStream_t st);
// The RyR clamp of every cell (ncells bytes, DYAD_RYR_*), uploaded on st.
void gpu_dyads_clamps(gpu_dyads *g, const unsigned char *clamp, cudaStream_t st);

struct dyad_launch {
    void *const *state;         // the cell-state arrays, row-major over the rank's cells (naive layout)
    const uint8_t *plabel;      // parameter set per cell, or null
    const void *ptable;         // the sets, MODEL_MAX_PARAM apart, in the state's precision
    double dt;
    long long step;             // steps taken before this one (the random numbers' counter)
    cudaStream_t stream;
};
// The dyads' state to (to_host) or from host arrays var[MS_NVAR] and ryr
// (ncells x n each, cell-major, the state's precision; core/multiscale/multiscale.h),
// on stream st; waits.
void gpu_dyads_copy(gpu_dyads *g, void *const *var, uint32_t *ryr, int to_host, cudaStream_t st);
// Queues one step of every dyad; writes the means into the cell state.
void gpu_dyads_step(gpu_dyads *g, const dyad_launch &a);

#endif
