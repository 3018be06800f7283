/* CPU backend: state in host memory as one array per state variable (float or
 * double), row-major or in blockDS blocks (sim.blocks, core/mesh/blocks.h), one
 * fused reaction-diffusion sweep per step over the owned (or stored) cells,
 * OpenMP over rows, then the halo exchange of V when the grid is split over
 * ranks. Everything runs synchronously, so sync has nothing to wait for. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fraction16.h"
#include "half_round.h"
#include "halo.h"
#include "multirate.h"
#include "quiescence.h"
#include "threads.h"
#include "rate_tables.h"
#include "sim.h"
#include "state_view.h"

/* One cell's step; L: its parameter set, whose rate table the fp64 step
 * reads when the simulation has them (core/engine/rate_tables.h). */
static inline void model_step_f32(const sim *s, float *y, float diff, float istim, float dt,
                                  const float *p, int L)
{
    (void)L;
    const model_def *d = s->m.def;
    d->step_f32(y, diff, istim, dt, p);
    if (s->half) round_states_to_half(y, d->nstate, d->half_gates);   /* as the GPU stores them */
    /* the slow ones are rounded after multirate's rule (cpu_multirate), as
     * the GPU combines the unrounded step with the stored value */
    if (s->frac) round_states_to_fraction(y, d->nstate, d->frac_gates & ~d->slow_states);
}
static inline void model_step_f64(const sim *s, double *y, double diff, double istim,
                                  double dt, const double *p, int L)
{
    if (s->tables) s->m.def->table->step_tab_f64(y, diff, istim, dt, p, rate_tables_of_set(s->tables, L));
    else (s->mixed ? s->m.def->step_mix : s->m.def->step_f64)(y, diff, istim, dt, p);
}

#define CARDIAC_TEMPLATE "cpu_sweep.h"
#include "instantiate.h"

typedef struct {
    block_map bm;                 /* blockDS storage when blocked */
    int blocked;
    size_t nstore;                /* values per array: ncells, or the stored blocks' cells */
    void *var[MODEL_MAX_STATE];   /* state variable arrays, nstore each */
    void *vnext;                  /* next membrane potential (double buffer) */
    void *istim;                  /* stimulus current per cell, dV/dt */
    void *ptab;                   /* parameter sets, MODEL_MAX_PARAM values apart (core/interventions/param_sets.h) */
    unsigned char *stamp;         /* quiescent cells: the step each cell's ionic state is next due, mod 256 (core/engine/quiescence.h) */
    size_t esize;                 /* bytes per value: 4 or 8 */
    float *snap[MODEL_MAX_STATE]; /* output snapshot */
} cpu_data;

static double get_value(const cpu_data *cd, const void *a, size_t c)
{
    return cd->esize == 8 ? ((const double *)a)[c] : ((const float *)a)[c];
}

static void set_value(const cpu_data *cd, void *a, size_t c, double x)
{
    if (cd->esize == 8) ((double *)a)[c] = x;
    else ((float *)a)[c] = (float)x;
}

/* A state held in half (precision "fp32h", "fp32g") or as a 16-bit fraction
 * ("fp32g") takes the values the GPU stores: what is written into it from
 * outside the steps is rounded as they round. */
static void round_if_half(const sim *s, const cpu_data *cd, int v)
{
    const int half = sim_var_half(s, v), frac = sim_var_frac(s, v);
    if (!half && !frac) return;
    float *a = cd->var[v];
    for (size_t q = 0; q < cd->nstore; q++) a[q] = half ? half_round(a[q]) : fraction16_round(a[q]);
}

/* Where row-major cell c is stored; (size_t)-1 for cells of blocks not stored. */
static size_t store_of(const cpu_data *cd, size_t c)
{
    return cd->blocked ? block_store_index(&cd->bm, c) : c;
}

