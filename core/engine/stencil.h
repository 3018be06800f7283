/* Diffusion operator sum_a D_a d2V/dx_a^2 by finite differences on the grid:
 * order 2: 7-point (3D) stencil; order 4: 13-point stencil (thesis eq. 5.2),
 * 1D weights (-1, 16, -30, 16, -1)/12.
 * No-flux boundaries by mirrored ghost cells: a neighbour outside the box or
 * outside the tissue mask takes the value of its mirror image across the
 * boundary face (core/engine/stencil_rule.h, shared with the GPU kernels). This keeps
 * the sum of V over the tissue exactly constant under pure diffusion
 * (docs/numerics.md). */
#ifndef CARDIAC_STENCIL_H
#define CARDIAC_STENCIL_H
#include <stddef.h>
#include "blocks.h"
#include "grid.h"

typedef struct {
    int order;        /* 2 or 4 */
    double coef[3];   /* D_a / h_a^2, 1/ms */
    int full;         /* grid has no mask holes: skip mask tests */
    /* An ensemble whose members' D differ (core/engine/members.h): per layer
     * of the grid along axis maxis (a member), its own coef[3]; NULL: coef
     * everywhere. mversion counts the changes (the GPU copies it anew). */
    const double *mcoef;
    int maxis;
    unsigned mversion;
} stencil;

/* Sets order and coef from D, one set for every cell (mcoef NULL); keeps
 * maxis. */
void stencil_setup(stencil *s, const grid *g, int order, const double D[3]);

/* Largest stable forward-Euler dt (ms) for diffusion plus a reaction whose
 * Jacobian is bounded by max_rate (1/ms): dt <= 2 / (lambda_diff + max_rate). */
double stencil_dt_limit(const stencil *s, const grid *g, double max_rate);

/* Whether the neighbour at offset off along an axis (position pos of n, memory
 * stride) is tissue inside the box. */
static inline int st_in(const grid *g, size_t c, int pos, int off, int n, ptrdiff_t stride)
{
    int q = pos + off;
    return q >= 0 && q < n && g->mask[(ptrdiff_t)c + off * stride];
}

/* Where a cell's state is stored: row-major (bm NULL, q == c) or in a
 * blockDS map (core/mesh/blocks.h) at storage index q, local position lpos in its
 * block. The mask and the phase field stay row-major, indexed by c. */
typedef struct {
    const block_map *bm;
    size_t c, q;
    int pos[3], lpos[3];
} st_cell;

/* Storage index of the cell off cells along axis a (memory stride in the
 * row-major grid) of the cell x. */
static inline size_t st_at(const st_cell *x, int a, int off, ptrdiff_t stride)
{
    if (x->bm) return block_neighbour(x->bm, x->q, x->lpos[a], a, off);
    return (size_t)((ptrdiff_t)x->q + off * stride);
}

#include "instances.h"
/* R(stencil_point)(st, g, V, i, j, k, c): diffusion term at tissue cell (i,j,k) = c
 * of a row-major V; R(stencil_point_at)(st, g, V, x): at the cell x of V stored
 * as x says. */
#define CARDIAC_TEMPLATE "stencil_point.h"
#include "instantiate.h"

/* out[c] = diffusion term at every tissue cell (0 elsewhere), single precision. */
void stencil_apply(const stencil *st, const grid *g, const float *V, float *out);

#endif
