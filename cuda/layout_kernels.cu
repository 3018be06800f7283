// Moving fields between the layouts and the host's row-major float arrays:
// export (output frames, get_field), import (set_field), gather (probes,
// samples), fill (the resting state); and the stimulus current scatter.
#include "launch.h"
#include "tower.cuh"

// Position of row-major cell c in a state array of layout m.
__device__ __forceinline__ size_t stored_index(const store_map &m, size_t c)
{
    if (m.layout != LAYOUT_TOWER) return c;
    const size_t plane = (size_t)m.n[0] * m.n[1];
    const int k = (int)(c / plane), j = (int)(c % plane / m.n[0]), i = (int)(c % m.n[0]);
    return tower_index(m.tower, i, j, k, m.n[2]);
}

static unsigned blocks_for(size_t n) { return (unsigned)((n + 255) / 256); }

template <class T>
__global__ void k_export(store_map m, const T *src, float *dst, size_t n)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c < n) dst[c] = (float)src[stored_index(m, c)];
}

template <class T>
__global__ void k_import(store_map m, const float *src, T *dst, size_t n)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= n) return;
    if (m.layout != LAYOUT_TOWER) { dst[c] = (T)src[c]; return; }
    const size_t plane = (size_t)m.n[0] * m.n[1];
    tower_store(dst, m.tower, (int)(c % m.n[0]), (int)(c % plane / m.n[0]), (int)(c / plane), m.n[2], (T)src[c]);
}

template <class T>
__global__ void k_gather(store_map m, const T *src, const size_t *cells, size_t n, float *dst)
{
    size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    // (size_t)-1: a cell another rank owns (probes under MPI), sampled as 0
    if (q < n) dst[q] = cells[q] == (size_t)-1 ? 0.0f : (float)src[stored_index(m, cells[q])];
}

template <class T>
__global__ void k_stimulus(T *istim, const size_t *cells, size_t n, T amp, int add)
{
    size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q >= n) return;
    if (add) atomicAdd(&istim[cells[q]], amp);
    else istim[cells[q]] = (T)0;
}

template <class T>
__global__ void k_fill(T *dst, size_t n, T value)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c < n) dst[c] = value;
}

void fill_field(int fp64, void *dst, size_t n, double value, cudaStream_t st)
{
    if (fp64) k_fill<<<blocks_for(n), 256, 0, st>>>((double *)dst, n, value);
    else k_fill<<<blocks_for(n), 256, 0, st>>>((float *)dst, n, (float)value);
}

static size_t cells_of(const store_map &m) { return (size_t)m.n[0] * m.n[1] * m.n[2]; }

void export_field(const store_map &m, int fp64, const void *src, float *dst, cudaStream_t st)
{
    size_t n = cells_of(m);
    if (fp64) k_export<<<blocks_for(n), 256, 0, st>>>(m, (const double *)src, dst, n);
    else k_export<<<blocks_for(n), 256, 0, st>>>(m, (const float *)src, dst, n);
}

void import_field(const store_map &m, int fp64, const float *src, void *dst, cudaStream_t st)
{
    size_t n = cells_of(m);
    if (fp64) k_import<<<blocks_for(n), 256, 0, st>>>(m, src, (double *)dst, n);
    else k_import<<<blocks_for(n), 256, 0, st>>>(m, src, (float *)dst, n);
}

void gather_cells(const store_map &m, int fp64, const void *src, const size_t *cells, size_t n,
                  float *dst, cudaStream_t st)
{
    if (!n) return;
    if (fp64) k_gather<<<blocks_for(n), 256, 0, st>>>(m, (const double *)src, cells, n, dst);
    else k_gather<<<blocks_for(n), 256, 0, st>>>(m, (const float *)src, cells, n, dst);
}

void stimulus_scatter(int fp64, void *istim, const size_t *cells, size_t n, double amp, int add,
                      cudaStream_t st)
{
    if (!n) return;
    if (fp64) k_stimulus<<<blocks_for(n), 256, 0, st>>>((double *)istim, cells, n, amp, add);
    else k_stimulus<<<blocks_for(n), 256, 0, st>>>((float *)istim, cells, n, (float)amp, add);
}
