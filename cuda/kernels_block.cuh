// The blockDS layout (thesis 4.4, core/mesh/blocks.h): the state of the blocks
// with tissue, stored one after another, one thread per stored cell over the
// linear storage (so the thread block size is free of the block size, which
// matters for ORd: 512 threads of 180 registers do not fit on an SM).
// Neighbours inside the block are at fixed strides; across a face, the map's
// neighbour table gives the next block. Flags, stimulus current and phase
// field are stored in the same order as the state.
#ifndef CARDIAC_CUDA_KERNELS_BLOCK_CUH
#define CARDIAC_CUDA_KERNELS_BLOCK_CUH
#include "dispatch.cuh"

// The storage indices of a cell's neighbours at offsets -R..-1, 1..R along
// each axis (idx[a][R + off], off != 0), or q itself where the cell's flags say
// that neighbour is not tissue (V[q] is then the cell's own V, the no-flux
// ghost value the stencil wants). The face-table entries of the cell's block
// are read first, all six, and the indices computed from them without
// branches, so that the loads of the neighbours' V that follow are
// independent of each other and of any branch: a warp waits for memory twice,
// not once per neighbour as with a table lookup and a load behind each
// neighbour's flag test (docs/gpu-notebook.md, item 18).
template <int R>
__device__ __forceinline__ void block_gather(const block_map &bm, size_t q, const int l[3], unsigned fl,
                                             uint32_t idx[3][2 * R + 1])
{
    const uint32_t bv = (uint32_t)bm.bvol, qq = (uint32_t)q, slot = block_slot(&bm, q);
    int32_t face[6];
#pragma unroll
    for (int k = 0; k < 6; k++) face[k] = bm.nbr[slot * 6 + k];
#pragma unroll
    for (int a = 0; a < 3; a++) {
        const uint32_t stride = a == 0 ? 1u : a == 1 ? (uint32_t)bm.b[0] : (uint32_t)(bm.b[0] * bm.b[1]);
        const int w = bm.b[a];
        const uint32_t r0 = qq - slot * bv - (uint32_t)l[a] * stride;   // the cell at l[a] = 0
#pragma unroll
        for (int off = -R; off <= R; off++) {
            if (off == 0) continue;
            const unsigned bit = off == -1 ? 1u : off == 1 ? 2u : off == -2 ? 4u : 8u;
            const int t = l[a] + off;
            const int32_t s = face[2 * a + (t >= w)];
            const uint32_t across = (uint32_t)s * bv + r0 + (uint32_t)(t < 0 ? t + w : t - w) * stride;
            const uint32_t at = t >= 0 && t < w ? qq + (uint32_t)off * stride : across;
            idx[a][R + off] = (fl >> (4 * a)) & bit ? at : qq;
        }
    }
}

// Models with many states in double precision (ORd in fp64 and "mixed":
// 41) keep the cell's state in shared memory during the step instead of
// registers, in blocks of 128 threads (block_kernel_max_threads, launch.h):
// a state is then read where the model uses it and written where it updates
// it, not held from the kernel's first load to its last store. The registers
// fell from 168 to 96, five blocks (20 warps) fit an SM instead of 12 warps;
// H100 heart: fp64 3.88 -> 3.36 ms, mixed 1.75 -> 1.63 ms per step
// (docs/gpu-notebook.md, item 18).
template <class M, class T>
__host__ __device__ constexpr bool block_state_shared() { return step_state_shared(M::nstate, sizeof(T)); }
// The others leave the minimum of blocks unspecified (0), with which ptxas
// holds their registers lower than with an explicit 1 (TP06 fp32 59 against
// 91, Karma 32 against 40: heart, blocks of 2, 8% faster), except models with
// many states (ORd fp32: 128 registers with 1, 104 with 0, which ran 3%
// slower; docs/gpu-notebook.md, item 19). Float kernels with states in half
// (precision "fp32h") take three blocks of 256 (80 registers, a few spilled):
// their loads bring half the bytes, so they need more warps waiting on them
// to keep DRAM busy (ORd's heart 0.779 -> 0.736 ms; fp32 itself, already near
// its DRAM ceiling, ran 3% slower so: docs/gpu-notebook.md, item 31).
template <class M, class T>
__host__ __device__ constexpr int block_kernel_min_blocks()
{
    return block_state_shared<M, T>() ? 5 : M::nstate >= 32 ? (M::narrow && sizeof(T) == 4 ? 3 : 1) : 0;
}

