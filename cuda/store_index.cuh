// Where a layout stores row-major cell c (shared by the layout conversions and
// the activation trackers).
#ifndef CARDIAC_STORE_INDEX_CUH
#define CARDIAC_STORE_INDEX_CUH
#include "launch.h"
#include "tower.cuh"

// Position of row-major cell c in a state array of layout m; (size_t)-1 for
// cells of blockDS blocks that are not stored.
__device__ __forceinline__ size_t stored_index(const store_map &m, size_t c)
{
    if (m.layout == LAYOUT_BLOCK) return block_store_index(&m.blocks, c);
    if (m.layout != LAYOUT_TOWER) return c;
    const size_t plane = (size_t)m.n[0] * m.n[1];
    const int k = (int)(c / plane), j = (int)(c % plane / m.n[0]), i = (int)(c % m.n[0]);
    return tower_index(m.tower, i, j, k, m.n[2]);
}

// Values per state array of layout m: the stored cells, with a tower's x-halo
// copies and the cells of stored blockDS blocks that lie past the box's end.
__host__ __device__ __forceinline__ size_t stored_values(const store_map &m)
{
    if (m.layout == LAYOUT_BLOCK) return m.blocks.nactive * m.blocks.bvol;
    if (m.layout == LAYOUT_TOWER) return m.tower.total;
    return (size_t)m.n[0] * m.n[1] * m.n[2];
}

#endif
