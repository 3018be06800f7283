/* The dyad stage (core/multiscale/multiscale.h): storage, checks, RyR clamps, and the
 * CPU backend's step (core/multiscale/multiscale_stage.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dyad_rng.h"
#include "threads.h"
#include "sim.h"
#include "state_view.h"
#include "instances.h"

#define CARDIAC_TEMPLATE "multiscale_stage.h"
#include "instantiate.h"

int multiscale_shape(int n, int shape[3], char *err, size_t errlen)
{
    if (n >= 1 && n <= 100) { shape[0] = n; shape[1] = shape[2] = 1; return 0; }
    if (n <= 1000 && n % 100 == 0) { shape[0] = 100; shape[1] = n / 100; shape[2] = 1; return 0; }
    if (n <= GR_MAX_DYADS && n % 1000 == 0) { shape[0] = 100; shape[1] = 10; shape[2] = n / 1000; return 0; }
    snprintf(err, errlen, "dyads = %d: the dyads fill the cell's 100 x 10 x 10 grid row by row; use 1 to 100, "
             "a multiple of 100 up to 1000, or a multiple of 1000 up to 10000", n);
    return -1;
}

double multiscale_bytes(size_t ncells, int n, int fp64)
{
    /* 7 reals, 3 diffusion targets and the packed RyR counts per dyad */
    return (double)ncells * n * (10.0 * (fp64 ? 8 : 4) + 4);
}

static int supported(const sim *s, char *err, size_t errlen)
{
    const int cuda = !strcmp(s->be->name, "cuda");
    if (strcmp(s->be->name, "cpu") != 0 && !cuda) {
        snprintf(err, errlen, "model %s: its calcium release units run on the cpu and cuda backends, not on '%s'",
                 s->m.def->name, s->be->name);
        return -1;
    }
    if (s->blocks[0]) {
        snprintf(err, errlen, "model %s: blockDS storage ('blocks') does not carry calcium release units; "
                 "leave 'blocks' out", s->m.def->name);
        return -1;
    }
    if (cuda && s->layout[0] && strcmp(s->layout, "naive") != 0) {
        snprintf(err, errlen, "model %s: layout '%s' does not carry calcium release units; use layout = \"naive\" "
                 "(its default)", s->m.def->name, s->layout);
        return -1;
    }
    return 0;
}

/* The owned tissue cells, their global indices, and room for their dyads. */
static int allocate(sim *s, multiscale *ms)
{
    const grid *g = &s->lg;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = 0;
        for (int z = s->own_lo[2]; z < s->own_hi[2]; z++)
            for (int y = s->own_lo[1]; y < s->own_hi[1]; y++)
                for (int x = s->own_lo[0]; x < s->own_hi[0]; x++) {
                    const size_t c = grid_index(g, x, y, z);
                    if (!g->mask[c]) continue;
                    if (pass) {
                        ms->lcell[k] = c;
                        ms->gcell[k] = grid_index(&s->g, x + s->dc.slo[0], y + s->dc.slo[1], z + s->dc.slo[2]);
                    }
                    k++;
                }
        if (pass) break;
        ms->ncells = k;
        if (s->members) ms->key_period = s->g.ncells / (size_t)s->members;
        ms->lcell = malloc((k ? k : 1) * sizeof *ms->lcell);
        ms->gcell = malloc((k ? k : 1) * sizeof *ms->gcell);
        if (!ms->lcell || !ms->gcell) return -1;
    }
    ms->clamp = calloc(ms->ncells + 1, 1);
    return ms->clamp ? 0 : -1;
}

/* The dyads' state in host memory (the CPU backend's). */
static int allocate_host(multiscale *ms)
{
    const size_t nd = ms->ncells * (size_t)ms->n + 1;
    int ok = 1;
    for (int v = 0; v < MS_NVAR; v++) ok = (ms->var[v] = malloc(nd * ms->esize)) && ok;
    for (int v = MS_CASS; v <= MS_CANSR; v++) ok = (ms->next[v] = malloc(nd * ms->esize)) && ok;
    ok = (ms->ryr = malloc(nd * sizeof *ms->ryr)) && ok;
    return ok ? 0 : -1;
}

static void set_real(const multiscale *ms, int v, size_t q, double x)
{
    if (ms->esize == 8) ((double *)ms->var[v])[q] = x;
    else ((float *)ms->var[v])[q] = (float)x;
}

