// Activation trackers on the GPU: one thread per row-major cell applies the
// shared per-cell rule of core/measure/activation.h to V read where the layout
// stores it. Cells of blockDS blocks that are not stored hold no tissue and
// keep their starting state.
#include "launch.h"
#include "store_index.cuh"

static unsigned blocks_for(size_t n) { return (unsigned)((n + 255) / 256); }

template <class T>
__global__ void k_track_start(store_map m, const T *v, track_arrays a, size_t n, float rest)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
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

static size_t cells_of(const store_map &m) { return (size_t)m.n[0] * m.n[1] * m.n[2]; }

void track_start_cells(const store_map &m, int fp64, const void *v, const track_arrays &a, cudaStream_t st)
{
    const size_t n = cells_of(m);
    // cells not stored are never sampled: their starting V is irrelevant
    if (fp64) k_track_start<<<blocks_for(n), 256, 0, st>>>(m, (const double *)v, a, n, 0.0f);
    else k_track_start<<<blocks_for(n), 256, 0, st>>>(m, (const float *)v, a, n, 0.0f);
}

void track_cells(const store_map &m, int fp64, const void *v, const track_arrays &a, float tp, float t, float thr,
                 float frac, cudaStream_t st)
{
    const size_t n = cells_of(m);
    if (fp64) k_track<<<blocks_for(n), 256, 0, st>>>(m, (const double *)v, a, n, tp, t, thr, frac);
    else k_track<<<blocks_for(n), 256, 0, st>>>(m, (const float *)v, a, n, tp, t, thr, frac);
}
