// Index maps of the towerDS layout (cuda/launch.h, thesis 4.3).
#ifndef CARDIAC_CUDA_TOWER_CUH
#define CARDIAC_CUDA_TOWER_CUH
#include "launch.h"

// Start of layer z of the tower at tile (bx, by).
__host__ __device__ __forceinline__ size_t tower_layer(const tower_geom &g, int bx, int by, int z, int nz)
{
    return (((size_t)by * g.ntx + bx) * nz + z) * g.layer_size;
}

// Position of cell (i, j, k) in its own tower.
__host__ __device__ __forceinline__ size_t tower_index(const tower_geom &g, int i, int j, int k, int nz)
{
    return tower_layer(g, i / g.tx, j / g.ty, k, nz) + (size_t)(j % g.ty) * g.tx + i % g.tx;
}

// Stores value x of cell (i, j, k): in its tower, and in the x-halo copy of
// the tower to its left (when it is among the first r columns of its tile) or
// to its right (among the last r). Halo entry (side, col, row) sits at
// tx*ty + (side*r + col)*ty + row; side 0 holds the r columns left of the
// tile, side 1 the r columns right of it.
template <class T>
__device__ __forceinline__ void tower_store(T *a, const tower_geom &g, int i, int j, int k, int nz, T x)
{
    const int bx = i / g.tx, by = j / g.ty, lx = i % g.tx, ly = j % g.ty;
    const size_t core = (size_t)g.tx * g.ty;
    a[tower_layer(g, bx, by, k, nz) + (size_t)ly * g.tx + lx] = x;
    if (lx < g.r && bx > 0)
        a[tower_layer(g, bx - 1, by, k, nz) + core + (size_t)(g.r + lx) * g.ty + ly] = x;
    if (lx >= g.tx - g.r && bx < g.ntx - 1)
        a[tower_layer(g, bx + 1, by, k, nz) + core + (size_t)(lx - (g.tx - g.r)) * g.ty + ly] = x;
}

#endif
