/* Precision template (no include guard; instantiated in core/stencil.h):
 * the diffusion term at one tissue cell on the CPU, from the grid's mask and
 * the shared boundary rule of core/stencil_rule.h. */

static inline real R(stencil_point)(const stencil *st, const grid *g, const real *V,
                                    int i, int j, int k, size_t c)
{
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
