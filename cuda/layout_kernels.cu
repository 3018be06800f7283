// Moving fields between the layouts and the host's row-major float arrays:
// export (output frames, get_field), import (set_field), gather (probes,
// samples), fill (the resting state); and the stimulus current scatter.
#include "launch.h"
#include "store_index.cuh"
#include "tower.cuh"

// A value in element type T: half and fractions round to nearest, as the GPU's stores do.
template <class T> T as_elem(double x) { return (T)x; }
template <> __half as_elem<__half>(double x) { return __float2half_rn((float)x); }
template <> frac16 as_elem<frac16>(double x) { return frac16((float)x); }
// The host side of a checkpoint copy: the element's own type, half widened to float.
template <class T> struct host_of { using type = T; };
template <> struct host_of<__half> { using type = float; };
template <> struct host_of<frac16> { using type = float; };

// Position of cell c in the stimulus-current array: row-major except in
// blockDS, whose kernel reads it in storage order.
__device__ __forceinline__ size_t stimulus_index(const store_map &m, size_t c)
{
    return m.layout == LAYOUT_BLOCK ? block_store_index(&m.blocks, c) : c;
}

static unsigned blocks_for(size_t n) { return (unsigned)((n + 255) / 256); }

// D: float for output and the host's views, or T itself for checkpoints.
// ST: elements of src from one stored value to the next (2: half states).
template <class T, class D, int ST>
__global__ void k_export(store_map m, const T *src, D *dst, size_t n, D absent)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= n) return;
    const size_t q = stored_index(m, c);
    dst[c] = q == (size_t)-1 ? absent : (D)src[q * ST];
}

template <class T, class S, int ST>
__global__ void k_import(store_map m, const S *src, T *dst, size_t n)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c >= n) return;
    if (m.layout == LAYOUT_BLOCK) {
        const size_t q = stored_index(m, c);
        if (q != (size_t)-1) dst[q * ST] = (T)src[c];
        return;
    }
    if (m.layout != LAYOUT_TOWER) { dst[c * ST] = (T)src[c]; return; }
    if constexpr (ST == 1) {   // half states run on the naive and block layouts only
        const size_t plane = (size_t)m.n[0] * m.n[1];
        tower_store(dst, m.tower, (int)(c % m.n[0]), (int)(c % plane / m.n[0]), (int)(c / plane), m.n[2], (T)src[c]);
    }
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

template <class T, int ST>
__global__ void k_gather(store_map m, const T *src, const size_t *cells, size_t n, float *dst, float absent)
{
    size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q >= n) return;
    // (size_t)-1: a cell another rank owns (probes under MPI), sampled as 0
    if (cells[q] == (size_t)-1) { dst[q] = 0.0f; return; }
    const size_t at = stored_index(m, cells[q]);
    dst[q] = at == (size_t)-1 ? absent : (float)src[at * ST];
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
template <class T, int ST>
__global__ void k_set_cells(store_map m, T *dst, const size_t *cells, size_t n, T value)
{
    size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q >= n) return;
    const size_t c = cells[q];
    if (m.layout != LAYOUT_TOWER) {
        dst[stored_index(m, c) * ST] = value;
        return;
    }
    if constexpr (ST == 1) {
        const size_t plane = (size_t)m.n[0] * m.n[1];
        tower_store(dst, m.tower, (int)(c % m.n[0]), (int)(c % plane / m.n[0]), (int)(c / plane), m.n[2], value);
    }
}

void set_cells(const store_map &m, int kind, void *dst, const size_t *cells, size_t n, double value, cudaStream_t st)
{
    if (!n) return;
    by_kind(kind, [&](auto *t, auto stride) {
        using T = elem<decltype(t)>;
        k_set_cells<T, stride><<<blocks_for(n), 256, 0, st>>>(m, (T *)dst, cells, n, as_elem<T>(value));
    });
}

template <class T, int ST>
__global__ void k_fill(T *dst, size_t n, T value)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (c < n) dst[c * ST] = value;
}

void fill_field(int kind, void *dst, size_t n, double value, cudaStream_t st)
{
    by_kind(kind, [&](auto *t, auto stride) {
        using T = elem<decltype(t)>;
        k_fill<T, stride><<<blocks_for(n), 256, 0, st>>>((T *)dst, n, as_elem<T>(value));
    });
}

static size_t cells_of(const store_map &m) { return (size_t)m.n[0] * m.n[1] * m.n[2]; }

void export_field(const store_map &m, int kind, const void *src, float *dst, float absent, cudaStream_t st)
{
    size_t n = cells_of(m);
    by_kind(kind, [&](auto *t, auto stride) {
        using T = elem<decltype(t)>;
        k_export<T, float, stride><<<blocks_for(n), 256, 0, st>>>(m, (const T *)src, dst, n, absent);
    });
}

void import_field(const store_map &m, int kind, const float *src, void *dst, cudaStream_t st)
{
    size_t n = cells_of(m);
    by_kind(kind, [&](auto *t, auto stride) {
        using T = elem<decltype(t)>;
        k_import<T, float, stride><<<blocks_for(n), 256, 0, st>>>(m, src, (T *)dst, n);
    });
}

void export_state(const store_map &m, int kind, const void *src, void *dst, double absent, cudaStream_t st)
{
    size_t n = cells_of(m);
    by_kind(kind, [&](auto *t, auto stride) {
        using T = elem<decltype(t)>;
        using H = typename host_of<T>::type;
        k_export<T, H, stride><<<blocks_for(n), 256, 0, st>>>(m, (const T *)src, (H *)dst, n, (H)absent);
    });
}

void import_state(const store_map &m, int kind, const void *src, void *dst, cudaStream_t st)
{
    size_t n = cells_of(m);
    by_kind(kind, [&](auto *t, auto stride) {
        using T = elem<decltype(t)>;
        using H = typename host_of<T>::type;
        k_import<T, H, stride><<<blocks_for(n), 256, 0, st>>>(m, (const H *)src, (T *)dst, n);
    });
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

void gather_cells(const store_map &m, int kind, const void *src, const size_t *cells, size_t n,
                  float *dst, float absent, cudaStream_t st)
{
    if (!n) return;
    by_kind(kind, [&](auto *t, auto stride) {
        using T = elem<decltype(t)>;
        k_gather<T, stride><<<blocks_for(n), 256, 0, st>>>(m, (const T *)src, cells, n, dst, absent);
    });
}

void stimulus_scatter(const store_map &m, int fp64, void *istim, const size_t *cells, size_t n, double amp, int add,
                      cudaStream_t st)
{
    if (!n) return;
    if (fp64) k_stimulus<<<blocks_for(n), 256, 0, st>>>(m, (double *)istim, cells, n, amp, add);
    else k_stimulus<<<blocks_for(n), 256, 0, st>>>(m, (float *)istim, cells, n, (float)amp, add);
}
