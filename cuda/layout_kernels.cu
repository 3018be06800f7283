// Moving fields between the layouts and the host's row-major float arrays:
// export (output frames, get_field), import (set_field), gather (probes,
// samples), fill (the resting state); and the stimulus current scatter.
#include "launch.h"
#include "store_index.cuh"
#include "tower.cuh"

// Position of cell c in the stimulus-current array: row-major except in
// blockDS, whose kernel reads it in storage order.
__device__ __forceinline__ size_t stimulus_index(const store_map &m, size_t c)
{
    return m.layout == LAYOUT_BLOCK ? block_store_index(&m.blocks, c) : c;
}

static unsigned blocks_for(size_t n) { return (unsigned)((n + 255) / 256); }

// D: float for output and the host's views, or T itself for checkpoints.
template <class T, class D>
__global__ void k_export(store_map m, const T *src, D *dst, size_t n, D absent)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= n) return;
    const size_t q = stored_index(m, c);
    dst[c] = q == (size_t)-1 ? absent : (D)src[q];
}

template <class T, class S>
__global__ void k_import(store_map m, const S *src, T *dst, size_t n)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= n) return;
    if (m.layout == LAYOUT_BLOCK) {
        const size_t q = stored_index(m, c);
        if (q != (size_t)-1) dst[q] = (T)src[c];
        return;
    }
    if (m.layout != LAYOUT_TOWER) { dst[c] = (T)src[c]; return; }
    const size_t plane = (size_t)m.n[0] * m.n[1];
    tower_store(dst, m.tower, (int)(c % m.n[0]), (int)(c % plane / m.n[0]), (int)(c / plane), m.n[2], (T)src[c]);
}

// Cell k of face f (halo_face: nblocks runs of blocklen cells, pitch apart).
__device__ __forceinline__ size_t face_cell(const halo_face &f, size_t k)
{
    return f.offset + k / f.blocklen * f.pitch + k % f.blocklen;
}

template <class T>
__global__ void k_face_pack(store_map m, const T *src, halo_face f, T *buf, size_t n, T absent)
{
    size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (k >= n) return;
    const size_t q = stored_index(m, face_cell(f, k));
    buf[k] = q == (size_t)-1 ? absent : src[q];
}

template <class T>
__global__ void k_face_unpack(store_map m, const T *buf, halo_face f, T *dst, size_t n)
{
    size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (k >= n) return;
    const size_t q = stored_index(m, face_cell(f, k));
    if (q != (size_t)-1) dst[q] = buf[k];
}

template <class T>
__global__ void k_gather(store_map m, const T *src, const size_t *cells, size_t n, float *dst, float absent)
{
    size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q >= n) return;
    // (size_t)-1: a cell another rank owns (probes under MPI), sampled as 0
    if (cells[q] == (size_t)-1) { dst[q] = 0.0f; return; }
    const size_t at = stored_index(m, cells[q]);
    dst[q] = at == (size_t)-1 ? absent : (float)src[at];
}

// Stimuli hold tissue cells only (core/engine/sim.c), which every layout stores.
template <class T>
__global__ void k_stimulus(store_map m, T *istim, const size_t *cells, size_t n, T amp, int add)
{
    size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q >= n) return;
    const size_t at = stimulus_index(m, cells[q]);
    if (add) atomicAdd(&istim[at], amp);
    else istim[at] = (T)0;
}

// Like k_import, for a list of cells: towers also update the x-halo copies.
template <class T>
__global__ void k_set_cells(store_map m, T *dst, const size_t *cells, size_t n, T value)
{
    size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q >= n) return;
    const size_t c = cells[q];
    if (m.layout != LAYOUT_TOWER) {
        dst[stored_index(m, c)] = value;
        return;
    }
    const size_t plane = (size_t)m.n[0] * m.n[1];
    tower_store(dst, m.tower, (int)(c % m.n[0]), (int)(c % plane / m.n[0]), (int)(c / plane), m.n[2], value);
}

