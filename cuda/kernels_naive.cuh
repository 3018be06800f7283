// The plain layout: state row-major (x fastest), every neighbour read from
// global memory (through L1/L2). The reference kernel the others are checked
// and timed against. Each thread updates ZC cells stacked along the view's z
// axis: all their loads are issued before any store, so a thread has ZC times
// the bytes in flight (the fp32 kernel is bound by memory latency, not by
// bytes: docs/gpu.md), and the stacked cells share their z neighbours.
#ifndef CARDIAC_CUDA_KERNELS_NAIVE_CUH
#define CARDIAC_CUDA_KERNELS_NAIVE_CUH
#include "dispatch.cuh"

// An axis's share of the diffusion term (axis_part, device_common.cuh), along
// memory stride s, from global memory.
template <class T, int ORDER>
__device__ __forceinline__ T global_axis(const T *Vc, int s, T v0, unsigned f)
{
    T m1 = f & 1 ? Vc[-s] : v0, p1 = f & 2 ? Vc[s] : v0, m2 = v0, p2 = v0;
    if (ORDER == 4) {
        m2 = f & 4 ? Vc[-2 * s] : v0;
        p2 = f & 8 ? Vc[2 * s] : v0;
    }
    return axis_part<T, ORDER>(v0, m1, p1, m2, p2, f);
}

// What one cell needs for its update, gathered with loads only; its state
// goes to y (registers, or shared memory).
template <class M, class T>
struct naive_cell {
    T diff, stim;
    bool tissue;
    unsigned char set;   // parameter set (general variant with regional parameters)
};

// Loads cell (i, j, k) at row-major index c: its state and stimulus first
// (their loads then overlap the neighbours' instead of waiting behind the
// boundary logic), then the diffusion term. Cells outside the tissue load V
// only (the kernel copies it) when the model has many states.
template <class M, class T, int ORDER, bool MASKED, bool LABELS, bool MC>
__device__ __forceinline__ void naive_gather(const step_args<M, T> &a, int i, int j, int k, size_t c, T *y,
                                             naive_cell<M, T> &q)
{
    constexpr int NS = M::nstate, VI = M::vindex;
    const int sy = a.n[0], sz = a.n[0] * a.n[1];
    const T *Vc = a.in[VI] + c;
    // Models with many states skip the state of cells outside the tissue,
    // which the step leaves alone: in a heart (27% of its box is tissue) most
    // of the bytes. For small models the flag load would only delay the state
    // loads behind it.
    constexpr bool gate = MASKED && NS > 4;
    unsigned fl = 0;
    if (gate) {
        fl = a.flags[c];
        if (!(fl & FLAG_SELF)) {
            q.tissue = false;
            y[VI] = Vc[0];
            return;
        }
    }
#pragma unroll
    for (int v = 0; v < NS; v++) y[v] = load_state<M>(a.in, v, c);
    q.stim = a.istim ? a.istim[c] : (T)0;
    // the cell's parameter set, loaded with its state: read at the step, its
    // latency (and then its row's) came on top of the state's (docs/gpu-notebook.md, item 9)
    q.set = LABELS ? a.plabel[c] : 0;
    if (!gate) fl = MASKED ? a.flags[c] : full_box_flags<ORDER>(i, j, k, a.n);
    q.tissue = !MASKED || (fl & FLAG_SELF);
    const T v0 = y[VI];
    // an ensemble whose members' D differ (MC): the layer's coefficients;
    // otherwise the launch's, as kernel parameters (a per-cell choice between
    // the two cost the plain kernel 25%: docs/gpu-notebook.md, item 24)
    const T *coef = a.coef;
    T mc[4];
    if constexpr (MC) {
        layer_coef(a, k, mc);
        coef = mc;
    }
    if (MASKED && a.phi) {   // phase-field meshes (second order, always masked)
        const int st[3] = {1, sy, sz};
        q.diff = phase_diffusion<T>(a.in[VI], a.phi, c, v0, fl, coef, a.n,
                                    [&](int ax, int off) { return c + (ptrdiff_t)off * st[ax]; });
        return;
    }
    if ((fl & 0xFFFu) == 0xFFFu) {
        q.diff = interior_diffusion<T, ORDER>(Vc, sy, sz, coef, a.n);
    } else {
        q.diff = first_term(coef[0], global_axis<T, ORDER>(Vc, 1, v0, fl));
        if (a.n[1] > 1) q.diff = next_term(q.diff, coef[1], global_axis<T, ORDER>(Vc, sy, v0, fl >> 4));
        if (a.n[2] > 1) q.diff = next_term(q.diff, coef[2], global_axis<T, ORDER>(Vc, sz, v0, fl >> 8));
        q.diff = centre_term<T, ORDER>(q.diff, coef, v0);
    }
}

