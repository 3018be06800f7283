/* Pseudo-ECG (core/measure/ecg.h): a simulation's lead sets, their samples,
 * and the sum over the owned tissue cells on the host (the CPU half; the GPU
 * half is ecg_cu.cu). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ecg.h"
#include "par.h"
#include "sim.h"
#include "state_view.h"

static void ecg_sum_host(const sim *s, const state_view *v, const double *el, int ne, double *acc)
{
    const grid *g = &s->lg;
    const int vi = s->m.def->vindex;
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
                    f[a] = s->D[a] * ecg_gradient(tm ? view_value(v, vi, c - stride[a]) : 0, view_value(v, vi, c),
                                                  tp ? view_value(v, vi, c + stride[a]) : 0, tm, tp, g->h[a]);
                    x[a] = grid_center(&s->g, a, gp[a]);
                }
                ecg_add_cell(f, x, vol, el, ne, acc);
            }
}

/* acc[e]: the sum over this rank's owned tissue cells (waits for the backend). */
static void ecg_sum(sim *s, ecg_leads *l, double *acc)
{
    state_view v;
    sim_view(s, VIEW_MASK, &v);
    if (s->failed) return;
#ifdef CARDIAC_HAVE_CUDA
    if (v.device) { ecg_sum_cu(s, &v, l, acc); return; }
#endif
    ecg_sum_host(s, &v, l->el, l->ne, acc);
}

/* One sample of every electrode of l now (waits for the backend; collective under MPI). */
static void ecg_record(sim *s, ecg_leads *l)
{
    if (l->nsamples == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        double *t = realloc(l->t, cap * sizeof *t), *phi = t ? realloc(l->phi, cap * l->ne * sizeof *phi) : NULL;
        if (t) l->t = t;
        if (!t || !phi) { sim_fail(s, "out of memory for pseudo-ECG samples"); return; }
        l->phi = phi;
        l->cap = cap;
    }
    double *row = l->phi + l->nsamples * l->ne;
    ecg_sum(s, l, row);
    par_sum_doubles(row, l->ne);
    l->t[l->nsamples++] = sim_time(s);
    l->last_step = s->nstep;
}

static void ecg_release(ecg_leads *l)
{
#ifdef CARDIAC_HAVE_CUDA
    if (l->dev_acc) ecg_release_cu(l);   /* (no CUDA call where the GPU was never used) */
#endif
    free(l->t);
    free(l->phi);
    free(l);
}

/* A feature of the step loop (core/engine/feature.h): a sample every `every`
 * steps after the first. */
static long ecg_steps_to(const sim *s, void *obj, long limit)
{
    const ecg_leads *l = obj;
    return feature_steps_to_every(s->nstep, l->last_step, l->every, limit);
}

static void ecg_at(sim *s, void *obj)
{
    ecg_leads *l = obj;
    if (feature_due_every(s->nstep, l->last_step, l->every, l->last_step)) ecg_record(s, l);
}

static void ecg_feature_release(sim *s, void *obj)
{
    (void)s;
    ecg_release(obj);
}

static const feature_ops ecg_feature = {FEATURE_MEASUREMENT, ecg_steps_to, ecg_at, ecg_feature_release};

ecg_leads *sim_add_ecg(sim *s, const char *name, const double *el, int ne, long every)
{
    ecg_leads *l = calloc(1, sizeof *l);
    ecg_leads **list = realloc(s->ecgs, (s->necgs + 1) * sizeof *list);
    if (!l || !list) { free(l); return NULL; }
    s->ecgs = list;
    snprintf(l->name, sizeof l->name, "%s", name);
    l->ne = ne;
    memcpy(l->el, el, 3 * ne * sizeof *el);
    l->every = every;
    s->ecgs[s->necgs++] = l;
    if (sim_attach(s, &ecg_feature, l) != 0) { s->necgs--; ecg_release(l); return NULL; }
    ecg_record(s, l);
    return l;
}