// MR: multirate's kind of step (multirate_kind, device_common.cuh). With
// quiescent cells (MR 3, 4; core/engine/quiescence.h) a cell loads V first,
// and the rest of its state only if it takes an ionic step: a quiescent
// cell's holding step reads and writes V (and its neighbours') alone.
// LABELS (general kernels only): the cells' parameter sets (sim:set_param
// with a region), each cell's row read from the table. Without them the
// general kernel takes the launch's parameters straight from its arguments,
// where ptxas needs no register to hold them; one kernel for both held every
// parameter in registers for the whole step, whichever it ran, and spilled
// (ORd fp64: 200 bytes of spill stores against 48; docs/gpu-notebook.md, item 44).
template <class M, class T, int ORDER, bool FOLD, bool LABELS, int MR>
__global__ void __launch_bounds__(block_kernel_max_threads(M::nstate, sizeof(T)), block_kernel_min_blocks<M, T>())
    k_block(const step_args<M, T> a, size_t qlo, size_t qhi)
{
    constexpr int NS = M::nstate, VI = M::vindex;
    constexpr bool SHARED = block_state_shared<M, T>();
    constexpr bool QUIET = MR >= 3;
    extern __shared__ __align__(16) unsigned char block_state[];
    follow_previous_launch();   // cuda/follow_launch.cuh
    const size_t q = qlo + blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q >= qhi) return;
    const T *V = a.in[VI];
    // The flags, the face-table entries, the stimulus and the state are
    // loaded together, before the test of the flags, so that a warp waits
    // for memory once before the neighbours' V and once for them; the test
    // first made the flags a round trip of their own. A stored cell without
    // tissue (4% of the heart's with blocks of 2) then loads its state for
    // nothing (docs/gpu-notebook.md, item 19).
    const unsigned fl = a.flags[q];            // 0 for padding past the box's end
    const T stim = a.istim ? a.istim[q] : (T)0;
    const unsigned stamp = QUIET ? a.stamp[q] : 0;
    int l[3];
    block_local(&a.blocks, q, l);
    constexpr int R = ORDER / 2;
    uint32_t idx[3][2 * R + 1];
    block_gather<R>(a.blocks, q, l, fl, idx);
    // The state: in registers, or this thread's NS values in shared memory
    // (a stride of 41 doubles puts the 16 threads of a half-warp on distinct
    // banks). The empty asm statements with a memory clobber keep the
    // compiler from carrying the stored values across them in registers,
    // which would bring back the long live ranges.
    T yr[SHARED ? 1 : NS];
    T *y = SHARED ? (T *)block_state + threadIdx.x * NS : yr;
#pragma unroll
    for (int v = 0; v < NS; v++)
        if (!QUIET || v == VI) y[v] = load_state<M>(a.in, v, q);
    if constexpr (SHARED) asm volatile("" ::: "memory");
    if (!(fl & FLAG_SELF)) { a.out[VI][q] = y[VI]; return; }
    auto at = [&](int ax, int off) { return (size_t)idx[ax][R + off]; };
    const T v0 = y[VI];
    T diff = 0;
    if (a.phi) {
        diff = phase_diffusion<T>(V, a.phi, q, v0, fl, a.coef, a.n, at);
    } else {
        T nv[3][2 * R + 1];   // the neighbours' V, loaded together (v0 where there is none)
#pragma unroll
        for (int ax = 0; ax < 3; ax++)
#pragma unroll
            for (int k = 0; k < 2 * R + 1; k++)
                if (k != R) nv[ax][k] = V[idx[ax][k]];
#pragma unroll
        for (int ax = 0; ax < 3; ax++) {
            // x always, as in the other layouts (kernel_coef)
            if (ax > 0 && a.n[ax] == 1) continue;
            const unsigned f = fl >> (4 * ax);
            const T m1 = nv[ax][R - 1], p1 = nv[ax][R + 1];
            const T m2 = ORDER == 4 ? nv[ax][0] : v0, p2 = ORDER == 4 ? nv[ax][2 * R] : v0;
            const T t = axis_part<T, ORDER>(v0, m1, p1, m2, p2, f);
            diff = ax == 0 ? first_term(a.coef[0], t) : next_term(diff, a.coef[ax], t);
        }
        diff = centre_term<T, ORDER>(diff, a.coef, v0);
    }
    unsigned k = 1;   // steps of dt the ionic state advances
    if constexpr (QUIET) {
        if (MR == 3 && quiescent_cell(v0, stim, diff, a.quiet_below, a.quiet_diffusion)) {
            a.out[VI][q] = v0 + a.dt * diff;   // forward Euler of the diffusion alone
            return;
        }
        k = quiescent_lag(a.step0, (unsigned char)stamp) + 1;
        a.stamp[q] = quiescent_stamp(a.step0);
#pragma unroll
        for (int v = 0; v < NS; v++)
            if (v != VI) y[v] = load_state<M>(a.in, v, q);
        if constexpr (SHARED) asm volatile("" ::: "memory");
    }
    // with sets, the model reads its cell's row of the table where it uses
    // each value, instead of a copy held in registers through the step
    T par[M::nparam];
    unsigned set = 0;
    const T *prow = par;
    if constexpr (LABELS) {
        set = a.plabel[q];
        prow = a.ptable + (size_t)set * MODEL_MAX_PARAM;
    } else {
        model_params<M, T, FOLD>(a, par);
    }
    if constexpr (QUIET) step_cell<M, LABELS>(a, set, y, quiescent_share(diff, k), stim, prow, (T)k * a.dt);
    else step_cell<M, LABELS>(a, set, y, diff, stim, prow, a.dt);
    if constexpr (SHARED) asm volatile("" ::: "memory");
    if (!all_finite<NS>(y)) {   // the report names the row-major cell, found only then
        int lp[3], p[3];
        block_position(&a.blocks, q, lp, p);
        report_bad(((size_t)p[2] * a.n[1] + p[1]) * a.n[0] + p[0], a.step0 + 1, a.bad);
    }
    store_step<M, MR>(a, q, y, k);
}