void multiscale_rest_dyad(const sim *s, double v[MS_NVAR], uint32_t *ryr)
{
    const double *y = s->m.rest, *p = s->m.p;
    const double kc = p[GR_KM_CSQN], r = y[ORD_CAJSR] / kc, r8 = r * r * r * r * r * r * r * r;
    const double down = 1 / (1 + r8), up = 1 - down;
    const uint32_t c1 = (uint32_t)(GR_NRYR * up / (up + down) + 0.5), c2 = GR_NRYR - c1;
    v[MS_CADS] = y[GR_CADS];
    v[MS_CASS] = y[ORD_CASS];
    v[MS_CACYT] = y[ORD_CAI];
    v[MS_CANSR] = y[ORD_CANSR];
    v[MS_CAJSR] = y[ORD_CAJSR];
    v[MS_NCA] = y[ORD_NCA];
    v[MS_CAMKT] = y[ORD_CAMKT];
    *ryr = c1 | c2 << 16;
}

/* Every dyad at the resting state (multiscale_rest_dyad). */
static void init_host(const sim *s, multiscale *ms)
{
    double v[MS_NVAR];
    uint32_t ryr;
    multiscale_rest_dyad(s, v, &ryr);
    const size_t nd = ms->ncells * (size_t)ms->n;
    for (size_t q = 0; q < nd; q++) {
        for (int k = 0; k < MS_NVAR; k++) set_real(ms, k, q, v[k]);
        ms->ryr[q] = ryr;
    }
}

int multiscale_check(const sim *s, char *err, size_t errlen)
{
    if (!s->m.def->multiscale) return 0;
    if (supported(s, err, errlen) != 0) return -1;
    const double n = s->m.p[GR_DYADS];
    int shape[3];
    if (n != (double)(int)n) {
        snprintf(err, errlen, "dyads = %g: the number of dyads per cell must be a whole number", n);
        return -1;
    }
    return multiscale_shape((int)n, shape, err, errlen);
}

int multiscale_create(sim *s, char *err, size_t errlen)
{
    if (!s->m.def->multiscale) return 0;
    multiscale *ms = calloc(1, sizeof *ms);
    if (!ms) return -1;
    s->ms = ms;
    ms->n = (int)s->m.p[GR_DYADS];
    multiscale_shape(ms->n, ms->shape, err, errlen);   /* checked by multiscale_check */
    ms->seed = (uint32_t)s->m.p[GR_SEED];
    ms->esize = s->fp64 ? 8 : 4;
    /* the backend has just set every cell to the resting state */
    if (allocate(s, ms) == 0) {
        state_view v;
        sim_view(s, 0, &v);
#ifdef CARDIAC_HAVE_CUDA
        if (v.device) return multiscale_init_cu(s, &v, err, errlen);
#endif
        if (allocate_host(ms) == 0) { init_host(s, ms); return 0; }
    }
    char need[32];
    snprintf(need, sizeof need, "%.3g GB", multiscale_bytes(ms->ncells, ms->n, s->fp64) / 1e9);
    snprintf(err, errlen, "out of memory allocating %s for %zu cells x %d dyads", need, ms->ncells, ms->n);
    return -1;
}

double multiscale_need(const sim *s, size_t ncells)
{
    return s->m.def->multiscale ? multiscale_bytes(ncells, (int)s->m.p[GR_DYADS], s->fp64) : 0;
}

void multiscale_free(sim *s)
{
    multiscale *ms = s->ms;
    if (!ms) return;
    free(ms->lcell); free(ms->gcell); free(ms->ryr); free(ms->clamp); free(ms->active);
    for (int v = 0; v < MS_NVAR; v++) { free(ms->var[v]); free(ms->next[v]); }
    for (size_t q = 0; q < ms->nclamps; q++) stimulus_free(&ms->clamps[q].when);
    free(ms->clamps);
#ifdef CARDIAC_HAVE_CUDA
    if (ms->dev) multiscale_free_cu(ms);
#endif
    free(ms);
    s->ms = NULL;
}

/* The slot of each owned cell of the clamp (others dropped). */
void sim_add_ryr_clamp(sim *s, stimulus *when, int state)
{
    multiscale *ms = s->ms;
    size_t n = 0;
    for (size_t q = 0; q < when->ncells; q++) {
        const long lc = sim_local_index(s, when->cells[q]);
        if (lc < 0) continue;
        /* lcell is sorted (row-major over the owned box): binary search */
        size_t lo = 0, hi = ms->ncells;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (ms->lcell[mid] < (size_t)lc) lo = mid + 1;
            else hi = mid;
        }
        if (lo < ms->ncells && ms->lcell[lo] == (size_t)lc) when->cells[n++] = lo;
    }
    when->ncells = n;
    ms->clamps = realloc(ms->clamps, (ms->nclamps + 1) * sizeof *ms->clamps);
    ms->clamps[ms->nclamps].when = *when;
    ms->clamps[ms->nclamps].state = state;
    ms->nclamps++;
    ms->clamps_dirty = 1;
    memset(when, 0, sizeof *when);
}

