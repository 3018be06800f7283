// Where a layout stores row-major cell c (shared by the layout conversions and
// the activation trackers).
#ifndef CARDIAC_STORE_INDEX_CUH
#define CARDIAC_STORE_INDEX_CUH
#include <type_traits>
#include <cuda_fp16.h>
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

// Calls f with a null pointer of the element type of storage `kind`
// (STORE_F32, STORE_F64, STORE_F16, STORE_U16; launch.h) and the elements from one
// stored value to the next (2 for 16-bit states: every other half, pair16_first),
// which pick a kernel's instance; for the layout conversions and the
// features' GPU halves alike.
template <int S> using stride_c = std::integral_constant<int, S>;
template <class F>
void by_kind(int kind, F f)
{
    if (kind == STORE_F64) f((double *)nullptr, stride_c<1>{});
    else if (kind == STORE_F16) f((__half *)nullptr, stride_c<2>{});
    else if (kind == STORE_U16) f((frac16 *)nullptr, stride_c<2>{});
    else f((float *)nullptr, stride_c<1>{});
}
template <class P> using elem = std::remove_pointer_t<P>;

#endif
