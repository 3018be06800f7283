#include "stencil.h"

void stencil_setup(stencil *s, const grid *g, int order, const double D[3])
{
    s->order = order;
    for (int a = 0; a < 3; a++)
        s->coef[a] = a < g->dim ? D[a] / (g->h[a] * g->h[a]) : 0.0;
    s->full = g->ntissue == g->ncells;
}

double stencil_dt_limit(const stencil *s, const grid *g, double max_rate)
{
    /* Largest eigenvalue magnitude of the 1D second difference: 4 (order 2),
     * 16/3 (order 4, at the Nyquist mode). */
    double lam1 = s->order == 2 ? 4.0 : 16.0 / 3.0, lam = 0;
    for (int a = 0; a < g->dim; a++) lam += lam1 * s->coef[a];
    return 2.0 / (lam + max_rate);
}

void stencil_apply(const stencil *st, const grid *g, const float *V, float *out)
{
    #pragma omp parallel for collapse(2) schedule(static)
    for (int k = 0; k < g->n[2]; k++)
        for (int j = 0; j < g->n[1]; j++)
            for (int i = 0; i < g->n[0]; i++) {
                size_t c = grid_index(g, i, j, k);
                out[c] = g->mask[c] ? stencil_point_f32(st, g, V, i, j, k, c) : 0.0f;
            }
}
