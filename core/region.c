#include <stdlib.h>
#include "region.h"

int region_contains(const region *r, const grid *g, int i, int j, int k)
{
    double x[3] = {grid_center(g, 0, i), grid_center(g, 1, j), grid_center(g, 2, k)};
    switch (r->kind) {
    case REGION_ALL: return 1;
    case REGION_SLAB: return x[r->axis] >= r->lo[r->axis] && x[r->axis] <= r->hi[r->axis];
    case REGION_BOX:
        for (int a = 0; a < g->dim; a++)
            if (x[a] < r->lo[a] || x[a] > r->hi[a]) return 0;
        return 1;
    case REGION_SPHERE: {
        double d2 = 0;
        for (int a = 0; a < g->dim; a++) d2 += (x[a] - r->center[a]) * (x[a] - r->center[a]);
        return d2 <= r->radius * r->radius;
    }
    case REGION_CELLS: return 0;
    }
    return 0;
}

size_t region_resolve(const region *r, const grid *g, int tissue_only, size_t **out)
{
    size_t n = 0, cap = 64;
    size_t *cells = malloc(cap * sizeof *cells);
    if (!cells) { *out = NULL; return 0; }
    if (r->kind == REGION_CELLS) {
        for (size_t q = 0; q < r->ncells; q++) {
            size_t c = r->cells[q];
            if (c >= g->ncells || (tissue_only && !g->mask[c])) continue;
            if (n == cap) cells = realloc(cells, (cap *= 2) * sizeof *cells);
            cells[n++] = c;
        }
    } else {
        for (int k = 0; k < g->n[2]; k++)
            for (int j = 0; j < g->n[1]; j++)
                for (int i = 0; i < g->n[0]; i++) {
                    size_t c = grid_index(g, i, j, k);
                    if ((tissue_only && !g->mask[c]) || !region_contains(r, g, i, j, k)) continue;
                    if (n == cap) cells = realloc(cells, (cap *= 2) * sizeof *cells);
                    cells[n++] = c;
                }
    }
    if (n == 0) { free(cells); cells = NULL; }
    *out = cells;
    return n;
}