int multiscale_clamps_at(const sim *s, long step)
{
    multiscale *ms = s->ms;
    if (ms->clamps_dirty) {
        free(ms->active);
        ms->active = calloc(ms->nclamps + 1, 1);
        if (!ms->active) return -1;
    }
    int changed = ms->clamps_dirty;
    for (size_t q = 0; q < ms->nclamps; q++) {
        const unsigned char on = (unsigned char)stimulus_active(&ms->clamps[q].when, s->t0 + step * s->dt, s->dt);
        changed |= on != ms->active[q];
        ms->active[q] = on;
    }
    ms->clamps_dirty = 0;
    if (!changed) return 0;
    memset(ms->clamp, DYAD_RYR_FREE, ms->ncells);
    for (size_t q = 0; q < ms->nclamps; q++) {
        const ryr_clamp *c = &ms->clamps[q];
        if (!ms->active[q]) continue;
        for (size_t k = 0; k < c->when.ncells; k++) ms->clamp[c->when.cells[k]] = (unsigned char)c->state;
    }
    return 1;
}

void multiscale_cpu_step(sim *s, void *const *var, const void *ptab, long step)
{
    multiscale *ms = s->ms;
    multiscale_clamps_at(s, step);
    if (ms->esize == 8) ms_stage_f64(s, ms, (double *const *)var, (const double *)ptab, step);
    else ms_stage_f32(s, ms, (float *const *)var, (const float *)ptab, step);
}

int multiscale_dyad_var(const sim *s, int var)
{
    if (!s->m.def->multiscale) return -1;
    switch (var) {
    case GR_CADS: return MS_CADS;
    case ORD_CASS: return MS_CASS;
    case ORD_CAI: return MS_CACYT;
    case ORD_CANSR: return MS_CANSR;
    case ORD_CAJSR: return MS_CAJSR;
    case ORD_NCA: return MS_NCA;
    case ORD_CAMKT: return MS_CAMKT;
    }
    for (int m = 0; m < DS_COUNT; m++)
        if (dyad_sum_state(m) == var) return -2;
    return -1;
}

int multiscale_set_cells(sim *s, int var, const size_t *cells, size_t n, const void *field)
{
    multiscale *ms = s->ms;
    const int mv = ms ? multiscale_dyad_var(s, var) : -1;
    if (mv < 0 || ms->ncells == 0) return 0;
    const size_t nd = ms->ncells * (size_t)ms->n;
    unsigned char *in = calloc(s->g.ncells, 1);
    void *var_h[MS_NVAR] = {0};
    uint32_t *ryr = malloc(nd * sizeof *ryr);
    int ok = in && ryr;
    for (int v = 0; v < MS_NVAR; v++) ok = ok && (var_h[v] = malloc(nd * ms->esize));
    if (ok) {
        for (size_t q = 0; q < n; q++) in[cells[q]] = 1;
        multiscale_copy(s, var_h, ryr, 1);
        for (size_t k = 0; k < ms->ncells; k++) {
            const size_t g = ms->gcell[k];
            if (!in[g]) continue;
            const double x = ms->esize == 8 ? ((const double *)field)[g] : ((const float *)field)[g];
            for (size_t q = k * ms->n; q < (k + 1) * ms->n; q++) {
                if (ms->esize == 8) ((double *)var_h[mv])[q] = x;
                else ((float *)var_h[mv])[q] = (float)x;
            }
        }
        multiscale_copy(s, var_h, ryr, 0);
    }
    for (int v = 0; v < MS_NVAR; v++) free(var_h[v]);
    free(ryr);
    free(in);
    return ok ? 0 : -1;
}

void multiscale_copy(sim *s, void *const *var, uint32_t *ryr, int to_host)
{
    multiscale *ms = s->ms;
    const size_t nd = ms->ncells * (size_t)ms->n;
#ifdef CARDIAC_HAVE_CUDA
    if (ms->dev) {                                 /* on the GPU */
        state_view v;
        sim_view(s, 0, &v);
        multiscale_copy_cu(s, &v, var, ryr, to_host);
        return;
    }
#endif
    for (int v = 0; v < MS_NVAR; v++)
        memcpy(to_host ? var[v] : ms->var[v], to_host ? ms->var[v] : var[v], nd * ms->esize);
    memcpy(to_host ? ryr : ms->ryr, to_host ? ms->ryr : ryr, nd * sizeof *ryr);
}
