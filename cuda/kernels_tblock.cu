// Temporal blocking ("space-time blocking", ../shared/papers draft; 2.5D
// blocking of Nguyen et al. 2010): one kernel advances K time steps. A block
// of threads covers an x-y tile plus a halo of K*R cells on each side and
// marches along z as a pipeline of K levels: at the iteration that loads
// plane z of the state at time n, level l computes plane z - l*R at time n+l
// from level l-1's planes, held in registers (each thread's own column) and
// one shared-memory plane per level (the x and y neighbours). The halo shrinks
// by R per level; only the tile's core, valid after K steps, is written. State
// is read once and written once per K steps instead of once per step, at the
// cost of recomputing the halo (docs/gpu.md). All states are double-buffered:
// a block's halo reads cells that other blocks write.
#include "marching.cuh"

template <class M, class T, int ORDER, bool MASKED, int K>
__global__ void __launch_bounds__(1024) k_tblock(const step_args<M, T> a, int zc)
{
    constexpr int R = ORDER / 2, NS = M::nstate, VI = M::vindex, Q = 2 * R + 1;
    extern __shared__ unsigned char smem_raw[];
    T *planes = (T *)smem_raw;                       // K planes of bx*by
    const int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
    const int rx = a.n[0] > 1 ? R : 0, ry = a.n[1] > 1 ? R : 0;
    const int gi = blockIdx.x * (bx - 2 * K * rx) - K * rx + tx;
    const int gj = blockIdx.y * (by - 2 * K * ry) - K * ry + ty;
    const bool in_plane = gi >= 0 && gi < a.n[0] && gj >= 0 && gj < a.n[1];
    const size_t sz = (size_t)a.n[0] * a.n[1];
    const size_t col = in_plane ? (size_t)gj * a.n[0] + gi : 0;
    const int nz = a.n[2], z0 = blockIdx.z * zc, z1 = min(nz, z0 + zc);
    const int tid = ty * bx + tx;

    T q[K][Q][NS];                                   // q[l-1]: input queue of level l
#pragma unroll
    for (int l = 0; l < K; l++)
#pragma unroll
        for (int d = 0; d < Q; d++)
#pragma unroll
            for (int v = 0; v < NS; v++) q[l][d][v] = (T)0;
    for (int z = z0 - K * R; z < z1 + K * R; z++) {
#pragma unroll
        for (int d = 0; d < Q - 1; d++)
#pragma unroll
            for (int v = 0; v < NS; v++) q[0][d][v] = q[0][d + 1][v];
        if (in_plane && z >= 0 && z < nz) {
#pragma unroll
            for (int v = 0; v < NS; v++) q[0][Q - 1][v] = a.in[v][z * sz + col];
        }
#pragma unroll
        for (int l = 1; l <= K; l++) {
            const int p = z - l * R;                   // the plane level l computes
            const bool act = p >= 0 && p < nz;         // the same for the whole block
            T *pl = planes + (l - 1) * bx * by;
            if (act) pl[tid] = q[l - 1][R][VI];
            __syncthreads();
            T y[NS];
#pragma unroll
            for (int v = 0; v < NS; v++) y[v] = q[l - 1][R][v];
            const bool valid = tx >= l * rx && tx < bx - l * rx && ty >= l * ry && ty < by - l * ry;
            const size_t c = (size_t)p * sz + col;
            if (act && valid && in_plane) {
                const unsigned fl = MASKED ? a.flags[c] : full_box_flags<ORDER>(gi, gj, p, a.n);
                if (!MASKED || (fl & FLAG_SELF)) {
                    T zq[Q];
#pragma unroll
                    for (int d = 0; d < Q; d++) zq[d] = q[l - 1][d][VI];
                    const T diff = plane_diffusion<T, ORDER>(pl, tid, bx, zq, fl, a.coef, a.n);
                    M::step(y, diff, a.istim ? a.istim[c] : (T)0, a.dt, a.p);
                }
            }
            if (l < K) {
#pragma unroll
                for (int d = 0; d < Q - 1; d++)
#pragma unroll
                    for (int v = 0; v < NS; v++) q[l][d][v] = q[l][d + 1][v];
#pragma unroll
                for (int v = 0; v < NS; v++) q[l][Q - 1][v] = y[v];
            } else if (act && valid && in_plane && p >= z0 && p < z1) {
                check_finite<NS>(y, c, a.step0 + K, a.bad);
#pragma unroll
                for (int v = 0; v < NS; v++) a.out[v][c] = y[v];
            }
        }
        if (K == 1) __syncthreads();
    }
}

struct tblock_launch {
    template <int K, class M, class T, int ORDER, bool MASKED>
    static void go(const launch_ctx &c)
    {
        const int R = ORDER / 2, rx = c.n[0] > 1 ? R : 0, ry = c.n[1] > 1 ? R : 0;
        const int cx = c.bx - 2 * K * rx, cy = c.by - 2 * K * ry;   // core of a tile
        const long tx = (c.n[0] + cx - 1) / cx, ty = (c.n[1] + cy - 1) / cy;
        const int zc = z_chunk(c.n[2], tx * ty, blocks_wanted(c.bx * c.by), 8 * K * R);
        dim3 block(c.bx, c.by), grid(tx, ty, (c.n[2] + zc - 1) / zc);
        size_t smem = (size_t)K * c.bx * c.by * sizeof(T);
        k_tblock<M, T, ORDER, MASKED, K><<<grid, block, smem, c.stream>>>(make_args<M, T>(c), zc);
    }
    template <class M, class T, int ORDER, bool MASKED>
    static void run(const launch_ctx &c)
    {
        switch (c.tsteps) {
        case 1: go<1, M, T, ORDER, MASKED>(c); break;
        case 2: go<2, M, T, ORDER, MASKED>(c); break;
        case 3: go<3, M, T, ORDER, MASKED>(c); break;
        default: go<4, M, T, ORDER, MASKED>(c); break;
        }
    }
};

void launch_tblock(const launch_ctx &c) { dispatch<tblock_launch>(c); }
