// The plain layout: state row-major (x fastest), one thread per cell, every
// neighbour read from global memory (through L1/L2). The reference kernel the
// others are checked and timed against.
#include "dispatch.cuh"

// Second difference along one axis (memory stride s) from global memory.
template <class T, int ORDER>
__device__ __forceinline__ T global_axis(const T *Vc, int s, T v0, unsigned f)
{
    T m1 = f & 1 ? Vc[-s] : v0, p1 = f & 2 ? Vc[s] : v0, m2 = v0, p2 = v0;
    if (ORDER == 4) {
        m2 = f & 4 ? Vc[-2 * s] : v0;
        p2 = f & 8 ? Vc[2 * s] : v0;
    }
    return axis_term<T, ORDER>(v0, m1, p1, m2, p2, f);
}

// Offsets inside a plane and between neighbouring planes are 32-bit (the
// backend refuses planes of 2^30 cells or more); only the cell's own index is
// 64-bit, which keeps the address arithmetic short.
template <class M, class T, int ORDER, bool MASKED, bool FOLD>
__global__ void __launch_bounds__(256) k_naive(const step_args<M, T> a)
{
    constexpr int NS = M::nstate, VI = M::vindex;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const int k = blockIdx.z;
    if (i >= a.n[0] || j >= a.n[1]) return;
    const int sy = a.n[0], sz = a.n[0] * a.n[1];
    const size_t c = (size_t)k * sz + (j * sy + i);
    const T *Vc = a.in[VI] + c;
    // The cell's own state and stimulus first: their loads then overlap the
    // neighbours' instead of waiting behind the boundary logic (more bytes in
    // flight per thread; the kernel is bound by memory latency, docs/gpu.md).
    T y[NS], p[M::nparam];
#pragma unroll
    for (int v = 0; v < NS; v++) y[v] = a.in[v][c];
    const T stim = a.istim ? a.istim[c] : (T)0;
    const unsigned fl = MASKED ? a.flags[c] : full_box_flags<ORDER>(i, j, k, a.n);
    if (MASKED && !(fl & FLAG_SELF)) { a.out[VI][c] = y[VI]; return; }
    const T v0 = y[VI];
    T diff;
    if ((fl & 0xFFFu) == 0xFFFu) {
        diff = interior_diffusion<T, ORDER>(Vc, sy, sz, a.coef, a.n);
    } else {
        diff = a.coef[0] * global_axis<T, ORDER>(Vc, 1, v0, fl);
        if (a.n[1] > 1) diff += a.coef[1] * global_axis<T, ORDER>(Vc, sy, v0, fl >> 4);
        if (a.n[2] > 1) diff += a.coef[2] * global_axis<T, ORDER>(Vc, sz, v0, fl >> 8);
    }
    model_params<M, T, FOLD>(a, p);
    M::step(y, diff, stim, a.dt, p);
    check_finite<NS>(y, c, a.step0 + 1, a.bad);
#pragma unroll
    for (int v = 0; v < NS; v++) a.out[v][c] = y[v];
}

struct naive_launch {
    static constexpr bool folds = true;
    template <class M, class T, int ORDER, bool MASKED, bool FOLD>
    static void run(const launch_ctx &c)
    {
        dim3 block(c.bx, c.by), grid((c.n[0] + c.bx - 1) / c.bx, (c.n[1] + c.by - 1) / c.by, c.n[2]);
        k_naive<M, T, ORDER, MASKED, FOLD><<<grid, block, 0, c.stream>>>(make_args<M, T>(c));
    }
};

void launch_naive(const launch_ctx &c) { dispatch<naive_launch>(c); }
