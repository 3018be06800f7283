// Pseudo-ECG on the GPU (core/measure/ecg.h): one thread per row-major cell of the
// rank's stored part computes its owned tissue cell's contribution to every
// electrode with the shared per-cell term; warps and then blocks sum them,
// and one atomic add per block and electrode accumulates the total.
#include "launch.h"
#include "store_index.cuh"

template <class T>
__global__ void k_ecg(store_map m, const T *v, const uint8_t *mask, ecg_args a, double *acc)
{
    __shared__ double part[32][ECG_MAX_ELECTRODES];
    const size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t n = (size_t)a.n[0] * a.n[1] * a.n[2];
    double mine[ECG_MAX_ELECTRODES];
    for (int e = 0; e < a.ne; e++) mine[e] = 0;
    if (c < n && mask[c]) {
        const int p[3] = {(int)(c % a.n[0]), (int)(c / a.n[0] % a.n[1]), (int)(c / ((size_t)a.n[0] * a.n[1]))};
        bool owned = true;
        for (int d = 0; d < 3; d++) owned = owned && p[d] >= a.own_lo[d] && p[d] < a.own_hi[d];
        if (owned) {
            const size_t stride[3] = {1, (size_t)a.n[0], (size_t)a.n[0] * a.n[1]};
            const double vc = (double)v[stored_index(m, c)];
            double f[3] = {0, 0, 0}, x[3] = {0, 0, 0};
            for (int d = 0; d < a.dim; d++) {
                const int tm = p[d] > 0 && mask[c - stride[d]], tp = p[d] + 1 < a.n[d] && mask[c + stride[d]];
                const double vm = tm ? (double)v[stored_index(m, c - stride[d])] : 0;
                const double vp = tp ? (double)v[stored_index(m, c + stride[d])] : 0;
                f[d] = a.D[d] * ecg_gradient(vm, vc, vp, tm, tp, a.h[d]);
                x[d] = (p[d] + a.offset[d] + 0.5) * a.h[d];
            }
            ecg_add_cell(f, x, a.vol, a.el, a.ne, mine);
        }
    }
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int e = 0; e < a.ne; e++) {
        double s = mine[e];
        for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
        if (lane == 0) part[warp][e] = s;
    }
    __syncthreads();
    if (threadIdx.x < a.ne) {
        double s = 0;
        for (int w = 0; w < (int)(blockDim.x / 32); w++) s += part[w][threadIdx.x];
        atomicAdd(&acc[threadIdx.x], s);
    }
}

void ecg_cells(const store_map &m, int fp64, const void *v, const uint8_t *mask, const ecg_args &a, double *acc,
               cudaStream_t st)
{
    const size_t n = (size_t)a.n[0] * a.n[1] * a.n[2];
    const unsigned blocks = (unsigned)((n + 255) / 256);
    cudaMemsetAsync(acc, 0, a.ne * sizeof(double), st);
    if (fp64) k_ecg<<<blocks, 256, 0, st>>>(m, (const double *)v, mask, a, acc);
    else k_ecg<<<blocks, 256, 0, st>>>(m, (const float *)v, mask, a, acc);
}
