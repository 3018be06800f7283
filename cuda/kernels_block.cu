// The blockDS layout (thesis 4.4, core/blocks.h): the state of the blocks
// with tissue, stored one after another, one thread per stored cell over the
// linear storage (so the thread block size is free of the block size, which
// matters for ORd: 512 threads of 180 registers do not fit on an SM).
// Neighbours inside the block are at fixed strides; across a face, the map's
// neighbour table gives the next block. Flags, stimulus current and phase
// field are stored in the same order as the state.
#include "dispatch.cuh"

// Models that store float states (ORd in precision "mixed", M::narrow) are
// held to 168 registers (two blocks of 192 threads an SM): left free, the
// float loads took ORd mixed from 164 to 180 registers, one block of 256
// threads an SM (8 warps instead of 12), and 2.89 -> 2.99 ms per heart step
// though it moved 35% fewer bytes (H100; docs/gpu.md, item 17).
template <class M>
constexpr int block_kernel_threads() { return M::narrow ? 192 : 256; }
template <class M>
constexpr int block_kernel_min_blocks() { return M::narrow ? 2 : 1; }

template <class M, class T, int ORDER, bool FOLD>
__global__ void __launch_bounds__(block_kernel_threads<M>(), block_kernel_min_blocks<M>())
    k_block(const step_args<M, T> a, size_t nstore)
{
    constexpr int NS = M::nstate, VI = M::vindex;
    const size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q >= nstore) return;
    const T *V = a.in[VI];
    const unsigned fl = a.flags[q];            // 0 for padding past the box's end
    if (!(fl & FLAG_SELF)) { a.out[VI][q] = V[q]; return; }
    T y[NS];
#pragma unroll
    for (int v = 0; v < NS; v++) y[v] = load_state<M>(a.in, v, q);
    const T stim = a.istim ? a.istim[q] : (T)0;
    int l[3];
    block_local(&a.blocks, q, l);
    auto at = [&](int ax, int off) { return block_neighbour(&a.blocks, q, l[ax], ax, off); };
    const T v0 = y[VI];
    T diff = 0;
    if (a.phi) {
        diff = phase_diffusion<T>(V, a.phi, q, v0, fl, a.coef, a.n, at);
    } else {
#pragma unroll
        for (int ax = 0; ax < 3; ax++) {
            if (a.n[ax] == 1) continue;
            const unsigned f = fl >> (4 * ax);
            const T m1 = f & 1 ? V[at(ax, -1)] : v0, p1 = f & 2 ? V[at(ax, 1)] : v0;
            T m2 = v0, p2 = v0;
            if (ORDER == 4) {
                m2 = f & 4 ? V[at(ax, -2)] : v0;
                p2 = f & 8 ? V[at(ax, 2)] : v0;
            }
            diff += a.coef[ax] * axis_term<T, ORDER>(v0, m1, p1, m2, p2, f);
        }
    }
    T par[M::nparam];
    model_params<M, T, FOLD>(a, par);
    if constexpr (!FOLD) regional_params(a, q, par);
    M::step(y, diff, stim, a.dt, par);
    if (!all_finite<NS>(y)) {   // the report names the row-major cell, found only then
        int lp[3], p[3];
        block_position(&a.blocks, q, lp, p);
        report_bad(((size_t)p[2] * a.n[1] + p[1]) * a.n[0] + p[0], a.step0 + 1, a.bad);
    }
#pragma unroll
    for (int v = 0; v < NS; v++) store_state<M>(a.out, v, q, y[v]);
}

// Threads per block that let the most threads of kernel k reside on an SM.
// Its registers decide: ORd fp64 (168 registers) fits one block of 256
// threads (8 warps) per SM but two of 192 (12 warps), which made it 26%
// faster on the heart (6.63 -> 4.89 ms, H100); TP06 fp64 (122 registers)
// fits two blocks of 256 (16 warps) and was slower with smaller blocks.
// Ties go to the larger block.
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
            const auto kernel = k_block<M, T, ORDER, FOLD>;
            static const int fitted = most_resident_threads(kernel, block_kernel_threads<M>());
            const size_t n = block_map_cells(&c.blocks);
            const int threads = c.bx > 0 ? c.bx * c.by : fitted;   // block = {bx, by} overrides
            const size_t nblk = (n + threads - 1) / threads;
            kernel<<<(unsigned)nblk, threads, 0, c.stream>>>(make_args<M, T>(c), n);
        }
    }
};

void launch_block(const launch_ctx &c) { dispatch<block_launch>(c); }