// Launch bounds: 128 threads and five blocks an SM with the state in shared
// memory; else 256 threads and no minimum of blocks (0: unspecified), which
// lets ptxas hold the registers where it did before the shared variant
// (ORd fp32 128, Karma 32). A minimum of 1 raised them (ORd fp32 to 168,
// Karma to 40: fewer warps an SM) and cost the fp32 models 7-18% on the
// 256^3 box (H100, 2026-11-24; docs/gpu-notebook.md, item 19).
//
// Offsets inside a plane and between neighbouring planes are 32-bit (the
// backend refuses planes of 2^30 cells or more); only the cell's own index is
// 64-bit, which keeps the address arithmetic short.
// MR: multirate's kind of step (multirate_kind, device_common.cuh).
// LABELS: the cells' parameter sets, as in k_block (kernels_block.cuh).
template <class M, class T, int ORDER, bool MASKED, bool FOLD, bool LABELS, int ZC, bool MC, int MR>
__global__ void __launch_bounds__(block_kernel_max_threads(M::nstate, sizeof(T)), step_state_shared(M::nstate, sizeof(T)) ? 5 : 0)
    k_naive(const step_args<M, T> a)
{
    constexpr int NS = M::nstate, VI = M::vindex;
    constexpr bool SHARED = step_state_shared(M::nstate, sizeof(T));
    static_assert(!SHARED || ZC == 1, "naive: the state in shared memory holds one cell a thread");
    extern __shared__ __align__(16) unsigned char naive_state[];
    follow_previous_launch();   // cuda/follow_launch.cuh
    // the box [lo, hi) of the view: all of it, or (split over ranks) the
    // boundary layers and the interior in separate launches
    const int i = a.lo[0] + blockIdx.x * blockDim.x + threadIdx.x;
    const int j = a.lo[1] + blockIdx.y * blockDim.y + threadIdx.y;
    const int k0 = a.lo[2] + blockIdx.z * ZC;
    if (i >= a.hi[0] || j >= a.hi[1]) return;
    const int sz = a.n[0] * a.n[1];
    const size_t c0 = (size_t)k0 * sz + (j * a.n[0] + i);
    naive_cell<M, T> q[ZC];
    // the states: in registers, or (models with many states in double: ORd
    // in fp64 and "mixed", step_state_shared in launch.h) this thread's NS
    // values in shared memory, as in the blockDS kernel, so that the
    // registers fit five blocks (20 warps) on an SM (docs/gpu-notebook.md, item 19);
    // the empty asm statements with a memory clobber keep the compiler from
    // carrying the stored values across them in registers (kernels_block.cuh)
    T yr[ZC][SHARED ? 1 : NS];
    auto y = [&](int z) -> T * {
        if constexpr (SHARED) return (T *)naive_state + (threadIdx.y * blockDim.x + threadIdx.x) * NS;
        else return yr[z];
    };
#pragma unroll
    for (int z = 0; z < ZC; z++)
        if (z == 0 || k0 + z < a.hi[2])
            naive_gather<M, T, ORDER, MASKED, LABELS, MC>(a, i, j, k0 + z, c0 + (size_t)z * sz, y(z), q[z]);
    if constexpr (SHARED) asm volatile("" ::: "memory");
    T p[M::nparam];
    model_params<M, T, FOLD>(a, p);
#pragma unroll
    for (int z = 0; z < ZC; z++) {
        if (z > 0 && k0 + z >= a.hi[2]) break;
        const size_t c = c0 + (size_t)z * sz;
        T *yz = y(z);
        if (!q[z].tissue) { a.out[VI][c] = yz[VI]; continue; }
        if constexpr (LABELS) params_of_set(a, q[z].set, p);
        step_cell<M, LABELS>(a, q[z].set, yz, q[z].diff, q[z].stim, p, a.dt);
        if constexpr (SHARED) asm volatile("" ::: "memory");
        check_finite<NS>(yz, c, a.step0 + 1, a.bad);
        store_step<M, MR>(a, c, yz);
    }
}