void set_cells(const store_map &m, int fp64, void *dst, const size_t *cells, size_t n, double value, cudaStream_t st)
{
    if (!n) return;
    if (fp64) k_set_cells<<<blocks_for(n), 256, 0, st>>>(m, (double *)dst, cells, n, value);
    else k_set_cells<<<blocks_for(n), 256, 0, st>>>(m, (float *)dst, cells, n, (float)value);
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

void export_field(const store_map &m, int fp64, const void *src, float *dst, float absent, cudaStream_t st)
{
    size_t n = cells_of(m);
    if (fp64) k_export<<<blocks_for(n), 256, 0, st>>>(m, (const double *)src, dst, n, absent);
    else k_export<<<blocks_for(n), 256, 0, st>>>(m, (const float *)src, dst, n, absent);
}

void import_field(const store_map &m, int fp64, const float *src, void *dst, cudaStream_t st)
{
    size_t n = cells_of(m);
    if (fp64) k_import<<<blocks_for(n), 256, 0, st>>>(m, src, (double *)dst, n);
    else k_import<<<blocks_for(n), 256, 0, st>>>(m, src, (float *)dst, n);
}

void export_state(const store_map &m, int fp64, const void *src, void *dst, double absent, cudaStream_t st)
{
    size_t n = cells_of(m);
    if (fp64) k_export<<<blocks_for(n), 256, 0, st>>>(m, (const double *)src, (double *)dst, n, absent);
    else k_export<<<blocks_for(n), 256, 0, st>>>(m, (const float *)src, (float *)dst, n, (float)absent);
}

void import_state(const store_map &m, int fp64, const void *src, void *dst, cudaStream_t st)
{
    size_t n = cells_of(m);
    if (fp64) k_import<<<blocks_for(n), 256, 0, st>>>(m, (const double *)src, (double *)dst, n);
    else k_import<<<blocks_for(n), 256, 0, st>>>(m, (const float *)src, (float *)dst, n);
}

void face_pack(const store_map &m, int fp64, const void *src, const halo_face &f, void *buf, double absent,
               cudaStream_t st)
{
    const size_t n = f.blocklen * f.nblocks;
    if (!n) return;
    if (fp64) k_face_pack<<<blocks_for(n), 256, 0, st>>>(m, (const double *)src, f, (double *)buf, n, absent);
    else k_face_pack<<<blocks_for(n), 256, 0, st>>>(m, (const float *)src, f, (float *)buf, n, (float)absent);
}

void face_unpack(const store_map &m, int fp64, const void *buf, const halo_face &f, void *dst, cudaStream_t st)
{
    const size_t n = f.blocklen * f.nblocks;
    if (!n) return;
    if (fp64) k_face_unpack<<<blocks_for(n), 256, 0, st>>>(m, (const double *)buf, f, (double *)dst, n);
    else k_face_unpack<<<blocks_for(n), 256, 0, st>>>(m, (const float *)buf, f, (float *)dst, n);
}

void gather_cells(const store_map &m, int fp64, const void *src, const size_t *cells, size_t n,
                  float *dst, float absent, cudaStream_t st)
{
    if (!n) return;
    if (fp64) k_gather<<<blocks_for(n), 256, 0, st>>>(m, (const double *)src, cells, n, dst, absent);
    else k_gather<<<blocks_for(n), 256, 0, st>>>(m, (const float *)src, cells, n, dst, absent);
}

void stimulus_scatter(const store_map &m, int fp64, void *istim, const size_t *cells, size_t n, double amp, int add,
                      cudaStream_t st)
{
    if (!n) return;
    if (fp64) k_stimulus<<<blocks_for(n), 256, 0, st>>>(m, (double *)istim, cells, n, amp, add);
    else k_stimulus<<<blocks_for(n), 256, 0, st>>>(m, (float *)istim, cells, n, (float)amp, add);
}
