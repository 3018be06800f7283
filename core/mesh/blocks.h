/* blockDS (thesis 4.4): the box is cut into blocks of b[0] x b[1] x b[2]
 * cells; only the blocks that hold tissue are stored, one after another in
 * the row-major order of the blocks, each block's cells row-major inside it.
 * A table gives each stored block the slots of its six neighbours, so the
 * diffusion stencil reaches across block faces without the empty blocks.
 *
 * Unlike the thesis, neighbours are read where they are stored (through the
 * table) instead of from halo buffers that each step refreshes: a face value
 * is read once by the neighbouring block instead of copied and then read
 * (docs/gpu.md, blockDS). The map is built on the host (core/mesh/blocks.c); its
 * index functions serve the CPU backend and, with device copies of the
 * tables, the GPU kernels. */
#ifndef CARDIAC_BLOCKS_H
#define CARDIAC_BLOCKS_H
#include <stddef.h>
#include <stdint.h>
#include "grid.h"
#include "qualifiers.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLOCK_NONE UINT32_MAX

typedef struct block_map {
    int n[3];           /* grid cells per axis (1 on unused axes) */
    int b[3];           /* block size, cells per axis (at most n) */
    int nb[3];          /* blocks per axis */
    size_t bvol;        /* cells per block */
    size_t nboxblocks;  /* blocks in the box */
    size_t nactive;     /* blocks with tissue: the stored ones */
    uint32_t *slot;     /* per box block: its place in storage, or BLOCK_NONE */
    uint32_t *origin;   /* per stored block: its box block index */
    int32_t *nbr;       /* per stored block, 6 values: the slot of its neighbour
                           at -x, +x, -y, +y, -z, +z, or -1 (none stored) */
    int lg[3];          /* log2 of b when all three are powers of two (the usual
                           2, 4, 8), else lg[0] = -1: positions then come from
                           shifts and masks instead of integer divisions */
} block_map;

/* Builds the map of grid g's mask for blocks of b cells per axis (clamped to
 * the grid's size). Returns 0, or -1 with a message in err. */
int block_map_build(block_map *bm, const grid *g, const int b[3], char *err, size_t errlen);
void block_map_free(block_map *bm);
static inline size_t block_map_cells(const block_map *bm) { return bm->nactive * bm->bvol; }
/* Warps (runs of 32 stored cells, one thread each) that hold tissue: what a
 * one-thread-per-cell kernel over the stored cells computes (a warp with no
 * tissue cell exits at once). */
size_t block_map_busy_warps(const block_map *bm, const grid *g);

/* Storage index of row-major cell c, or (size_t)-1 when its block is not stored. */
CARDIAC_HD size_t block_store_index(const block_map *bm, size_t c)
{
    const size_t plane = (size_t)bm->n[0] * bm->n[1];
    const int k = (int)(c / plane), j = (int)(c % plane / bm->n[0]), i = (int)(c % bm->n[0]);
    const size_t box = ((size_t)(k / bm->b[2]) * bm->nb[1] + j / bm->b[1]) * bm->nb[0] + i / bm->b[0];
    const uint32_t s = bm->slot[box];
    if (s == BLOCK_NONE) return (size_t)-1;
    return s * bm->bvol + ((size_t)(k % bm->b[2]) * bm->b[1] + j % bm->b[1]) * bm->b[0] + i % bm->b[0];
}

/* Storage indices are below 2^32 (block_map_build refuses larger maps), so
 * the index arithmetic below is 32-bit: a 64-bit division is a long software
 * sequence on the GPU, and these run for every cell of every step. */

/* Local position l in its block of storage index q. */
CARDIAC_HD void block_local(const block_map *bm, size_t q, int l[3])
{
    if (bm->lg[0] >= 0) {
        const uint32_t r = (uint32_t)q;
        l[0] = (int)(r & ((1u << bm->lg[0]) - 1));
        l[1] = (int)(r >> bm->lg[0] & ((1u << bm->lg[1]) - 1));
        l[2] = (int)(r >> (bm->lg[0] + bm->lg[1]) & ((1u << bm->lg[2]) - 1));
        return;
    }
    const uint32_t bv = (uint32_t)bm->bvol, b0 = (uint32_t)bm->b[0], b1 = (uint32_t)bm->b[1];
    const uint32_t r = (uint32_t)q % bv, rb = r / b0;
    l[0] = (int)(r - rb * b0);
    l[1] = (int)(rb % b1);
    l[2] = (int)(rb / b1);
}

/* The storage slot of the block that holds storage index q. */
CARDIAC_HD uint32_t block_slot(const block_map *bm, size_t q)
{
    if (bm->lg[0] >= 0) return (uint32_t)q >> (bm->lg[0] + bm->lg[1] + bm->lg[2]);
    return (uint32_t)q / (uint32_t)bm->bvol;
}

/* Grid position of storage index q: its local position in the block (l) and
 * in the grid (p). Returns 0 for padding cells past the grid's end. */
CARDIAC_HD int block_position(const block_map *bm, size_t q, int l[3], int p[3])
{
    block_local(bm, q, l);
    const uint32_t box = bm->origin[block_slot(bm, q)];
    const uint32_t nb0 = (uint32_t)bm->nb[0], nb1 = (uint32_t)bm->nb[1], bz = box / nb0;
    p[0] = (int)(box - bz * nb0) * bm->b[0] + l[0];
    p[1] = (int)(bz % nb1) * bm->b[1] + l[1];
    p[2] = (int)(bz / nb1) * bm->b[2] + l[2];
    return p[0] < bm->n[0] && p[1] < bm->n[1] && p[2] < bm->n[2];
}

/* Storage index of the cell off (|off| <= block size) cells along axis a from
 * storage index q, whose local position along a is la; (size_t)-1 when that
 * cell's block is not stored. The caller asks only for tissue cells inside
 * the box, whose blocks are stored. */
CARDIAC_HD size_t block_neighbour(const block_map *bm, size_t q, int la, int a, int off)
{
    const uint32_t stride = a == 0 ? 1u : a == 1 ? (uint32_t)bm->b[0] : (uint32_t)(bm->b[0] * bm->b[1]);
    const int t = la + off, w = bm->b[a];
    if (t >= 0 && t < w) return (size_t)((uint32_t)q + (uint32_t)off * stride);
    const uint32_t bv = (uint32_t)bm->bvol, slot = block_slot(bm, q);
    const int32_t s = bm->nbr[slot * 6 + 2 * a + (t >= w)];
    if (s < 0) return (size_t)-1;
    const uint32_t r0 = (uint32_t)q - slot * bv - (uint32_t)la * stride;   /* the cell at la = 0 */
    return (size_t)((uint32_t)s * bv + r0 + (uint32_t)(t < 0 ? t + w : t - w) * stride);
}

#ifdef __cplusplus
}
#endif

#endif