// Cells per thread along z: 2 in fp32 (H200: Karma 256^3 0.107 -> 0.100 ms,
// 512^3 0.856 -> 0.740 ms, Aliev-Panfilov 4096^2 0.093 -> 0.085 ms), 1 in
// fp64, where the kernel already moves twice the bytes per load and the
// second cell made it slower (0.155 -> 0.175 ms); docs/gpu-notebook.md, item 5.
template <class T> constexpr int naive_cells_z() { return sizeof(T) == 4 ? 2 : 1; }

struct naive_launch {
    static constexpr bool folds = true;
    static constexpr bool members = true;   // run_members: an ensemble whose members' D differ
    static constexpr int max_states = MODEL_MAX_STATE;
    template <class M, class T, int ORDER, bool MASKED, bool FOLD>
    static void run(const launch_ctx &c) { go<M, T, ORDER, MASKED, FOLD, false>(c); }
    template <class M, class T, int ORDER, bool MASKED, bool FOLD>
    static void run_members(const launch_ctx &c) { go<M, T, ORDER, MASKED, FOLD, true>(c); }
    template <class M, class T, int ORDER, bool MASKED, bool FOLD, bool MC>
    static void go(const launch_ctx &c)
    {
        if constexpr (!FOLD) {
            if (c.plabel) return by_rate<M, T, ORDER, MASKED, FOLD, true, MC>(c);
        }
        by_rate<M, T, ORDER, MASKED, FOLD, false, MC>(c);
    }
    template <class M, class T, int ORDER, bool MASKED, bool FOLD, bool LABELS, bool MC>
    static void by_rate(const launch_ctx &c)
    {
        const int mr = multirate_kind(c);   // 0 unless the model has slow states (cuda_init)
        if constexpr (slow_states<M>() != 0) {
            if (mr == 1) return go_mr<M, T, ORDER, MASKED, FOLD, LABELS, MC, 1>(c);
            if (mr == 2) return go_mr<M, T, ORDER, MASKED, FOLD, LABELS, MC, 2>(c);
        }
        go_mr<M, T, ORDER, MASKED, FOLD, LABELS, MC, 0>(c);
    }
    template <class M, class T, int ORDER, bool MASKED, bool FOLD, bool LABELS, bool MC, int MR>
    static void go_mr(const launch_ctx &c)
    {
        constexpr int ZC = naive_cells_z<T>();
        const int w[3] = {c.hi[0] - c.lo[0], c.hi[1] - c.lo[1], c.hi[2] - c.lo[2]};
        if (w[0] <= 0 || w[1] <= 0 || w[2] <= 0) return;
        dim3 block(c.bx, c.by), grid((w[0] + c.bx - 1) / c.bx, (w[1] + c.by - 1) / c.by, (w[2] + ZC - 1) / ZC);
        const auto kernel = k_naive<M, T, ORDER, MASKED, FOLD, LABELS, ZC, MC, MR>;
        constexpr size_t state_bytes = step_state_shared(M::nstate, sizeof(T)) ? M::nstate * sizeof(T) : 0;
        constexpr int most = block_kernel_max_threads(M::nstate, sizeof(T));   // cuda_init holds blocks to it
        static const bool sized = state_bytes &&
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(most * state_bytes)) == cudaSuccess;
        (void)sized;
        launch_following(kernel, grid, block, (size_t)c.bx * c.by * state_bytes, c.stream, c.follow, make_args<M, T>(c));
    }
};

#endif
