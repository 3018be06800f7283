/* CPU backend: state in host memory as one float array per state variable,
 * one fused reaction-diffusion sweep per step, OpenMP over rows. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

typedef struct {
    float *var[MODEL_MAX_STATE];  /* state variable arrays, ncells each */
    float *vnext;                 /* next membrane potential (double buffer) */
    float *istim;                 /* stimulus current per cell, dV/dt */
} cpu_data;

static int cpu_init(sim *s, char *err, size_t errlen)
{
    const size_t N = s->g.ncells;
    const model_def *d = s->m.def;
    cpu_data *cd = calloc(1, sizeof *cd);
    if (!cd) return -1;
    s->bd = cd;
    for (int v = 0; v < d->nstate; v++) {
        cd->var[v] = malloc(N * sizeof(float));
        if (!cd->var[v]) return -1;
        for (size_t c = 0; c < N; c++) cd->var[v][c] = d->rest[v];
    }
    cd->vnext = malloc(N * sizeof(float));
    cd->istim = calloc(N, sizeof(float));
    return cd->vnext && cd->istim ? 0 : -1;
}

static void cpu_free(sim *s)
{
    cpu_data *cd = s->bd;
    if (!cd) return;
    for (int v = 0; v < MODEL_MAX_STATE; v++) free(cd->var[v]);
    free(cd->vnext);
    free(cd->istim);
    free(cd);
    s->bd = NULL;
}

static void cpu_sweep(sim *s)
{
    cpu_data *cd = s->bd;
    const grid *g = &s->g;
    const model_def *d = s->m.def;
    const int ns = d->nstate, vi = d->vindex;
    const float dt = (float)s->dt;
    const float *p = s->m.p;
    const float *V = cd->var[vi];
    long bad = LONG_MAX;

    #pragma omp parallel for collapse(2) schedule(static) reduction(min:bad)
    for (int k = 0; k < g->n[2]; k++)
        for (int j = 0; j < g->n[1]; j++)
            for (int i = 0; i < g->n[0]; i++) {
                size_t c = grid_index(g, i, j, k);
                if (!g->mask[c]) { cd->vnext[c] = V[c]; continue; }
                float y[MODEL_MAX_STATE];
                float diff = stencil_point(&s->st, g, V, i, j, k, c);
                for (int v = 0; v < ns; v++) y[v] = cd->var[v][c];
                d->step(y, diff, cd->istim[c], dt, p);
                int finite = 1;
                for (int v = 0; v < ns; v++) {
                    finite &= isfinite(y[v]);
                    if (v != vi) cd->var[v][c] = y[v];
                }
                cd->vnext[c] = y[vi];
                if (!finite && (long)c < bad) bad = (long)c;
            }
    float *tmp = cd->var[vi];
    cd->var[vi] = cd->vnext;
    cd->vnext = tmp;
    if (bad != LONG_MAX && s->bad_cell < 0) {
        s->bad_cell = bad;
        s->bad_var = 0;
        for (int v = 0; v < ns; v++)
            if (!isfinite(cd->var[v][bad])) { s->bad_var = v; break; }
    }
}

static void cpu_step(sim *s, long nsteps)
{
    for (long q = 0; q < nsteps && s->bad_cell < 0; q++) cpu_sweep(s);
}

static void cpu_stim_changed(sim *s)
{
    cpu_data *cd = s->bd;
    for (size_t q = 0; q < s->nstims; q++)
        for (size_t c = 0; c < s->stims[q].ncells; c++) cd->istim[s->stims[q].cells[c]] = 0.0f;
    for (size_t q = 0; q < s->nstims; q++) {
        if (!s->stim_on[q]) continue;
        const stimulus *st = &s->stims[q];
        for (size_t c = 0; c < st->ncells; c++) cd->istim[st->cells[c]] += (float)st->amplitude;
    }
}

static void cpu_get_field(sim *s, int var, float *dst)
{
    cpu_data *cd = s->bd;
    memcpy(dst, cd->var[var], s->g.ncells * sizeof(float));
}

static void cpu_set_field(sim *s, int var, const float *src)
{
    cpu_data *cd = s->bd;
    memcpy(cd->var[var], src, s->g.ncells * sizeof(float));
}

static void cpu_sample(sim *s, int var, const size_t *cells, size_t n, float *dst)
{
    cpu_data *cd = s->bd;
    for (size_t q = 0; q < n; q++) dst[q] = cd->var[var][cells[q]];
}

const backend_ops backend_cpu = {
    .name = "cpu",
    .init = cpu_init,
    .step = cpu_step,
    .stim_changed = cpu_stim_changed,
    .get_field = cpu_get_field,
    .set_field = cpu_set_field,
    .sample = cpu_sample,
    .free = cpu_free,
};
