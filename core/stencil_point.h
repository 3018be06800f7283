/* Precision template (no include guard; instantiated in core/stencil.h):
 * the diffusion term at one tissue cell on the CPU, from the grid's mask and
 * the shared boundary rule of core/stencil_rule.h. */

/* The phase-field form (thesis eqs. 4.1-4.2; Fenton et al., Chaos 15:013502,
 * 2005), second order: (1/phi_c) sum_a D_a/h_a^2 sum_n (phi_c + phi_n)/2
 * (V_n - V_c) over the two neighbours n along each axis; a neighbour outside
 * the tissue or the box passes no flux. */
static inline real R(stencil_point_phase)(const stencil *st, const grid *g, const real *V,
                                          int i, int j, int k, size_t c)
{
    const ptrdiff_t stride[3] = {1, g->n[0], (ptrdiff_t)g->n[0] * g->n[1]};
    const int pos[3] = {i, j, k};
    const real pc = (real)g->phi[c], v0 = V[c];
    real sum = 0;
    for (int a = 0; a < g->dim; a++) {
        const ptrdiff_t s = stride[a];
        real flux = 0;
        if (st_in(g, c, pos[a], -1, g->n[a], s)) flux += (pc + (real)g->phi[c - s]) * (V[c - s] - v0);
        if (st_in(g, c, pos[a], 1, g->n[a], s)) flux += (pc + (real)g->phi[c + s]) * (V[c + s] - v0);
        sum += (real)st->coef[a] * flux;
    }
    return sum / (2 * pc);
}

static inline real R(stencil_point)(const stencil *st, const grid *g, const real *V,
                                    int i, int j, int k, size_t c)
{
    if (g->phi) return R(stencil_point_phase)(st, g, V, i, j, k, c);
    const int r = st->order / 2;
    const ptrdiff_t stride[3] = {1, g->n[0], (ptrdiff_t)g->n[0] * g->n[1]};
    const int pos[3] = {i, j, k};
    int interior = st->full;
    for (int a = 0; a < g->dim && interior; a++)
        interior = pos[a] >= r && pos[a] < g->n[a] - r;
    real sum = 0, v0 = V[c];
    for (int a = 0; a < g->dim; a++) {
        const ptrdiff_t s = stride[a];
        const real coef = (real)st->coef[a];
        if (interior) {
            real m2 = r > 1 ? V[c - 2 * s] : 0, p2 = r > 1 ? V[c + 2 * s] : 0;
            sum += coef * R(stencil_axis_interior)(v0, V[c - s], V[c + s], m2, p2, st->order);
            continue;
        }
        int im1 = st_in(g, c, pos[a], -1, g->n[a], s), ip1 = st_in(g, c, pos[a], 1, g->n[a], s);
        int im2 = r > 1 && im1 && st_in(g, c, pos[a], -2, g->n[a], s);
        int ip2 = r > 1 && ip1 && st_in(g, c, pos[a], 2, g->n[a], s);
        sum += coef * R(stencil_axis_rule)(v0, im1 ? V[c - s] : 0, ip1 ? V[c + s] : 0,
                                           im2 ? V[c - 2 * s] : 0, ip2 ? V[c + 2 * s] : 0,
                                           im1, ip1, im2, ip2, st->order);
    }
    return sum;
}
