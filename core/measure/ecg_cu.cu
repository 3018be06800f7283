// Pseudo-ECG on the GPU (the GPU half of core/measure/ecg.c): one thread per
// row-major cell of the rank's stored part computes its owned tissue cell's
// contribution to every electrode with the shared per-cell term; warps and
// then blocks sum them, and one atomic add per block and electrode
// accumulates the total in the lead set's device sums.
#include <cstring>
#include "cuda_check.h"
#include "launch.h"
#include "sim.h"
#include "state_view.h"
#include "store_index.cuh"

namespace {
// The rank's stored part: n its size, own_lo/hi its owned cells, offset its
// first cell's global index per axis.
struct ecg_args {
    int ne, dim, n[3], own_lo[3], own_hi[3], offset[3];
    double el[3 * ECG_MAX_ELECTRODES], h[3], D[3], vol;
};
}

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

extern "C" void ecg_sum_cu(sim *s, const state_view *v, ecg_leads *l, double *acc)
{
    const grid *g = &s->lg;
    cudaStream_t st = (cudaStream_t)v->stream;
    if (!l->dev_acc && !CU(s, cudaMalloc(&l->dev_acc, ECG_MAX_ELECTRODES * sizeof(double)))) return;
    ecg_args a = {};
    a.ne = l->ne;
    a.dim = g->dim;
    a.vol = g->h[0] * (g->dim > 1 ? g->h[1] : 1) * (g->dim > 2 ? g->h[2] : 1);
    for (int d = 0; d < 3; d++) {
        a.n[d] = g->n[d];
        a.own_lo[d] = s->own_lo[d];
        a.own_hi[d] = s->own_hi[d];
        a.offset[d] = s->dc.slo[d];
        a.h[d] = g->h[d];
        a.D[d] = s->D[d];
    }
    memcpy(a.el, l->el, 3 * l->ne * sizeof(double));
    const store_map &m = *(const store_map *)v->store;
    const int vi = s->m.def->vindex;
    const size_t n = v->ncells;
    const unsigned blocks = (unsigned)((n + 255) / 256);
    CU(s, cudaMemsetAsync(l->dev_acc, 0, a.ne * sizeof(double), st));
    if (v->fp64[vi]) k_ecg<<<blocks, 256, 0, st>>>(m, (const double *)v->var[vi], v->mask, a, l->dev_acc);
    else k_ecg<<<blocks, 256, 0, st>>>(m, (const float *)v->var[vi], v->mask, a, l->dev_acc);
    CU(s, cudaGetLastError());
    CU(s, cudaMemcpyAsync(acc, l->dev_acc, a.ne * sizeof(double), cudaMemcpyDeviceToHost, st));
    CU(s, cudaStreamSynchronize(st));
}

extern "C" void ecg_release_cu(ecg_leads *l)
{
    cudaFree(l->dev_acc);
    l->dev_acc = nullptr;
}
