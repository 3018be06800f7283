/* Diffusion operator sum_a D_a d2V/dx_a^2 by finite differences on the grid:
 * order 2: 7-point (3D) stencil; order 4: 13-point stencil (thesis eq. 5.2),
 * 1D weights (-1, 16, -30, 16, -1)/12.
 * No-flux boundaries by mirrored ghost cells: a neighbour outside the box or
 * outside the tissue mask takes the value of its mirror image across the
 * boundary face. This keeps the sum of V over the tissue exactly constant
 * under pure diffusion (docs/numerics.md). */
#ifndef CARDIAC_STENCIL_H
#define CARDIAC_STENCIL_H
#include <stddef.h>
#include "grid.h"

typedef struct {
    int order;        /* 2 or 4 */
    float coef[3];    /* D_a / h_a^2, 1/ms */
    int full;         /* grid has no mask holes: skip mask tests */
} stencil;

void stencil_setup(stencil *s, const grid *g, int order, const double D[3]);

/* Largest stable forward-Euler dt (ms) for diffusion plus a reaction whose
 * Jacobian is bounded by max_rate (1/ms): dt <= 2 / (lambda_diff + max_rate). */
double stencil_dt_limit(const stencil *s, const grid *g, double max_rate);

static inline int st_in(const grid *g, size_t c, int pos, int off, int n, ptrdiff_t stride)
{
    int q = pos + off;
    return q >= 0 && q < n && g->mask[(ptrdiff_t)c + off * stride];
}

/* Second difference along one axis at cell c (position pos of n), mirrored at borders. */
static inline float stencil_axis(const grid *g, const float *V, size_t c, int pos, int n,
                                 ptrdiff_t s, int order)
{
    float v0 = V[c];
    int ip1 = st_in(g, c, pos, 1, n, s), im1 = st_in(g, c, pos, -1, n, s);
    float p1 = ip1 ? V[c + s] : v0;
    float m1 = im1 ? V[c - s] : v0;
    if (order == 2) return p1 + m1 - 2.0f * v0;
    float p2 = ip1 ? (st_in(g, c, pos, 2, n, s) ? V[c + 2 * s] : p1) : m1;
    float m2 = im1 ? (st_in(g, c, pos, -2, n, s) ? V[c - 2 * s] : m1) : p1;
    return (-p2 + 16.0f * p1 - 30.0f * v0 + 16.0f * m1 - m2) * (1.0f / 12.0f);
}

/* Diffusion term at tissue cell (i,j,k) = c. */
static inline float stencil_point(const stencil *st, const grid *g, const float *V,
                                  int i, int j, int k, size_t c)
{
    const int r = st->order / 2;
    const ptrdiff_t sx = 1, sy = g->n[0], sz = (ptrdiff_t)g->n[0] * g->n[1];
    int pos[3] = {i, j, k};
    ptrdiff_t stride[3] = {sx, sy, sz};
    int interior = st->full;
    for (int a = 0; a < g->dim && interior; a++)
        interior = pos[a] >= r && pos[a] < g->n[a] - r;
    float sum = 0.0f;
    if (interior && st->order == 2) {
        for (int a = 0; a < g->dim; a++)
            sum += st->coef[a] * (V[c + stride[a]] + V[c - stride[a]] - 2.0f * V[c]);
        return sum;
    }
    if (interior) {
        for (int a = 0; a < g->dim; a++) {
            ptrdiff_t s = stride[a];
            sum += st->coef[a] * (1.0f / 12.0f)
                 * (-V[c + 2 * s] + 16.0f * V[c + s] - 30.0f * V[c] + 16.0f * V[c - s] - V[c - 2 * s]);
        }
        return sum;
    }
    for (int a = 0; a < g->dim; a++)
        sum += st->coef[a] * stencil_axis(g, V, c, pos[a], g->n[a], stride[a], st->order);
    return sum;
}

/* out[c] = diffusion term at every tissue cell (0 elsewhere). */
void stencil_apply(const stencil *st, const grid *g, const float *V, float *out);

#endif
