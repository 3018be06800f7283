// Device code shared by the kernels that march a 2D tile of threads along z
// (sliding window, towerDS, temporal blocking): the diffusion term at a cell
// from a shared-memory plane (x and y neighbours) and a register queue of its
// own column (z neighbours), and the split of z into chunks so that small
// x-y tilings still give the GPU enough blocks.
#ifndef CARDIAC_CUDA_MARCHING_CUH
#define CARDIAC_CUDA_MARCHING_CUH
#include "dispatch.cuh"

// pl: the plane in shared memory, idx the cell's position in it, pitch the
// row length; zq: V at planes z-R .. z+R of the cell's column (R = ORDER/2).
// Neighbours whose flag is 0 are read but not used.
template <class T, int ORDER>
__device__ __forceinline__ T plane_diffusion(const T *pl, int idx, int pitch, const T *zq, unsigned fl,
                                             const T *coef, const int *n)
{
    constexpr int R = ORDER / 2;
    const T v0 = zq[R];
    if ((fl & 0xFFFu) == 0xFFFu) {                    // every neighbour is tissue
        T diff = first_term(coef[0], interior_part<T, ORDER>(pl + idx, 1));
        if (n[1] > 1) diff = next_term(diff, coef[1], interior_part<T, ORDER>(pl + idx, pitch));
        if (n[2] > 1) diff = next_term(diff, coef[2], interior_part<T, ORDER>(zq + R, 1));
        return centre_term<T, ORDER>(diff, coef, v0);
    }
    T diff = first_term(coef[0], axis_part<T, ORDER>(v0, pl[idx - 1], pl[idx + 1], ORDER == 4 ? pl[idx - 2] : v0,
                                                     ORDER == 4 ? pl[idx + 2] : v0, fl & 0xF));
    if (n[1] > 1)
        diff = next_term(diff, coef[1], axis_part<T, ORDER>(v0, pl[idx - pitch], pl[idx + pitch],
                                                            ORDER == 4 ? pl[idx - 2 * pitch] : v0,
                                                            ORDER == 4 ? pl[idx + 2 * pitch] : v0, fl >> 4 & 0xF));
    if (n[2] > 1)
        diff = next_term(diff, coef[2], axis_part<T, ORDER>(v0, zq[R - 1], zq[R + 1], zq[ORDER == 4 ? R - 2 : R],
                                                            zq[ORDER == 4 ? R + 2 : R], fl >> 8 & 0xF));
    return centre_term<T, ORDER>(diff, coef, v0);
}

// Planes per block along z so that about `want` blocks run in all (at least
// min_planes per chunk, to bound the cost of the chunk's halo planes).
inline int z_chunk(int nz, long tiles, long want, int min_planes)
{
    long chunks = (want + tiles - 1) / tiles;
    if (chunks < 1) chunks = 1;
    int zc = (int)((nz + chunks - 1) / chunks);
    if (zc < min_planes) zc = min_planes;
    return zc > nz ? nz : zc;
}

// Number of blocks of this many threads that keeps every SM of the current
// device busy for two waves (cuda/backend_cuda.cu).
long blocks_wanted(int threads_per_block);

#endif
