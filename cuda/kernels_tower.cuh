// The towerDS layout (thesis 4.3; Vasconcellos et al. 2020, section 3.2): the
// sliding window of kernels_window.cuh on data stored tower by tower
// (cuda/tower.cuh), so that every global access of a block is to consecutive
// addresses: the tile's core layer, the rows of the towers above and below it
// (its y halo), and its own x-halo buffer, which the neighbouring towers fill
// when they write their new edge columns (tower_store).
#ifndef CARDIAC_CUDA_KERNELS_TOWER_CUH
#define CARDIAC_CUDA_KERNELS_TOWER_CUH
#include "marching.cuh"
#include "tower.cuh"

template <class M, class T, int ORDER, bool MASKED>
__global__ void k_tower(const step_args<M, T> a, int zc)
{
    constexpr int R = ORDER / 2, NS = M::nstate, VI = M::vindex, Q = 2 * R + 1;
    extern __shared__ unsigned char smem_raw[];
    T *tile = (T *)smem_raw;
    const tower_geom &g = a.tower;
    const int TX = g.tx, TY = g.ty, tx = threadIdx.x, ty = threadIdx.y;
    const int ry = a.n[1] > 1 ? R : 0;
    const int pitch = TX + 2 * R;
    const int bxi = blockIdx.x, byi = blockIdx.y;
    const int gi = bxi * TX + tx, gj = byi * TY + ty;
    const bool in_plane = gi < a.n[0] && gj < a.n[1];
    const int nz = a.n[2], z0 = blockIdx.z * zc, z1 = min(nz, z0 + zc);
    const size_t sy = a.n[0], sz = (size_t)a.n[0] * a.n[1];
    const size_t core = (size_t)TX * TY, me = (size_t)ty * TX + tx;
    const int tid = ty * TX + tx, nhalo = 2 * R * TY;
    const T *V = a.in[VI];
    const int idx = (ty + ry) * pitch + tx + R;

    T zq[Q];
#pragma unroll
    for (int d = 0; d < Q - 1; d++) {
        const int z = z0 - R + d;
        zq[d + 1] = z >= 0 && z < nz ? V[tower_layer(g, bxi, byi, z, nz) + me] : (T)0;
    }
    for (int z = z0; z < z1; z++) {
#pragma unroll
        for (int d = 0; d < Q - 1; d++) zq[d] = zq[d + 1];
        zq[Q - 1] = z + R < nz ? V[tower_layer(g, bxi, byi, z + R, nz) + me] : (T)0;
        const size_t layer = tower_layer(g, bxi, byi, z, nz);
        tile[idx] = zq[R];
        if (tid < nhalo) {                             // x halo from this tower's buffer
            const int side = tid / (R * TY), col = tid / TY % R, row = tid % TY;
            const int x = side ? R + TX + col : col;
            tile[(row + ry) * pitch + x] = V[layer + core + tid];
        }
        if (ty < ry) {                                 // y halo: rows of the towers below and above
            tile[idx - ry * pitch] = byi > 0 ? V[tower_layer(g, bxi, byi - 1, z, nz) + (TY - R + ty) * TX + tx] : (T)0;
            tile[idx + TY * pitch] = byi < g.nty - 1 ? V[tower_layer(g, bxi, byi + 1, z, nz) + ty * TX + tx] : (T)0;
        }
        __syncthreads();
        if (in_plane) {
            const size_t c = z * sz + gj * sy + gi;
            const unsigned fl = MASKED ? a.flags[c] : full_box_flags<ORDER>(gi, gj, z, a.n);
            T y[NS];
#pragma unroll
            for (int v = 0; v < NS; v++) y[v] = v == VI ? zq[R] : a.in[v][layer + me];
            if (!MASKED || (fl & FLAG_SELF)) {
                const T diff = plane_diffusion<T, ORDER>(tile, idx, pitch, zq, fl, a.coef, a.n);
                T p[M::nparam];
                model_params<M, T, false>(a, p);
                regional_params(a, c, p);
                M::step(y, diff, a.istim ? a.istim[c] : (T)0, a.dt, p);
                check_finite<NS>(y, c, a.step0 + 1, a.bad);
#pragma unroll
                for (int v = 0; v < NS; v++)
                    if (v != VI) a.out[v][layer + me] = y[v];
            }
            tower_store(a.out[VI], g, gi, gj, z, nz, y[VI]);
        }
        __syncthreads();
    }
}

struct tower_launch {
    static constexpr bool folds = false;   // the thesis layouts as they were
    static constexpr int max_states = MARCHING_MAX_STATES;
    template <class M, class T, int ORDER, bool MASKED, bool FOLD>
    static void run(const launch_ctx &c)
    {
        const int R = ORDER / 2, ry = c.n[1] > 1 ? R : 0;
        const tower_geom &g = c.tower;
        const int zc = z_chunk(c.n[2], (long)g.ntx * g.nty, blocks_wanted(c.bx * c.by), 16);
        dim3 block(g.tx, g.ty), grid(g.ntx, g.nty, (c.n[2] + zc - 1) / zc);
        size_t smem = (size_t)(g.tx + 2 * R) * (g.ty + 2 * ry) * sizeof(T);
        k_tower<M, T, ORDER, MASKED><<<grid, block, smem, c.stream>>>(make_args<M, T>(c), zc);
    }
};

#endif
