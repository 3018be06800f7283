// Temporal blocking ("space-time blocking", an unpublished draft on 2D space-time blocking of
// cardiac stencils on GPUs, section 4; 2.5D
// blocking of Nguyen et al. 2010, AN5D of Matsumura et al. 2020): one kernel
// advances K time steps. A block of threads covers an x-y tile plus a halo of
// K*R cells on each side and marches along z as a pipeline of K levels: level
// l computes the state at time n+l from level l-1's, whose own-column values
// it keeps in a register queue (the z neighbours) and whose planes it reads
// from shared memory (the x and y neighbours). The halo shrinks by R per
// level; only the tile's core, valid after K steps, is written. State is read
// once and written once per K steps instead of once per step, at the cost of
// recomputing the halo (docs/gpu.md). All states are double-buffered: a
// block's halo reads cells that other blocks write.
//
// Skew: level l computes plane z - l*S at the iteration that loads plane z,
// with S = R + 1. Then every value a level reads was produced in an earlier
// iteration, so one __syncthreads per iteration suffices (not one per level),
// and the load of plane z, issued at the top of its iteration, is first
// needed at the end of it (where it enters level 0's queue and shared plane),
// after the K levels' work. A level's planes live in a ring of S + 1 shared slots: written at
// iteration z into slot z, read at z + S from the slot after the current one.
#ifndef CARDIAC_CUDA_KERNELS_TBLOCK_CUH
#define CARDIAC_CUDA_KERNELS_TBLOCK_CUH
#include "marching.cuh"

// Each thread holds CX = 2 neighbouring cells along x: a tile is 2*bx cells
// wide, so the x halo that every level recomputes is a smaller share of it,
// and the per-level bookkeeping (plane bounds, addresses, the queue) is paid
// once for two cells whose model steps run side by side.
constexpr int CX = 2;

template <class T> struct pair_of;
template <> struct pair_of<float> { using type = float2; };
template <> struct pair_of<double> { using type = double2; };

// Rotates a level's register queue and appends its newest plane.
template <int Q, int NS, class T>
__device__ __forceinline__ void push(T (&q)[Q][NS][CX], const T (&y)[CX][NS])
{
#pragma unroll
    for (int d = 0; d < Q - 1; d++)
#pragma unroll
        for (int v = 0; v < NS; v++)
#pragma unroll
            for (int e = 0; e < CX; e++) q[d][v][e] = q[d + 1][v][e];
#pragma unroll
    for (int v = 0; v < NS; v++)
#pragma unroll
        for (int e = 0; e < CX; e++) q[Q - 1][v][e] = y[e][v];
}

// Levels a cell at tile position t (of w) computes along one axis: the
// largest l with the cell at least l*r cells inside the tile (K when r = 0).
template <int K>
__device__ __forceinline__ int axis_depth(int t, int w, int r)
{
    return r ? min(K, min(t, w - 1 - t) / r) : K;
}

// Diffusion terms of the thread's two cells. pl: the level's plane in shared
// memory at the pair's first cell (row pitch `pitch`); q: the level's queue,
// whose entry R holds the pair itself and R -+ d the planes below and above.
// The same arithmetic as the naive kernel (axis_part, centre_term), so
// results agree bitwise.
template <class T, int ORDER, int Q, int NS, int VI>
__device__ __forceinline__ void pair_diffusion(const T *pl, int pitch, const T (&q)[Q][NS][CX],
                                               const unsigned (&fl)[CX], const T *coef, const int *n, T (&diff)[CX])
{
    using P = typename pair_of<T>::type;
    constexpr int R = ORDER / 2;
    T x[6];                                          // x[k]: the cell k - 2 along x from the pair's first
    x[2] = q[R][VI][0];
    x[3] = q[R][VI][1];
    if (ORDER == 4) {
        const P lo = *(const P *)(pl - 2), hi = *(const P *)(pl + 2);
        x[0] = lo.x; x[1] = lo.y; x[4] = hi.x; x[5] = hi.y;
    } else {
        x[1] = pl[-1]; x[4] = pl[2];
        x[0] = x[5] = (T)0;
    }
    P ym1{}, yp1{}, ym2{}, yp2{};
    if (n[1] > 1) {
        ym1 = *(const P *)(pl - pitch); yp1 = *(const P *)(pl + pitch);
        if (ORDER == 4) { ym2 = *(const P *)(pl - 2 * pitch); yp2 = *(const P *)(pl + 2 * pitch); }
    }
#pragma unroll
    for (int e = 0; e < CX; e++) {
        const T v0 = x[2 + e];
        T d = first_term(coef[0], axis_part<T, ORDER>(v0, x[1 + e], x[3 + e], x[e], x[4 + e], fl[e] & 0xF));
        if (n[1] > 1) {
            const T m1 = e ? ym1.y : ym1.x, p1 = e ? yp1.y : yp1.x;
            const T m2 = ORDER == 4 ? (e ? ym2.y : ym2.x) : v0, p2 = ORDER == 4 ? (e ? yp2.y : yp2.x) : v0;
            d = next_term(d, coef[1], axis_part<T, ORDER>(v0, m1, p1, m2, p2, fl[e] >> 4 & 0xF));
        }
        if (n[2] > 1)
            d = next_term(d, coef[2], axis_part<T, ORDER>(v0, q[R - 1][VI][e], q[R + 1][VI][e],
                                                          q[ORDER == 4 ? R - 2 : R][VI][e],
                                                          q[ORDER == 4 ? R + 2 : R][VI][e], fl[e] >> 8 & 0xF));
        diff[e] = centre_term<T, ORDER>(d, coef, v0);
    }
}

