/* Precision template (no include guard; instantiated in core/engine/stencil.h):
 * the diffusion term at one tissue cell on the CPU, from the grid's mask and
 * the shared boundary rule of core/engine/stencil_rule.h. V is stored row-major or
 * in blockDS blocks; st_at() finds a neighbour either way. */

/* The phase-field form (thesis eqs. 4.1-4.2; Fenton et al., Chaos 15:013502,
 * 2005), second order: (1/phi_c) sum_a D_a/h_a^2 sum_n (phi_c + phi_n)/2
 * (V_n - V_c) over the two neighbours n along each axis; a neighbour outside
 * the tissue or the box passes no flux. */
static inline real R(stencil_point_phase)(const stencil *st, const grid *g, const real *V, const st_cell *x)
{
    const ptrdiff_t stride[3] = {1, g->n[0], (ptrdiff_t)g->n[0] * g->n[1]};
    const size_t c = x->c;
    const real pc = (real)g->phi[c], v0 = V[x->q];
    const double *coef = st->mcoef ? st->mcoef + 3 * (size_t)x->pos[st->maxis] : st->coef;
    real sum = 0;
    for (int a = 0; a < g->dim; a++) {
        const ptrdiff_t s = stride[a];
        real flux = 0;
        if (st_in(g, c, x->pos[a], -1, g->n[a], s)) flux += (pc + (real)g->phi[c - s]) * (V[st_at(x, a, -1, s)] - v0);
        if (st_in(g, c, x->pos[a], 1, g->n[a], s)) flux += (pc + (real)g->phi[c + s]) * (V[st_at(x, a, 1, s)] - v0);
        sum += (real)coef[a] * flux;
    }
    return sum / (2 * pc);
}

/* Second order: sum_a coef_a (M_a + P_a) - w v0, w = 2 sum_a coef_a, where
 * a missing neighbour M or P takes v0 (stencil_rule.h's pair rule); the
 * neighbours are summed before the centre, which costs two operations fewer
 * a cell than summing each axis's second difference (docs/numerics.md,
 * "Rounding of the diffusion term"; the GPU kernels' form, centre_term in
 * cuda/device_common.cuh). */
static inline real R(stencil_point_order2)(const grid *g, const real *V, const st_cell *x, const double *cf,
                                           int interior)
{
    const ptrdiff_t stride[3] = {1, g->n[0], (ptrdiff_t)g->n[0] * g->n[1]};
    const size_t c = x->c;
    const real v0 = V[x->q];
    real sum = 0, w = 0;
    for (int a = 0; a < g->dim; a++) {
        const ptrdiff_t s = stride[a];
        const int p = x->pos[a];
        const real coef = (real)cf[a];
        const int im1 = interior || st_in(g, c, p, -1, g->n[a], s), ip1 = interior || st_in(g, c, p, 1, g->n[a], s);
        sum += coef * R(stencil_pair_rule)(v0, im1 ? V[st_at(x, a, -1, s)] : 0, ip1 ? V[st_at(x, a, 1, s)] : 0, im1,
                                           ip1);
        w += coef;
    }
    return sum - (2 * w) * v0;
}

static inline real R(stencil_point_at)(const stencil *st, const grid *g, const real *V, const st_cell *x)
{
    if (g->phi) return R(stencil_point_phase)(st, g, V, x);
    const int r = st->order / 2;
    const ptrdiff_t stride[3] = {1, g->n[0], (ptrdiff_t)g->n[0] * g->n[1]};
    const size_t c = x->c;
    int interior = st->full;
    for (int a = 0; a < g->dim && interior; a++)
        interior = x->pos[a] >= r && x->pos[a] < g->n[a] - r;
    real sum = 0, v0 = V[x->q];
    /* an ensemble whose members' D differ: the member's (its layer's) coefficients */
    const double *cf = st->mcoef ? st->mcoef + 3 * (size_t)x->pos[st->maxis] : st->coef;
    if (st->order == 2) return R(stencil_point_order2)(g, V, x, cf, interior);
    /* fourth order: the sum of the axes' five-point second differences */
    for (int a = 0; a < g->dim; a++) {
        const ptrdiff_t s = stride[a];
        const int p = x->pos[a];
        const real coef = (real)cf[a];
        if (interior) {
            sum += coef * R(stencil_axis_interior)(v0, V[st_at(x, a, -1, s)], V[st_at(x, a, 1, s)],
                                                   V[st_at(x, a, -2, s)], V[st_at(x, a, 2, s)]);
            continue;
        }
        int im1 = st_in(g, c, p, -1, g->n[a], s), ip1 = st_in(g, c, p, 1, g->n[a], s);
        int im2 = im1 && st_in(g, c, p, -2, g->n[a], s);
        int ip2 = ip1 && st_in(g, c, p, 2, g->n[a], s);
        sum += coef * R(stencil_axis_rule)(v0, im1 ? V[st_at(x, a, -1, s)] : 0, ip1 ? V[st_at(x, a, 1, s)] : 0,
                                           im2 ? V[st_at(x, a, -2, s)] : 0, ip2 ? V[st_at(x, a, 2, s)] : 0,
                                           im1, ip1, im2, ip2);
    }
    return sum;
}

static inline real R(stencil_point)(const stencil *st, const grid *g, const real *V,
                                    int i, int j, int k, size_t c)
{
    const st_cell x = {NULL, c, c, {i, j, k}, {0, 0, 0}};
    return R(stencil_point_at)(st, g, V, &x);
}
