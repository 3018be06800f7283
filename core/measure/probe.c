/* Probes: samples of state variables at chosen cells every so many steps
 * (the CPU half; the GPU half, probe_cu.cu, gathers them where the state
 * lives), and sim_sample, one such gather now. Over a long run: while the simulation writes an output file,
 * a sample leaves memory once the file has it (a probe of many cells sampled
 * every step would otherwise grow without bound), and probe:data and
 * probe:csv read it back from the file. Closing the output brings the
 * samples back into memory, so the closed file may be overwritten or moved. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output.h"
#include "par.h"
#include "sim.h"
#include "state_view.h"

static void probe_record(sim *s, probe *p)
{
    if (p->nsamples - p->first == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 256;
        p->t = realloc(p->t, p->cap * sizeof *p->t);
        p->data = realloc(p->data, p->cap * p->nvars * p->ncells * sizeof *p->data);
    }
    *probe_time(p, p->nsamples) = sim_time(s);
    state_view v;
    sim_view(s, 0, &v);
#ifdef CARDIAC_HAVE_CUDA
    if (v.device) probe_record_cu(s, &v, p, p->nsamples);
    else
#endif
    {
        float *dst = probe_row(p, p->nsamples);
        for (int k = 0; k < p->nvars; k++)
            for (size_t c = 0; c < p->ncells; c++)
                dst[k * p->ncells + c] = p->lcells[c] < 0 ? 0.0f : (float)view_value(&v, p->vars[k], (size_t)p->lcells[c]);
        p->nready = p->nsamples + 1;
    }
    p->nsamples++;
    p->last_step = s->nstep;
}

/* A feature of the step loop (core/engine/feature.h): a sample at every
 * step count that is a multiple of `every`. */
static long probe_steps_to(const sim *s, void *obj, long limit)
{
    const probe *p = obj;
    return feature_steps_to_every(s->nstep, 0, p->every, limit);
}

static void probe_at(sim *s, void *obj)
{
    probe *p = obj;
    if (feature_due_every(s->nstep, 0, p->every, p->last_step)) probe_record(s, p);
}

static void probe_free_dev(probe *p)
{
#ifdef CARDIAC_HAVE_CUDA
    if (p->dev) probe_free_cu(p);
#else
    (void)p;
#endif
}

static void probe_destroy(sim *s, void *obj)
{
    (void)s;
    probe *p = obj;
    probe_free_dev(p);
    free(p->cells);
    free(p->lcells);
    free(p->t);
    free(p->data);
    free(p);
}

static const feature_ops probe_feature = {FEATURE_MEASUREMENT, probe_steps_to, probe_at, probe_destroy};