// Shared memory of a block: K levels x (R + 2) slots of a (2 bx) x by plane,
// with a guard of R rows and 2 cells at each end so that the halo cells'
// neighbour reads stay inside the allocation.
inline __host__ __device__ int tblock_guard(int bx, int order) { return order / 2 * CX * bx + 2; }
inline size_t tblock_smem(int bx, int by, int order, int K, size_t esize)
{
    return ((size_t)K * (order / 2 + 2) * CX * bx * by + 2 * (size_t)tblock_guard(bx, order)) * esize;
}

template <class M, class T, int ORDER, bool MASKED, bool FOLD, int K>
__global__ void __launch_bounds__(1024) k_tblock(const step_args<M, T> a, int zc)
{
    using P = typename pair_of<T>::type;
    constexpr int R = ORDER / 2, S = R + 1, SLOTS = S + 1, NS = M::nstate, VI = M::vindex, Q = 2 * R + 1;
    extern __shared__ unsigned char smem_raw[];
    const int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
    const int cw = CX * bx, np = cw * by;           // tile width and plane size in cells
    const int lstride = SLOTS * np;                  // from one level's planes to the next's
    T *planes = (T *)smem_raw + tblock_guard(bx, ORDER);   // [level 0..K-1][SLOTS][by][cw]
    const int rx = a.n[0] > 1 ? R : 0, ry = a.n[1] > 1 ? R : 0;
    const int lx = CX * tx, idx = ty * cw + lx;      // the pair's first cell in the tile
    const int gi = blockIdx.x * (cw - 2 * K * rx) - K * rx + lx;
    const int gj = blockIdx.y * (by - 2 * K * ry) - K * ry + ty;
    const bool row_in = gj >= 0 && gj < a.n[1];
    bool in_grid[CX], core[CX];
    const int ydepth = axis_depth<K>(ty, by, ry);
    int depth = 0;
#pragma unroll
    for (int e = 0; e < CX; e++) {
        in_grid[e] = row_in && gi + e >= 0 && gi + e < a.n[0];
        const int d = min(ydepth, axis_depth<K>(lx + e, cw, rx));
        core[e] = in_grid[e] && d == K;
        if (in_grid[e]) depth = max(depth, d);
    }
    const int sz = a.n[0] * a.n[1], col = gj * a.n[0] + gi;
    const int nz = a.n[2], z0 = blockIdx.z * zc, z1 = min(nz, z0 + zc);
    // Pairs at least R cells from the x and y faces of a full box take the
    // interior stencil on planes at least R cells from the z faces.
    const bool xy_inner = (a.n[0] == 1 || (gi >= R && gi + 1 < a.n[0] - R)) &&
                          (a.n[1] == 1 || (gj >= R && gj < a.n[1] - R));
    T p[M::nparam];
    model_params<M, T, FOLD>(a, p);

    T q[K][Q][NS][CX];                               // q[l]: level l's last Q planes (level 0: input)
#pragma unroll
    for (int l = 0; l < K; l++)
#pragma unroll
        for (int d = 0; d < Q; d++)
#pragma unroll
            for (int v = 0; v < NS; v++)
#pragma unroll
                for (int e = 0; e < CX; e++) q[l][d][v][e] = (T)0;
    int ws = 0;                                      // slot written this iteration
    for (int z = z0 - K * R; z < z1 + K * S; z++) {
        const int rs = ws == SLOTS - 1 ? 0 : ws + 1; // slot written S iterations ago
        const T *rd = planes + rs * np + idx;
        T *wr = planes + ws * np + idx;
        T in[CX][NS];
        const bool zin = z >= 0 && z < nz && z < z1 + K * R;
#pragma unroll
        for (int e = 0; e < CX; e++)
#pragma unroll
            for (int v = 0; v < NS; v++)
                in[e][v] = zin && in_grid[e] ? a.in[v][(size_t)z * sz + col + e] : (T)0;
#pragma unroll
        for (int l = K; l >= 1; l--) {               // top down: level l reads q[l-1] before it moves
            const int pz = z - l * S;
            const bool act = pz >= max(0, z0 - (K - l) * R) && pz < min(nz, z1 + (K - l) * R);
            T y[CX][NS];
#pragma unroll
            for (int e = 0; e < CX; e++)
#pragma unroll
                for (int v = 0; v < NS; v++) y[e][v] = q[l - 1][R][v][e];
            if (act && l <= depth) {
                const size_t c = (size_t)pz * sz + col;  // the pair's first cell
                const T *pl = rd + (l - 1) * lstride;
                T diff[CX];
                bool tissue[CX] = {true, true};
                // Interior pairs of a full box take a branch of their own with
                // constant flags: written as a select, the compiler would
                // compute the boundary flags and rule for every cell.
                if (!MASKED && xy_inner && (nz == 1 || (pz >= R && pz < nz - R))) {
                    const unsigned all[CX] = {0xFFFFu, 0xFFFFu};
                    pair_diffusion<T, ORDER, Q, NS, VI>(pl, cw, q[l - 1], all, a.coef, a.n, diff);
                } else {
                    unsigned fl[CX];
#pragma unroll
                    for (int e = 0; e < CX; e++) {
                        fl[e] = MASKED ? (in_grid[e] ? a.flags[c + e] : 0u) : box_flags(gi + e, gj, pz, a.n);
                        tissue[e] = fl[e] & FLAG_SELF;
                    }
                    pair_diffusion<T, ORDER, Q, NS, VI>(pl, cw, q[l - 1], fl, a.coef, a.n, diff);
                }
#pragma unroll
                for (int e = 0; e < CX; e++)
                    if (!MASKED || tissue[e]) {
                        if constexpr (!FOLD)
                            if (in_grid[e]) regional_params(a, c + e, p);
                        M::step(y[e], diff[e], a.istim && in_grid[e] ? a.istim[c + e] : (T)0, a.dt, p);
                    }
                if (l == K && pz >= z0 && pz < z1) {
#pragma unroll
                    for (int e = 0; e < CX; e++) {
                        if (!core[e]) continue;
                        check_finite<NS>(y[e], c + e, a.step0 + K, a.bad);
#pragma unroll
                        for (int v = 0; v < NS; v++) a.out[v][c + e] = y[e][v];
                    }
                }
            }
            if (l < K) {
                push(q[l], y);
                *(P *)(wr + l * lstride) = P{y[0][VI], y[1][VI]};
            }
        }
        push(q[0], in);
        *(P *)wr = P{in[0][VI], in[1][VI]};
        __syncthreads();
        ws = rs;
    }
}