/* Cell c of array a, or the resting value v of cells not stored (no tissue). */
static double value_at(const sim *s, const cpu_data *cd, int v, size_t c)
{
    const size_t q = store_of(cd, c);
    return q == (size_t)-1 ? s->m.rest[v] : get_value(cd, cd->var[v], q);
}

/* The parameter sets in the state's precision, for the sweep. */
static void cpu_params_changed(sim *s)
{
    cpu_data *cd = s->bd;
    double p[MODEL_MAX_PARAM];
    for (int L = 0; L < sim_param_sets(s); L++) {
        model_step_params(s->m.def, sim_param_set(s, L), p);
        for (int q = 0; q < model_slots(s->m.def); q++) set_value(cd, cd->ptab, (size_t)L * MODEL_MAX_PARAM + q, p[q]);
    }
}

static int cpu_init(sim *s, char *err, size_t errlen)
{
    const model_def *d = s->m.def;
    cpu_data *cd = calloc(1, sizeof *cd);
    if (!cd) return -1;
    s->bd = cd;
    cd->nstore = s->lg.ncells;
    if (s->blocks[0]) {
        if (block_map_build(&cd->bm, &s->lg, s->blocks, err, errlen) != 0) return -1;
        cd->blocked = 1;
        cd->nstore = block_map_cells(&cd->bm);
    }
    const size_t N = cd->nstore;
    cd->esize = s->fp64 ? sizeof(double) : sizeof(float);
    for (int v = 0; v < d->nstate; v++) {
        cd->var[v] = malloc(N * cd->esize);
        if (!cd->var[v]) return -1;
        for (size_t c = 0; c < N; c++) set_value(cd, cd->var[v], c, s->m.rest[v]);
        round_if_half(s, cd, v);
    }
    cd->vnext = malloc(N * cd->esize);
    cd->istim = calloc(N, cd->esize);
    cd->ptab = malloc((size_t)PARAM_SETS_MAX * MODEL_MAX_PARAM * cd->esize);
    if (!cd->vnext || !cd->istim || !cd->ptab) return -1;
    if (s->quiescent && !(cd->stamp = malloc(N))) return -1;
    if (cd->stamp) memset(cd->stamp, (int)quiescent_stamp(s->nstep - 1), N);   /* none behind */
    /* the sweep writes the owned cells only: after a swap the ghost cells
     * are the second buffer's until an exchange refreshes them, and an
     * ensemble's ranks exchange nothing across members (core/engine/members.h) */
    for (size_t c = 0; c < N; c++) set_value(cd, cd->vnext, c, s->m.rest[d->vindex]);
    cpu_params_changed(s);
    return 0;
}

static void cpu_free(sim *s)
{
    cpu_data *cd = s->bd;
    if (!cd) return;
    for (int v = 0; v < MODEL_MAX_STATE; v++) { free(cd->var[v]); free(cd->snap[v]); }
    block_map_free(&cd->bm);
    free(cd->vnext);
    free(cd->istim);
    free(cd->ptab);
    free(cd->stamp);
    free(cd);
    s->bd = NULL;
}

static void cpu_step(sim *s, long nsteps)
{
    cpu_data *cd = s->bd;
    const int vi = s->m.def->vindex, ns = s->m.def->nstate;
    /* split over ranks, every rank takes every step (the exchange pairs them up) */
    for (long q = 0; q < nsteps && (s->bad_cell < 0 || s->dc.nranks > 1); q++) {
        const block_map *bm = cd->blocked ? &cd->bm : NULL;
        if (s->ms) multiscale_cpu_step(s, cd->var, cd->ptab, s->nstep + q);
        const int mr = s->multirate ? 1 + multirate_updates(s->nstep + q, s->multirate) : 0;
        long bad = cd->esize == 8
            ? cpu_sweep_f64(s, bm, (double *const *)cd->var, cd->vnext, cd->istim, cd->ptab, mr, cd->stamp, s->nstep + q)
            : cpu_sweep_f32(s, bm, (float *const *)cd->var, cd->vnext, cd->istim, cd->ptab, mr, cd->stamp, s->nstep + q);
        void *tmp = cd->var[vi];
        cd->var[vi] = cd->vnext;
        cd->vnext = tmp;
        halo_exchange(s, &vi, 1);
        if (bad == LONG_MAX || s->bad_cell >= 0) continue;
        s->bad_cell = bad;
        s->bad_step = s->nstep + q + 1;
        s->bad_var = 0;
        for (int v = 0; v < ns; v++)
            if (!isfinite(value_at(s, cd, v, (size_t)bad))) { s->bad_var = v; break; }
    }
}