// Threads per block that let the most threads of kernel k reside on an SM,
// for kernels that keep the state in registers. Their registers decide: ORd
// fp64 at 168 registers (before its state moved to shared memory) fitted one
// block of 256 threads (8 warps) per SM but two of 192 (12 warps), 26% faster
// on the heart (6.63 -> 4.89 ms, H100); TP06 fp64 (122 registers) fits two
// blocks of 256 (16 warps) and was slower with smaller blocks. Ties go to the
// larger block.
template <class K>
static int most_resident_threads(K k, int max_threads)
{
    int best = max_threads, most = 0;
    for (int t : {256, 192, 128, 96, 64}) {
        int nb = 0;
        if (t > max_threads) continue;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k, t, 0) != cudaSuccess) continue;
        if (nb * t > most) { most = nb * t; best = t; }
    }
    return best;
}

struct block_launch {
    static constexpr bool folds = true;
    static constexpr int max_states = MODEL_MAX_STATE;
    // MASKED does not matter here: the layout always stores flags.
    template <class M, class T, int ORDER, bool MASKED, bool FOLD>
    static void run(const launch_ctx &c)
    {
        if constexpr (MASKED) {
            // 0 unless the model has slow states (cuda_init); 3, 4 with quiescent cells
            const int mr = multirate_kind(c) + (c.stamp ? 2 : 0);
            if constexpr (!FOLD) {
                if (c.plabel) return by_rate<M, T, ORDER, FOLD, true>(c, mr);
            }
            by_rate<M, T, ORDER, FOLD, false>(c, mr);
        }
    }
    template <class M, class T, int ORDER, bool FOLD, bool LABELS>
    static void by_rate(const launch_ctx &c, int mr)
    {
        if constexpr (slow_states<M>() != 0) {
            if (mr == 1) return go<M, T, ORDER, FOLD, LABELS, 1>(c);
            if (mr == 2) return go<M, T, ORDER, FOLD, LABELS, 2>(c);
            if constexpr (!M::tables) {   // quiescent cells step k dt, which no table holds
                if (mr == 3) return go<M, T, ORDER, FOLD, LABELS, 3>(c);
                if (mr == 4) return go<M, T, ORDER, FOLD, LABELS, 4>(c);
            }
        }
        go<M, T, ORDER, FOLD, LABELS, 0>(c);
    }
    template <class M, class T, int ORDER, bool FOLD, bool LABELS, int MR>
    static void go(const launch_ctx &c)
    {
        const auto kernel = k_block<M, T, ORDER, FOLD, LABELS, MR>;
        constexpr int most = block_kernel_max_threads(M::nstate, sizeof(T));
        constexpr size_t state_bytes = block_state_shared<M, T>() ? M::nstate * sizeof(T) : 0;
        static const int fitted = [&] {
            if (state_bytes) cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(most * state_bytes));
            return state_bytes ? most : most_resident_threads(kernel, most);
        }();
        if (c.qhi <= c.qlo) return;
        const int threads = c.bx > 0 ? c.bx * c.by : fitted;   // block = {bx, by} overrides (cuda_init checks it)
        const size_t nblk = (c.qhi - c.qlo + threads - 1) / threads;
        launch_following(kernel, dim3((unsigned)nblk), dim3(threads), threads * state_bytes, c.stream, c.follow,
                         make_args<M, T>(c), c.qlo, c.qhi);
    }
};

#endif