struct tblock_launch {
    static constexpr bool folds = true;
    static constexpr int max_states = MARCHING_MAX_STATES;
    template <int K, class M, class T, int ORDER, bool MASKED, bool FOLD>
    static void go(const launch_ctx &c)
    {
        const int R = ORDER / 2, rx = c.n[0] > 1 ? R : 0, ry = c.n[1] > 1 ? R : 0;
        const int cx = CX * c.bx - 2 * K * rx, cy = c.by - 2 * K * ry;   // core of a tile, cells
        const long tx = (c.n[0] + cx - 1) / cx, ty = (c.n[1] + cy - 1) / cy;
        const size_t smem = tblock_smem(c.bx, c.by, ORDER, K, sizeof(T));
        auto kernel = k_tblock<M, T, ORDER, MASKED, FOLD, K>;
        static bool opted_in = false;                // above 48 KB needs an opt-in, once per kernel
        if (!opted_in) {
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);
            opted_in = true;
        }
        const int zc = z_chunk(c.n[2], tx * ty, blocks_wanted(c.bx * c.by), 8 * K * R);
        dim3 block(c.bx, c.by), grid(tx, ty, (c.n[2] + zc - 1) / zc);
        // not a programmatic dependent launch (cuda/follow_launch.cuh): made
        // one, Aliev-Panfilov on 1024^2 ran twice as long a step
        // (docs/gpu-notebook.md, item 62)
        kernel<<<grid, block, smem, c.stream>>>(make_args<M, T>(c), zc);
    }
    template <class M, class T, int ORDER, bool MASKED, bool FOLD>
    static void run(const launch_ctx &c)
    {
        switch (c.tsteps) {
        case 1: go<1, M, T, ORDER, MASKED, FOLD>(c); break;
        case 2: go<2, M, T, ORDER, MASKED, FOLD>(c); break;
        case 3: go<3, M, T, ORDER, MASKED, FOLD>(c); break;
        default: go<4, M, T, ORDER, MASKED, FOLD>(c); break;
        }
    }
};

#endif