static void cpu_sync(sim *s) { (void)s; }

/* Stimuli hold tissue cells only (core/engine/sim.c), which are always stored. */
static void cpu_stim_changed(sim *s)
{
    cpu_data *cd = s->bd;
    for (size_t q = 0; q < s->nstims; q++)
        for (size_t c = 0; c < s->stims[q].ncells; c++) set_value(cd, cd->istim, store_of(cd, s->stims[q].cells[c]), 0);
    for (size_t q = 0; q < s->nstims; q++) {
        if (!s->stim_on[q]) continue;
        const stimulus *st = &s->stims[q];
        for (size_t c = 0; c < st->ncells; c++) {
            size_t cell = store_of(cd, st->cells[c]);
            set_value(cd, cd->istim, cell, get_value(cd, cd->istim, cell) + st->amplitude);
        }
    }
}

/* Cells of blocks not stored read as the resting state, which the full box
 * keeps there too (nothing steps or sets cells outside the tissue). */
static void cpu_get_field(sim *s, int var, float *dst)
{
    cpu_data *cd = s->bd;
    if (cd->blocked) {
        for (size_t c = 0; c < s->lg.ncells; c++) dst[c] = (float)value_at(s, cd, var, c);
        return;
    }
    if (cd->esize == 4) { memcpy(dst, cd->var[var], s->lg.ncells * sizeof(float)); return; }
    for (size_t c = 0; c < s->lg.ncells; c++) dst[c] = (float)((double *)cd->var[var])[c];
}

static void cpu_set_field(sim *s, int var, const float *src)
{
    cpu_data *cd = s->bd;
    for (size_t c = 0; c < s->lg.ncells; c++) {
        const size_t q = store_of(cd, c);
        if (q != (size_t)-1) set_value(cd, cd->var[var], q, src[c]);
    }
    round_if_half(s, cd, var);
}

/* Native-precision copies (checkpoints): the stored value, or the resting
 * value of cells not stored. */
static void cpu_get_state(sim *s, int var, void *dst)
{
    cpu_data *cd = s->bd;
    for (size_t c = 0; c < s->lg.ncells; c++) {
        const size_t q = store_of(cd, c);
        if (q == (size_t)-1) set_value(cd, dst, c, s->m.rest[var]);
        else memcpy((char *)dst + c * cd->esize, (const char *)cd->var[var] + q * cd->esize, cd->esize);
    }
}

static void cpu_set_state(sim *s, int var, const void *src)
{
    cpu_data *cd = s->bd;
    for (size_t c = 0; c < s->lg.ncells; c++) {
        const size_t q = store_of(cd, c);
        if (q != (size_t)-1) memcpy((char *)cd->var[var] + q * cd->esize, (const char *)src + c * cd->esize, cd->esize);
    }
    round_if_half(s, cd, var);
}

/* Quiescent cells' lags (core/engine/quiescence.h) from and to their stamps. */
static void cpu_get_lags(sim *s, unsigned char *dst)
{
    cpu_data *cd = s->bd;
    for (size_t c = 0; c < s->lg.ncells; c++) {
        const size_t q = store_of(cd, c);
        dst[c] = q == (size_t)-1 || !cd->stamp ? 0 : (unsigned char)quiescent_lag(s->nstep, cd->stamp[q]);
    }
}

