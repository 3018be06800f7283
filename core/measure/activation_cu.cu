// Activation maps on the GPU (the GPU half of core/measure/activation.c): a
// tracker's arrays in GPU memory, one value per stored value of the state
// (state_view.nstored, in the backend's storage order, cuda/store_index.cuh), and one thread per
// stored value applying the shared per-cell rule of activation.h to V there.
// A sample thus reads V and the arrays at consecutive addresses, with no
// index arithmetic: blockDS's map from a row-major cell to its storage
// costs 64-bit divisions, and with the arrays row-major over the heart's box
// (24.3 M cells, 6.8 M stored) a sample every step took 0.24 ms of a 1.16 ms
// ORd step (docs/gpu-notebook.md, item 29). Stored values that are no
// tissue cell (a tower's x-halo copies, the rest of a stored block) are
// sampled too and never read; reading a map gathers it to row-major, cells of
// blocks not stored reading as nothing seen.
#include <cmath>
#include <cstring>
#include "cuda_check.h"
#include "launch.h"
#include "sim.h"
#include "state_view.h"
#include "store_index.cuh"

static unsigned blocks_for(size_t n) { return (unsigned)((n + 255) / 256); }

// Starts the stored values [0, n), or (ranged) those of row-major cells [c0, n).
// ST: elements of v from one stored value to the next (2 for a half state,
// every other half: half_pair_first, cuda/launch.h).
template <class T, int ST>
__global__ void k_track_start(store_map m, const T *v, track_arrays a, size_t c0, size_t n, bool ranged)
{
    size_t c = c0 + blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= n) return;
    const size_t q = ranged ? stored_index(m, c) : c;
    if (q != (size_t)-1) track_start(a, q, (float)v[q * ST]);
}

template <class T, int ST>
__global__ void k_track(const T *v, track_arrays a, size_t n, float tp, float t, float thr, float frac)
{
    size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q < n) track_cell(a, q, (float)v[q * ST], tp, t, thr, frac);
}

// Map `field` (TRACK_*) of row-major cells [0, n) into dst.
__global__ void k_track_gather(store_map m, track_arrays a, int field, size_t n, float *dst)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= n) return;
    const size_t q = stored_index(m, c);
    if (field == TRACK_COUNT) dst[c] = q == (size_t)-1 ? 0.0f : (float)a.count[q];
    else dst[c] = q == (size_t)-1 ? NAN : a.time[field][q];
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
    const store_map &m = *(const store_map *)v->store;
    const size_t n = v->nstored;
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
    if (c1 <= c0) return 0;
    // all of the rank's cells: every stored value, whatever cell it holds
    const bool ranged = c0 > 0 || c1 < v->ncells;
    const size_t from = ranged ? c0 : 0, to = ranged ? c1 : n;
    cudaStream_t st = (cudaStream_t)v->stream;
    const unsigned nb = blocks_for(to - from);
    by_kind(v->fp64[t->var], [&](auto *type, auto stride) {
        using T = elem<decltype(type)>;
        k_track_start<T, stride><<<nb, 256, 0, st>>>(m, (const T *)v->var[t->var], a, from, to, ranged);
    });
    return CU(s, cudaGetLastError()) ? 0 : -1;
}

extern "C" void track_sample_cu(sim *s, const state_view *v, tracker *t, float tp, float tnow)
{
    const size_t n = v->nstored;
    cudaStream_t st = (cudaStream_t)v->stream;
    const float thr = t->threshold, frac = t->fraction;
    by_kind(v->fp64[t->var], [&](auto *type, auto stride) {
        using T = elem<decltype(type)>;
        k_track<T, stride><<<blocks_for(n), 256, 0, st>>>((const T *)v->var[t->var], t->a, n, tp, tnow, thr, frac);
    });
    CU(s, cudaGetLastError());
}

extern "C" void track_read_cu(sim *s, const state_view *v, tracker *t, int field, float *dst)
{
    const size_t n = v->ncells;
    cudaStream_t st = (cudaStream_t)v->stream;
    float *d = nullptr;
    if (!CU(s, cudaMallocAsync(&d, n * sizeof(float), st))) return;
    k_track_gather<<<blocks_for(n), 256, 0, st>>>(*(const store_map *)v->store, t->a, field, n, d);
    CU(s, cudaGetLastError());
    CU(s, cudaMemcpyAsync(dst, d, n * sizeof(float), cudaMemcpyDeviceToHost, st));
    CU(s, cudaFreeAsync(d, st));
    CU(s, cudaStreamSynchronize(st));
}
