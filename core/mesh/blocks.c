/* Building the blockDS map (core/mesh/blocks.h): thesis algorithms 4 and 7 (the
 * stored blocks in row-major order, then the neighbour table). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blocks.h"

void block_map_free(block_map *bm)
{
    free(bm->slot);
    free(bm->origin);
    free(bm->nbr);
    memset(bm, 0, sizeof *bm);
}

/* Marks the box blocks that hold at least one tissue cell. */
static void mark_active(block_map *bm, const grid *g)
{
    for (int k = 0; k < bm->n[2]; k++)
        for (int j = 0; j < bm->n[1]; j++) {
            const size_t row = ((size_t)(k / bm->b[2]) * bm->nb[1] + j / bm->b[1]) * bm->nb[0];
            const uint8_t *m = g->mask + grid_index(g, 0, j, k);
            for (int i = 0; i < bm->n[0]; i++)
                if (m[i]) bm->slot[row + i / bm->b[0]] = 0;
        }
}

/* Slot of the box block at block position p[] moved by d along axis a, or -1. */
static int32_t neighbour_slot(const block_map *bm, const int p[3], int a, int d)
{
    int q[3] = {p[0], p[1], p[2]};
    q[a] += d;
    if (q[a] < 0 || q[a] >= bm->nb[a]) return -1;
    const uint32_t s = bm->slot[((size_t)q[2] * bm->nb[1] + q[1]) * bm->nb[0] + q[0]];
    return s == BLOCK_NONE ? -1 : (int32_t)s;
}

int block_map_build(block_map *bm, const grid *g, const int b[3], char *err, size_t errlen)
{
    memset(bm, 0, sizeof *bm);
    bm->bvol = 1;
    bm->nboxblocks = 1;
    for (int a = 0; a < 3; a++) {
        if (b[a] < 1) {
            snprintf(err, errlen, "block size must be at least 1 cell per axis, got %d along axis %d", b[a], a + 1);
            return -1;
        }
        bm->n[a] = g->n[a];
        bm->b[a] = b[a] < g->n[a] ? b[a] : g->n[a];
        bm->nb[a] = (g->n[a] + bm->b[a] - 1) / bm->b[a];
        bm->bvol *= (size_t)bm->b[a];
        bm->nboxblocks *= (size_t)bm->nb[a];
        for (bm->lg[a] = 0; (1 << bm->lg[a]) < bm->b[a]; bm->lg[a]++) {}
    }
    if ((1 << bm->lg[0]) != bm->b[0] || (1 << bm->lg[1]) != bm->b[1] || (1 << bm->lg[2]) != bm->b[2]) bm->lg[0] = -1;
    bm->slot = malloc(bm->nboxblocks * sizeof *bm->slot);
    if (!bm->slot) goto oom;
    memset(bm->slot, 0xff, bm->nboxblocks * sizeof *bm->slot);
    mark_active(bm, g);
    for (size_t q = 0; q < bm->nboxblocks; q++)
        if (bm->slot[q] != BLOCK_NONE) bm->slot[q] = (uint32_t)bm->nactive++;
    /* the neighbour table holds slots as int32, and storage indices are 32-bit (core/mesh/blocks.h) */
    if (bm->nactive >= INT32_MAX || (double)bm->nactive * bm->bvol >= 4294967295.0) {
        snprintf(err, errlen, "blockDS stores at most 2^32 cells; these blocks of %zu cells would store %.4g",
                 bm->bvol, (double)bm->nactive * bm->bvol);
        block_map_free(bm);
        return -1;
    }
    bm->origin = malloc((bm->nactive ? bm->nactive : 1) * sizeof *bm->origin);
    bm->nbr = malloc((bm->nactive ? bm->nactive : 1) * 6 * sizeof *bm->nbr);
    if (!bm->origin || !bm->nbr) goto oom;
    for (size_t q = 0; q < bm->nboxblocks; q++) {
        const uint32_t s = bm->slot[q];
        if (s == BLOCK_NONE) continue;
        bm->origin[s] = (uint32_t)q;
        const int p[3] = {(int)(q % bm->nb[0]), (int)(q / bm->nb[0] % bm->nb[1]),
                          (int)(q / ((size_t)bm->nb[0] * bm->nb[1]))};
        for (int a = 0; a < 3; a++) {
            bm->nbr[6 * s + 2 * a] = neighbour_slot(bm, p, a, -1);
            bm->nbr[6 * s + 2 * a + 1] = neighbour_slot(bm, p, a, 1);
        }
    }
    return 0;
oom:
    block_map_free(bm);
    snprintf(err, errlen, "out of memory building the block map");
    return -1;
}

size_t block_map_busy_warps(const block_map *bm, const grid *g)
{
    const size_t n = block_map_cells(bm);
    size_t busy = 0;
    for (size_t w = 0; w < n; w += 32) {
        int any = 0;
        for (size_t q = w; q < w + 32 && q < n && !any; q++) {
            int l[3], p[3];
            any = block_position(bm, q, l, p) && g->mask[grid_index(g, p[0], p[1], p[2])];
        }
        busy += any;
    }
    return busy;
}