static void cpu_set_lags(sim *s, const unsigned char *src)
{
    cpu_data *cd = s->bd;
    if (!cd->stamp) return;
    for (size_t c = 0; c < s->lg.ncells; c++) {
        const size_t q = store_of(cd, c);
        if (q != (size_t)-1) cd->stamp[q] = (unsigned char)(s->nstep - src[c]);
    }
}

/* Where the state lives: host arrays, row-major or in blockDS blocks. */
static void cpu_view(sim *s, unsigned want, state_view *v)
{
    (void)want;   /* the tissue mask is s->lg's own */
    const cpu_data *cd = s->bd;
    memset(v, 0, sizeof *v);
    v->nstate = s->m.def->nstate;
    for (int k = 0; k < v->nstate; k++) {
        v->var[k] = cd->var[k];
        v->fp64[k] = cd->esize == 8;
    }
    v->rest = s->m.rest;
    v->ncells = s->lg.ncells;
    v->nstored = cd->nstore;
    v->blocks = cd->blocked ? &cd->bm : NULL;
}

static void cpu_snapshot(sim *s, const int *vars, int nvars)
{
    cpu_data *cd = s->bd;
    for (int q = 0; q < nvars; q++) {
        if (!cd->snap[q]) cd->snap[q] = malloc(s->lg.ncells * sizeof(float));
        if (!cd->snap[q]) { sim_fail(s, "out of memory for an output frame"); return; }
        cpu_get_field(s, vars[q], cd->snap[q]);
    }
}

static const float *cpu_snapshot_field(sim *s, int q)
{
    return ((cpu_data *)s->bd)->snap[q];
}

static double cpu_time_steps(sim *s, long nsteps)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    cpu_step(s, nsteps);
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) * 1e-6;
}

/* Copies a face of var between the state and a host buffer (core/parallel/halo.h).
 * blockDS: cell by cell through the block map; cells of blocks not stored
 * (no tissue) send their resting value and ignore what they receive. */
static void cpu_face_copy(sim *s, int var, const halo_face *f, void *host, int to_host)
{
    cpu_data *cd = s->bd;
    unsigned char *a = cd->var[var], *h = host;
    const size_t e = cd->esize, len = f->blocklen * e;
    if (cd->blocked) {
        for (size_t b = 0; b < f->nblocks; b++)
            for (size_t i = 0; i < f->blocklen; i++) {
                const size_t c = f->offset + b * f->pitch + i, q = store_of(cd, c), k = b * f->blocklen + i;
                if (to_host) set_value(cd, host, k, q == (size_t)-1 ? s->m.rest[var] : get_value(cd, a, q));
                else if (q != (size_t)-1) set_value(cd, a, q, get_value(cd, host, k));
            }
        return;
    }
    for (size_t b = 0; b < f->nblocks; b++) {
        unsigned char *x = a + (f->offset + b * f->pitch) * e, *y = h + b * len;
        if (to_host) memcpy(y, x, len);
        else memcpy(x, y, len);
    }
}

const backend_ops backend_cpu = {
    .name = "cpu",
    .init = cpu_init,
    .step = cpu_step,
    .sync = cpu_sync,
    .stim_changed = cpu_stim_changed,
    .params_changed = cpu_params_changed,
    .get_field = cpu_get_field,
    .set_field = cpu_set_field,
    .snapshot = cpu_snapshot,
    .snapshot_field = cpu_snapshot_field,
    .time_steps = cpu_time_steps,
    .face_copy = cpu_face_copy,
    .get_state = cpu_get_state,
    .set_state = cpu_set_state,
    .get_lags = cpu_get_lags,
    .set_lags = cpu_set_lags,
    .view = cpu_view,
    .host_alloc = malloc,
    .host_free = free,
    .free = cpu_free,
};
