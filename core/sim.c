#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "output.h"
#include "sim.h"

double sim_bytes_needed(const grid *g, const model_def *d)
{
    /* state variables + next V + stimulus current, fp32, plus the mask */
    return (double)g->ncells * ((d->nstate + 2) * sizeof(float) + 1);
}

static const backend_ops *find_backend(const char *name)
{
    if (!name || strcmp(name, "cpu") == 0) return &backend_cpu;
    return NULL;
}

int sim_set_diffusion(sim *s, const double D[3], char *err, size_t errlen)
{
    stencil st;
    stencil_setup(&st, &s->g, s->order, D);
    double lim = stencil_dt_limit(&st, &s->g, s->m.def->max_rate);
    if (s->dt > lim) {
        snprintf(err, errlen,
                 "dt = %g ms is above the explicit stability limit for D = (%g, %g, %g) mm^2/ms "
                 "and this mesh: the largest stable dt is %.6g ms", s->dt, D[0], D[1], D[2], lim);
        return -1;
    }
    s->st = st;
    memcpy(s->D, D, sizeof s->D);
    return 0;
}

sim *sim_create(const grid *g, const model_inst *m, const sim_config *cfg, char *err, size_t errlen)
{
    const backend_ops *be = find_backend(cfg->backend);
    if (!be) {
        snprintf(err, errlen, "backend '%s' is not available in this build (available: cpu)", cfg->backend);
        return NULL;
    }
    double need = sim_bytes_needed(g, m->def);
    size_t avail = host_memory_available();
    if (avail && need > (double)avail) {
        char a[32], b[32];
        format_bytes(need, a, sizeof a);
        format_bytes((double)avail, b, sizeof b);
        snprintf(err, errlen, "the simulation needs %s of memory for %zu cells x %d state variables; "
                 "only %s is available", a, g->ncells, m->def->nstate, b);
        return NULL;
    }
    sim *s = calloc(1, sizeof *s);
    if (!s || grid_copy(&s->g, g) != 0) {
        snprintf(err, errlen, "out of memory creating the simulation");
        free(s);
        return NULL;
    }
    grid_recount(&s->g);
    s->m = *m;
    s->order = cfg->order;
    s->dt = cfg->dt;
    s->bad_cell = -1;
    if (sim_set_diffusion(s, cfg->D, err, errlen) != 0) { sim_destroy(s); return NULL; }
    s->be = be;
    if (be->init(s, err, errlen) != 0) {
        char nb[32];
        format_bytes(need, nb, sizeof nb);
        snprintf(err, errlen, "out of memory allocating %s of simulation state", nb);
        sim_destroy(s);
        return NULL;
    }
    return s;
}

void sim_destroy(sim *s)
{
    if (!s) return;
    if (s->out) h5out_close(s->out, s);
    if (s->be && s->be->free) s->be->free(s);
    for (size_t q = 0; q < s->nstims; q++) stimulus_free(&s->stims[q]);
    free(s->stims);
    free(s->stim_on);
    for (size_t q = 0; q < s->nprobes; q++) {
        free(s->probes[q]->cells);
        free(s->probes[q]->t);
        free(s->probes[q]->data);
        free(s->probes[q]);
    }
    free(s->probes);
    grid_free(&s->g);
    free(s);
}

void sim_add_stimulus(sim *s, stimulus *st)
{
    s->stims = realloc(s->stims, (s->nstims + 1) * sizeof *s->stims);
    s->stim_on = realloc(s->stim_on, s->nstims + 1);
    s->stims[s->nstims] = *st;
    s->stim_on[s->nstims] = 0;
    s->nstims++;
    memset(st, 0, sizeof *st);
}

probe *sim_add_probe(sim *s, const char *name, const size_t *cells, size_t n,
                     const int *vars, int nvars, long every)
{
    probe *p = calloc(1, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->cells = malloc(n * sizeof *cells);
    memcpy(p->cells, cells, n * sizeof *cells);
    p->ncells = n;
    memcpy(p->vars, vars, nvars * sizeof *vars);
    p->nvars = nvars;
    p->every = every;
    p->last_step = -1;
    s->probes = realloc(s->probes, (s->nprobes + 1) * sizeof *s->probes);
    s->probes[s->nprobes++] = p;
    return p;
}

static void probe_sample(sim *s, probe *p)
{
    if (p->nsamples == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 256;
        p->t = realloc(p->t, p->cap * sizeof *p->t);
        p->data = realloc(p->data, p->cap * p->nvars * p->ncells * sizeof *p->data);
    }
    p->t[p->nsamples] = sim_time(s);
    float *row = p->data + p->nsamples * p->nvars * p->ncells;
    for (int v = 0; v < p->nvars; v++) s->be->sample(s, p->vars[v], p->cells, p->ncells, row + v * p->ncells);
    p->nsamples++;
    p->last_step = s->nstep;
}

int sim_record(sim *s, char *err, size_t errlen)
{
    for (size_t q = 0; q < s->nprobes; q++) {
        probe *p = s->probes[q];
        if (s->nstep % p->every == 0 && p->last_step != s->nstep) probe_sample(s, p);
    }
    if (s->out && h5out_due(s->out, s))
        return h5out_frame(s->out, s, err, errlen);
    return 0;
}

static void update_stimuli(sim *s)
{
    int changed = 0;
    double t = sim_time(s);
    for (size_t q = 0; q < s->nstims; q++) {
        unsigned char on = (unsigned char)stimulus_active(&s->stims[q], t, s->dt);
        changed |= on != s->stim_on[q];
        s->stim_on[q] = on;
    }
    if (changed) s->be->stim_changed(s);
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void report_bad(sim *s, long step, char *err, size_t errlen)
{
    int i, j, k;
    grid_ijk(&s->g, (size_t)s->bad_cell, &i, &j, &k);
    snprintf(err, errlen,
             "state variable '%s' became NaN or Inf at step %ld (t = %g ms) in cell (%d, %d, %d) "
             "(1-based); lower dt or check the parameters",
             s->m.def->states[s->bad_var].name, step, s->t0 + step * s->dt, i + 1, j + 1, k + 1);
}

int sim_advance(sim *s, long nsteps, volatile int *interrupt, progress_fn prog, void *ctx,
                char *err, size_t errlen)
{
    if (s->bad_cell >= 0) {
        report_bad(s, s->nstep, err, errlen);
        return -1;
    }
    if (sim_record(s, err, errlen) != 0) return -1;
    double last = wall_seconds();
    for (long n = 0; n < nsteps; n++) {
        if (interrupt && *interrupt) {
            if (prog) prog(ctx, s, n, nsteps, 1);
            return 1;
        }
        update_stimuli(s);
        s->be->step(s, 1);
        if (s->bad_cell >= 0) {
            report_bad(s, s->nstep + 1, err, errlen);
            if (prog) prog(ctx, s, n, nsteps, 1);
            return -1;
        }
        s->nstep++;
        if (sim_record(s, err, errlen) != 0) return -1;
        if (prog) {
            double now = wall_seconds();
            if (now - last > 0.25) { prog(ctx, s, n + 1, nsteps, 0); last = now; }
        }
    }
    if (prog) prog(ctx, s, nsteps, nsteps, 1);
    return 0;
}
