// Activation maps on the GPU (the GPU half of core/measure/activation.c): a
// tracker's arrays in GPU memory, row-major over the rank's cells, and one
// thread per cell applying the shared per-cell rule of activation.h to V
// read where the backend's layout stores it. Cells of blockDS blocks that are
// not stored hold no tissue and keep their starting state.
#include <cstring>
#include <vector>
#include "cuda_check.h"
#include "launch.h"
#include "sim.h"
#include "state_view.h"
#include "store_index.cuh"

static unsigned blocks_for(size_t n) { return (unsigned)((n + 255) / 256); }

template <class T>
__global__ void k_track_start(store_map m, const T *v, track_arrays a, size_t c0, size_t n, float rest)
{
    size_t c = c0 + blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= n) return;
    const size_t q = stored_index(m, c);
    track_start(a, c, q == (size_t)-1 ? rest : (float)v[q]);
}

template <class T>
__global__ void k_track(store_map m, const T *v, track_arrays a, size_t n, float tp, float t, float thr, float frac)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= n) return;
    const size_t q = stored_index(m, c);
    if (q != (size_t)-1) track_cell(a, c, (float)v[q], tp, t, thr, frac);
}

extern "C" void track_release_cu(tracker *t)
{
    track_arrays &a = t->a;
    cudaFree(a.prev); cudaFree(a.vmin); cudaFree(a.peak); cudaFree(a.count); cudaFree(a.in_ap);
    for (int f = 0; f < TRACK_COUNT; f++) cudaFree(a.time[f]);
    memset(&a, 0, sizeof a);
    t->device = 0;
}

extern "C" int track_begin_cu(sim *s, const state_view *v, tracker *t, size_t c0, size_t c1)
{
    const size_t n = v->ncells;
    track_arrays &a = t->a;
    if (!a.prev) {
        t->device = 1;
        bool good = cudaMalloc(&a.prev, n * sizeof(float)) == cudaSuccess &&
                    cudaMalloc(&a.vmin, n * sizeof(float)) == cudaSuccess &&
                    cudaMalloc(&a.peak, n * sizeof(float)) == cudaSuccess &&
                    cudaMalloc(&a.count, n * sizeof(int)) == cudaSuccess && cudaMalloc(&a.in_ap, n) == cudaSuccess;
        for (int f = 0; f < TRACK_COUNT && good; f++) good = cudaMalloc(&a.time[f], n * sizeof(float)) == cudaSuccess;
        if (!good) {
            cudaGetLastError();
            track_release_cu(t);
            char b[32];
            format_bytes(n * 38.0, b, sizeof b);
            sim_fail(s, "out of GPU memory for the activation maps (%s)", b);
            return -1;
        }
    }
    // cells not stored are never sampled: their starting V is irrelevant
    const store_map &m = *(const store_map *)v->store;
    cudaStream_t st = (cudaStream_t)v->stream;
    if (c1 <= c0) return 0;
    if (v->fp64[t->var]) k_track_start<<<blocks_for(c1 - c0), 256, 0, st>>>(m, (const double *)v->var[t->var], a, c0, c1, 0.0f);
    else k_track_start<<<blocks_for(c1 - c0), 256, 0, st>>>(m, (const float *)v->var[t->var], a, c0, c1, 0.0f);
    return CU(s, cudaGetLastError()) ? 0 : -1;
}

extern "C" void track_sample_cu(sim *s, const state_view *v, tracker *t, float tp, float tnow)
{
    const size_t n = v->ncells;
    const store_map &m = *(const store_map *)v->store;
    cudaStream_t st = (cudaStream_t)v->stream;
    const float thr = t->threshold, frac = t->fraction;
    if (v->fp64[t->var]) k_track<<<blocks_for(n), 256, 0, st>>>(m, (const double *)v->var[t->var], t->a, n, tp, tnow, thr, frac);
    else k_track<<<blocks_for(n), 256, 0, st>>>(m, (const float *)v->var[t->var], t->a, n, tp, tnow, thr, frac);
    CU(s, cudaGetLastError());
}

extern "C" void track_read_cu(sim *s, const state_view *v, tracker *t, int field, float *dst)
{
    const size_t n = v->ncells;
    cudaStream_t st = (cudaStream_t)v->stream;
    if (field != TRACK_COUNT) {
        CU(s, cudaMemcpyAsync(dst, t->a.time[field], n * sizeof(float), cudaMemcpyDeviceToHost, st));
        CU(s, cudaStreamSynchronize(st));
        return;
    }
    std::vector<int> count(n);
    CU(s, cudaMemcpyAsync(count.data(), t->a.count, n * sizeof(int), cudaMemcpyDeviceToHost, st));
    CU(s, cudaStreamSynchronize(st));
    for (size_t c = 0; c < n; c++) dst[c] = (float)count[c];
}