probe *sim_add_probe(sim *s, const char *name, const size_t *cells, size_t n,
                     const int *vars, int nvars, long every)
{
    probe *p = calloc(1, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->cells = malloc(n * sizeof *cells);
    memcpy(p->cells, cells, n * sizeof *cells);
    p->ncells = n;
    p->lcells = malloc((n ? n : 1) * sizeof *p->lcells);
    for (size_t q = 0; q < n; q++) p->lcells[q] = sim_owns(s, cells[q]) ? sim_local_index(s, cells[q]) : -1;
    memcpy(p->vars, vars, nvars * sizeof *vars);
    p->nvars = nvars;
    p->every = every;
    p->last_step = -1;
    probe **list = realloc(s->probes, (s->nprobes + 1) * sizeof *list);
    if (list) s->probes = list;
    if (!list || sim_attach(s, &probe_feature, p) != 0) { probe_destroy(s, p); return NULL; }
    s->probes[s->nprobes++] = p;
    return p;
}

void probe_flush(sim *s, probe *p)
{
#ifdef CARDIAC_HAVE_CUDA
    if (p->dev) {
        state_view v;
        sim_view(s, 0, &v);
        probe_flush_cu(s, &v, p);
    }
#else
    (void)s; (void)p;
#endif
}

/* The values of var at local cells[0..n) of this rank (a sample of the state now). */
static void sample_local(sim *s, int var, const size_t *cells, size_t n, float *dst)
{
    state_view v;
    sim_view(s, 0, &v);
#ifdef CARDIAC_HAVE_CUDA
    if (v.device) { sample_cells_cu(s, &v, var, cells, n, dst); return; }
#endif
    for (size_t q = 0; q < n; q++) dst[q] = (float)view_value(&v, var, cells[q]);
}

void sim_sample(sim *s, int var, const size_t *cells, size_t n, float *dst)
{
    if (s->dc.nranks == 1) { sample_local(s, var, cells, n, dst); return; }
    size_t *loc = calloc(n ? n : 1, sizeof *loc), m = 0;
    float *val = malloc((n ? n : 1) * sizeof *val);
    if (!loc || !val) { free(loc); free(val); sim_fail(s, "out of memory sampling cells"); return; }
    for (size_t q = 0; q < n; q++)
        if (sim_owns(s, cells[q])) loc[m++] = (size_t)sim_local_index(s, cells[q]);
    sample_local(s, var, loc, m, val);
    m = 0;
    for (size_t q = 0; q < n; q++) dst[q] = sim_owns(s, cells[q]) ? val[m++] : 0.0f;
    free(loc);
    free(val);
    par_sum_floats(dst, n);
}

void probe_release(probe *p)
{
    if (p->nsaved <= p->first) return;
    const size_t keep = p->nsamples - p->nsaved, row = (size_t)p->nvars * p->ncells;
    memmove(p->t, probe_time(p, p->nsaved), keep * sizeof *p->t);
    memmove(p->data, probe_row(p, p->nsaved), keep * row * sizeof *p->data);
    p->first = p->nsaved;
    /* give memory back when what is held is a small part of what was */
    if (p->cap > 1024 && keep < p->cap / 4) {
        p->cap = keep > 256 ? 2 * keep : 256;
        p->t = realloc(p->t, p->cap * sizeof *p->t);
        p->data = realloc(p->data, p->cap * row * sizeof *p->data);
    }
}

int probe_reload(const h5out *o, const sim *s, probe *p, char *err, size_t errlen)
{
    if (p->first == 0) return 0;
    const size_t row = (size_t)p->nvars * p->ncells, held = p->nsamples - p->first;
    size_t cap = p->nsamples > 256 ? p->nsamples : 256;
    double *t = malloc(cap * sizeof *t);
    float *data = malloc(cap * row * sizeof *data);
    if (!t || !data) {
        free(t); free(data);
        snprintf(err, errlen, "probe '%s': out of memory taking its %zu samples back from the output file", p->name,
                 p->nsamples);
        return -1;
    }
    if (h5out_read_probe(o, s, p, 0, p->first, t, data, err, errlen) != 0) {
        free(t); free(data);
        return -1;
    }
    memcpy(t + p->first, p->t, held * sizeof *t);
    memcpy(data + p->first * row, p->data, held * row * sizeof *data);
    free(p->t); free(p->data);
    p->t = t; p->data = data; p->cap = cap; p->first = 0;
    return 0;
}

int probe_read(const sim *s, const probe *p, size_t q0, size_t n, double *t, float *rows, char *err, size_t errlen)
{
    const size_t row = (size_t)p->nvars * p->ncells;
    if (q0 < p->first && n > 0) {
        size_t m = p->first - q0 < n ? p->first - q0 : n;
        if (h5out_read_probe(s->out, s, p, q0, m, t, rows, err, errlen) != 0) return -1;
        q0 += m; n -= m; t += m; rows += m * row;
    }
    if (n == 0) return 0;
    if (q0 + n > p->nsamples) {
        snprintf(err, errlen, "probe '%s' has %zu samples, not %zu", p->name, p->nsamples, q0 + n);
        return -1;
    }
    memcpy(t, probe_time(p, q0), n * sizeof *t);
    memcpy(rows, probe_row(p, q0), n * row * sizeof *rows);
    return 0;
}
