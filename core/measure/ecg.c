/* Pseudo-ECG on the host (core/measure/ecg.h). */
#include <math.h>
#include <string.h>
#include "ecg.h"
#include "sim.h"

static double value(const void *v, int fp64, size_t c)
{
    return fp64 ? ((const double *)v)[c] : ((const float *)v)[c];
}

void ecg_sum_host(const sim *s, const void *v, int fp64, const double *el, int ne, double *acc)
{
    const grid *g = &s->lg;
    const size_t stride[3] = {1, (size_t)g->n[0], (size_t)g->n[0] * g->n[1]};
    const double vol = g->h[0] * (g->dim > 1 ? g->h[1] : 1) * (g->dim > 2 ? g->h[2] : 1);
    memset(acc, 0, ne * sizeof *acc);
    for (int k = s->own_lo[2]; k < s->own_hi[2]; k++)
        for (int j = s->own_lo[1]; j < s->own_hi[1]; j++)
            for (int i = s->own_lo[0]; i < s->own_hi[0]; i++) {
                const size_t c = grid_index(g, i, j, k);
                if (!g->mask[c]) continue;
                const int p[3] = {i, j, k}, gp[3] = {i + s->dc.slo[0], j + s->dc.slo[1], k + s->dc.slo[2]};
                double f[3] = {0, 0, 0}, x[3] = {0, 0, 0};
                for (int a = 0; a < g->dim; a++) {
                    const int tm = p[a] > 0 && g->mask[c - stride[a]], tp = p[a] + 1 < g->n[a] && g->mask[c + stride[a]];
                    f[a] = s->D[a] * ecg_gradient(tm ? value(v, fp64, c - stride[a]) : 0, value(v, fp64, c),
                                                  tp ? value(v, fp64, c + stride[a]) : 0, tm, tp, g->h[a]);
                    x[a] = grid_center(&s->g, a, gp[a]);
                }
                ecg_add_cell(f, x, vol, el, ne, acc);
            }
}
