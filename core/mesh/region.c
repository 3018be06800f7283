#include <stdlib.h>
#include "region.h"

/* Inside the ellipsoid with centre c and semi-axes r (normalised coordinates)? */
static int in_ellipsoid(const double *u, const double *c, const double *r)
{
    double s = 0;
    for (int a = 0; a < 3; a++) s += (u[a] - c[a]) * (u[a] - c[a]) / (r[a] * r[a]);
    return s <= 1;
}

/* A synthetic bi-ventricular heart filling the grid's box (issue 5; the
 * thesis' pig heart is not public): a truncated ellipsoidal left-ventricular
 * shell and a right-ventricular shell wrapped around one side of it, the base
 * at the top of z. Coordinates are fractions of the box, so the shape fits any
 * grid; on a 250 x 326 x 298 box about 27% of the cells are tissue, as in the
 * thesis' heart (tests/api.lua). */
static int in_biventricle(const double *u)
{
    static const double base = 0.9;
    static const double lvc[3] = {0.40, 0.50, 0.9}, lvo[3] = {0.32, 0.36, 0.88}, lvi[3] = {0.15, 0.17, 0.74};
    static const double rvc[3] = {0.54, 0.50, 0.9}, rvo[3] = {0.45, 0.48, 0.79}, rvi[3] = {0.36, 0.40, 0.70};
    if (u[2] > base) return 0;
    const int lv_out = in_ellipsoid(u, lvc, lvo);
    if (lv_out) return !in_ellipsoid(u, lvc, lvi);                  /* LV wall and septum */
    return in_ellipsoid(u, rvc, rvo) && !in_ellipsoid(u, rvc, rvi); /* RV free wall */
}

int region_contains(const region *r, const grid *g, int i, int j, int k)
{
    /* A 2D sheet lies in the plane z = 0 (as for function regions): a
     * region's z is honoured, not dropped (a sphere centred off the plane cuts
     * it in a smaller disc, a box or slab away from it holds no cell). */
    const double c[3] = {grid_center(g, 0, i), grid_center(g, 1, j), grid_center(g, 2, k)};
    const double x[3] = {c[0], c[1], g->dim > 2 ? c[2] : 0.0};
    switch (r->kind) {
    case REGION_ALL: return 1;
    case REGION_SLAB: return x[r->axis] >= r->lo[r->axis] && x[r->axis] <= r->hi[r->axis];
    case REGION_BOX:
        for (int a = 0; a < 3; a++)
            if (x[a] < r->lo[a] || x[a] > r->hi[a]) return 0;
        return 1;
    case REGION_SPHERE: {
        double d2 = 0;
        for (int a = 0; a < 3; a++) d2 += (x[a] - r->center[a]) * (x[a] - r->center[a]);
        return d2 <= r->radius * r->radius;
    }
    case REGION_CYLINDER: {
        double d2 = 0;
        for (int a = 0; a < 3; a++)
            if (a != r->axis) d2 += (x[a] - r->center[a]) * (x[a] - r->center[a]);
        return d2 <= r->radius * r->radius && d2 >= r->inner * r->inner;
    }
    case REGION_BIVENTRICLE: {
        double u[3];
        for (int a = 0; a < 3; a++) u[a] = c[a] / (g->n[a] * g->h[a]);   /* the box's fractions */
        return in_biventricle(u);
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
