/* The blockDS map (core/mesh/blocks.h) on random masks and block sizes that do
 * and do not divide the grid: every tissue cell is stored exactly once, the
 * stored blocks are exactly those with tissue, storage index and position
 * invert each other, and the neighbour lookup across block faces finds the
 * same cell as row-major arithmetic for offsets of 1 and 2 along every axis. */
#include <stdlib.h>
#include <string.h>
#include "blocks.h"
#include "check.h"

static unsigned rng_state = 12345;
static unsigned next_rand(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

/* A mask of random solid balls (so that whole blocks are empty and others full). */
static void random_mask(grid *g)
{
    memset(g->mask, 0, g->ncells);
    for (int b = 0; b < 4; b++) {
        double c[3], r = 1 + next_rand() % 6;
        for (int a = 0; a < 3; a++) c[a] = next_rand() % g->n[a];
        for (size_t q = 0; q < g->ncells; q++) {
            int p[3];
            grid_ijk(g, q, &p[0], &p[1], &p[2]);
            double d2 = 0;
            for (int a = 0; a < 3; a++) d2 += (p[a] - c[a]) * (p[a] - c[a]);
            if (d2 <= r * r) g->mask[q] = 1;
        }
    }
    grid_recount(g);
}

static void check_map(const grid *g, const int b[3])
{
    block_map bm;
    char err[256];
    CHECK(block_map_build(&bm, g, b, err, sizeof err) == 0, "build: %s", err);
    const size_t nstore = block_map_cells(&bm);
    unsigned char *seen = calloc(nstore, 1);
    size_t bad_index = 0, bad_nbr = 0, tissue = 0, empty_blocks = 0;
    for (size_t c = 0; c < g->ncells; c++) {
        size_t q = block_store_index(&bm, c);
        if (!g->mask[c]) continue;
        tissue++;
        if (q >= nstore || seen[q]) { bad_index++; continue; }
        seen[q] = 1;
        int l[3], p[3], i, j, k;
        grid_ijk(g, c, &i, &j, &k);
        if (!block_position(&bm, q, l, p) || p[0] != i || p[1] != j || p[2] != k) bad_index++;
        const int pos[3] = {i, j, k};
        const ptrdiff_t stride[3] = {1, g->n[0], (ptrdiff_t)g->n[0] * g->n[1]};
        for (int a = 0; a < 3; a++)
            for (int off = -2; off <= 2; off++) {
                if (!off || pos[a] + off < 0 || pos[a] + off >= g->n[a] || abs(off) > bm.b[a]) continue;
                size_t nc = (size_t)((ptrdiff_t)c + off * stride[a]);
                size_t want = block_store_index(&bm, nc), got = block_neighbour(&bm, q, l[a], a, off);
                if (got != want) bad_nbr++;
            }
    }
    /* every stored block holds tissue */
    for (size_t s = 0; s < bm.nactive; s++) {
        int any = 0;
        for (size_t q = s * bm.bvol; q < (s + 1) * bm.bvol && !any; q++) {
            int l[3], p[3];
            any = block_position(&bm, q, l, p) && g->mask[grid_index(g, p[0], p[1], p[2])];
        }
        empty_blocks += !any;
    }
    CHECK(tissue == g->ntissue && bad_index == 0, "blocks %dx%dx%d: %zu of %zu tissue cells misplaced", b[0], b[1],
          b[2], bad_index, tissue);
    CHECK(bad_nbr == 0, "blocks %dx%dx%d: %zu neighbour lookups differ from row-major", b[0], b[1], b[2], bad_nbr);
    CHECK(empty_blocks == 0, "blocks %dx%dx%d: %zu stored blocks hold no tissue", b[0], b[1], b[2], empty_blocks);
    printf("  %3dx%3dx%3d cells, blocks %dx%dx%d: %zu of %zu blocks stored, %.3f of the box\n", g->n[0], g->n[1],
           g->n[2], bm.b[0], bm.b[1], bm.b[2], bm.nactive, bm.nboxblocks, (double)nstore / g->ncells);
    free(seen);
    block_map_free(&bm);
}

int main(void)
{
    const int sizes[][3] = {{37, 29, 23}, {64, 32, 16}, {50, 1, 1}, {41, 33, 1}};
    const int blocks[][3] = {{8, 8, 8}, {3, 5, 2}, {2, 2, 2}, {16, 4, 1}, {1, 1, 1}, {64, 64, 64}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        grid g;
        char err[256];
        const double h[3] = {0.1, 0.1, 0.1};
        const int dim = sizes[s][2] > 1 ? 3 : sizes[s][1] > 1 ? 2 : 1;
        CHECK(grid_init(&g, dim, sizes[s], h, err, sizeof err) == 0, "grid: %s", err);
        random_mask(&g);
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) check_map(&g, blocks[b]);
        /* a full box whose sides the block size divides stores every block */
        memset(g.mask, 1, g.ncells);
        grid_recount(&g);
        block_map bm;
        const int b4[3] = {1, 1, 1};
        CHECK(block_map_build(&bm, &g, b4, err, sizeof err) == 0 && block_map_cells(&bm) == g.ncells,
              "full box: every cell stored once");
        block_map_free(&bm);
        grid_free(&g);
    }
    return check_summary();
}
