// The classic sliding window (Micikevicius 2009; thesis 4.2, "JDC"): a 2D
// block of threads, one per cell of an x-y tile, marches along z. The tile's
// current plane of V and its halo sit in shared memory (the halo loaded by the
// threads at the tile's edges, from row-major global memory); each thread keeps
// the z neighbours of its own column in registers. Other states are updated
// in place.
#ifndef CARDIAC_CUDA_KERNELS_WINDOW_CUH
#define CARDIAC_CUDA_KERNELS_WINDOW_CUH
#include "marching.cuh"

template <class M, class T, int ORDER, bool MASKED>
__global__ void k_window(const step_args<M, T> a, int zc)
{
    constexpr int R = ORDER / 2, NS = M::nstate, VI = M::vindex, Q = 2 * R + 1;
    extern __shared__ unsigned char smem_raw[];
    T *tile = (T *)smem_raw;
    const int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
    const int ry = a.n[1] > 1 ? R : 0;                 // no y halo on a 2D grid's single row
    const int pitch = bx + 2 * R;
    const int i0 = blockIdx.x * bx, j0 = blockIdx.y * by;
    const int gi = i0 + tx, gj = j0 + ty;
    const bool in_plane = gi < a.n[0] && gj < a.n[1];
    const size_t sy = a.n[0], sz = (size_t)a.n[0] * a.n[1];
    const int nz = a.n[2], z0 = blockIdx.z * zc, z1 = min(nz, z0 + zc);
    const T *V = a.in[VI];
    const int idx = (ty + ry) * pitch + tx + R;

    T zq[Q];
#pragma unroll
    for (int d = 0; d < Q - 1; d++) {
        const int z = z0 - R + d;
        zq[d + 1] = in_plane && z >= 0 && z < nz ? V[z * sz + gj * sy + gi] : (T)0;
    }
    for (int z = z0; z < z1; z++) {
#pragma unroll
        for (int d = 0; d < Q - 1; d++) zq[d] = zq[d + 1];
        zq[Q - 1] = in_plane && z + R < nz ? V[(z + R) * sz + gj * sy + gi] : (T)0;
        const size_t plane = z * sz;
        tile[idx] = zq[R];
        if (tx < R) {                                  // x halo: R columns each side
            const int il = i0 - R + tx, ir = i0 + bx + tx;
            if (gj < a.n[1]) {
                tile[idx - R] = il >= 0 ? V[plane + gj * sy + il] : (T)0;
                tile[idx + bx] = ir < a.n[0] ? V[plane + gj * sy + ir] : (T)0;
            }
        }
        if (ty < ry && gi < a.n[0]) {                  // y halo: R rows each side
            const int jd = j0 - R + ty, ju = j0 + by + ty;
            tile[idx - ry * pitch] = jd >= 0 ? V[plane + jd * sy + gi] : (T)0;
            tile[idx + by * pitch] = ju < a.n[1] ? V[plane + ju * sy + gi] : (T)0;
        }
        __syncthreads();
        if (in_plane) {
            const size_t c = plane + gj * sy + gi;
            const unsigned fl = MASKED ? a.flags[c] : full_box_flags<ORDER>(gi, gj, z, a.n);
            if (!MASKED || (fl & FLAG_SELF)) {
                T y[NS];
#pragma unroll
                for (int v = 0; v < NS; v++) y[v] = v == VI ? zq[R] : a.in[v][c];
                const T diff = plane_diffusion<T, ORDER>(tile, idx, pitch, zq, fl, a.coef, a.n);
                T p[M::nparam];
                model_params<M, T, false>(a, p);
                regional_params(a, c, p);
                M::step(y, diff, a.istim ? a.istim[c] : (T)0, a.dt, p);
                check_finite<NS>(y, c, a.step0 + 1, a.bad);
#pragma unroll
                for (int v = 0; v < NS; v++) a.out[v][c] = y[v];
            } else {
                a.out[VI][c] = zq[R];
            }
        }
        __syncthreads();
    }
}

struct window_launch {
    static constexpr bool folds = false;   // the thesis layouts as they were
    static constexpr int max_states = MARCHING_MAX_STATES;
    template <class M, class T, int ORDER, bool MASKED, bool FOLD>
    static void run(const launch_ctx &c)
    {
        const int R = ORDER / 2, ry = c.n[1] > 1 ? R : 0;
        const long tx = (c.n[0] + c.bx - 1) / c.bx, ty = (c.n[1] + c.by - 1) / c.by;
        const int zc = z_chunk(c.n[2], tx * ty, blocks_wanted(c.bx * c.by), 16);
        dim3 block(c.bx, c.by), grid(tx, ty, (c.n[2] + zc - 1) / zc);
        size_t smem = (size_t)(c.bx + 2 * R) * (c.by + 2 * ry) * sizeof(T);
        k_window<M, T, ORDER, MASKED><<<grid, block, smem, c.stream>>>(make_args<M, T>(c), zc);
    }
};

#endif
