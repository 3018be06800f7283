#include "stencil.h"

void stencil_setup(stencil *s, const grid *g, int order, const double D[3])
{
    s->order = order;
    for (int a = 0; a < 3; a++)
        s->coef[a] = a < g->dim ? D[a] / (g->h[a] * g->h[a]) : 0.0;
    s->full = g->ntissue == g->ncells;
    s->mcoef = NULL;
    s->mversion++;
}

/* With a phase field the operator's rows differ: by Gershgorin, its largest
 * eigenvalue magnitude is at most the largest 2 sum_a coef_a sum_n
 * (phi_c + phi_n) / (2 phi_c) over tissue cells c, which is large where a
 * small phi_c borders a larger phi_n (a sharp interface). */
static double phase_lambda(const stencil *s, const grid *g)
{
    const ptrdiff_t stride[3] = {1, g->n[0], (ptrdiff_t)g->n[0] * g->n[1]};
    double lam = 0;
    #pragma omp parallel for collapse(2) schedule(static) reduction(max:lam)
    for (int k = 0; k < g->n[2]; k++)
        for (int j = 0; j < g->n[1]; j++)
            for (int i = 0; i < g->n[0]; i++) {
                const size_t c = grid_index(g, i, j, k);
                if (!g->mask[c]) continue;
                const int pos[3] = {i, j, k};
                double row = 0;
                for (int a = 0; a < g->dim; a++)
                    for (int off = -1; off <= 1; off += 2)
                        if (st_in(g, c, pos[a], off, g->n[a], stride[a]))
                            row += s->coef[a] * (g->phi[c] + g->phi[(ptrdiff_t)c + off * stride[a]]) / (2.0 * g->phi[c]);
                lam = row > lam ? row : lam;
            }
    return 2 * lam;
}

double stencil_dt_limit(const stencil *s, const grid *g, double max_rate)
{
    if (g->phi) return 2.0 / (phase_lambda(s, g) + max_rate);
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
