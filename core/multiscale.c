/* The dyad stage (core/multiscale.h): storage, checks, RyR clamps, and the
 * CPU backend's step (core/multiscale_stage.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dyad_rng.h"
#include "sim.h"
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
    if (strcmp(s->be->name, "cpu") != 0) {
        snprintf(err, errlen, "model %s: its calcium release units run on the CPU backend only so far; "
                 "use backend = \"cpu\"", s->m.def->name);
        return -1;
    }
    if (s->blocks[0]) {
        snprintf(err, errlen, "model %s: blockDS storage ('blocks') does not carry calcium release units; "
                 "leave 'blocks' out", s->m.def->name);
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
        ms->lcell = malloc((k ? k : 1) * sizeof *ms->lcell);
        ms->gcell = malloc((k ? k : 1) * sizeof *ms->gcell);
        if (!ms->lcell || !ms->gcell) return -1;
    }
    const size_t nd = ms->ncells * (size_t)ms->n + 1;
    int ok = 1;
    for (int v = 0; v < MS_NVAR; v++) ok = (ms->var[v] = malloc(nd * ms->esize)) && ok;
    for (int v = MS_CASS; v <= MS_CANSR; v++) ok = (ms->next[v] = malloc(nd * ms->esize)) && ok;
    ok = (ms->ryr = malloc(nd * sizeof *ms->ryr)) && ok;
    ok = (ms->clamp = calloc(ms->ncells + 1, 1)) && ok;
    return ok ? 0 : -1;
}

static void set_real(const multiscale *ms, int v, size_t q, double x)
{
    if (ms->esize == 8) ((double *)ms->var[v])[q] = x;
    else ((float *)ms->var[v])[q] = (float)x;
}

/* Every dyad of a cell at the cell's state y (its means), RyRs split between
 * C1 and C2 in the tiers' equilibrium at the cell's JSR Ca2+. */
static void init_cell(multiscale *ms, size_t k, const double *y, const double *p)
{
    const double kc = p[GR_KM_CSQN], r = y[ORD_CAJSR] / kc, r8 = r * r * r * r * r * r * r * r;
    const double down = 1 / (1 + r8), up = 1 - down;
    const uint32_t c1 = (uint32_t)(GR_NRYR * up / (up + down) + 0.5), c2 = GR_NRYR - c1;
    for (int d = 0; d < ms->n; d++) {
        const size_t q = k * (size_t)ms->n + (size_t)d;
        set_real(ms, MS_CADS, q, y[GR_CADS]);
        set_real(ms, MS_CASS, q, y[ORD_CASS]);
        set_real(ms, MS_CACYT, q, y[ORD_CAI]);
        set_real(ms, MS_CANSR, q, y[ORD_CANSR]);
        set_real(ms, MS_CAJSR, q, y[ORD_CAJSR]);
        set_real(ms, MS_NCA, q, y[ORD_NCA]);
        set_real(ms, MS_CAMKT, q, y[ORD_CAMKT]);
        ms->ryr[q] = c1 | c2 << 16;
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
    if (allocate(s, ms) != 0) {
        char need[32];
        snprintf(need, sizeof need, "%.3g GB", multiscale_bytes(ms->ncells, ms->n, s->fp64) / 1e9);
        snprintf(err, errlen, "out of memory allocating %s for %zu cells x %d dyads", need, ms->ncells, ms->n);
        return -1;
    }
    /* the backend has just set every cell to the resting state */
    for (size_t k = 0; k < ms->ncells; k++) init_cell(ms, k, s->m.rest, s->m.p);
    return 0;
}

void multiscale_free(sim *s)
{
    multiscale *ms = s->ms;
    if (!ms) return;
    free(ms->lcell); free(ms->gcell); free(ms->ryr); free(ms->clamp);
    for (int v = 0; v < MS_NVAR; v++) { free(ms->var[v]); free(ms->next[v]); }
    for (size_t q = 0; q < ms->nclamps; q++) stimulus_free(&ms->clamps[q].when);
    free(ms->clamps);
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
    memset(when, 0, sizeof *when);
}

/* The RyR clamps that hold in the step starting at `step` (later ones win). */
static void clamps_at(const sim *s, multiscale *ms, long step)
{
    memset(ms->clamp, DYAD_RYR_FREE, ms->ncells);
    for (size_t q = 0; q < ms->nclamps; q++) {
        const ryr_clamp *c = &ms->clamps[q];
        if (!stimulus_active(&c->when, s->t0 + step * s->dt, s->dt)) continue;
        for (size_t k = 0; k < c->when.ncells; k++) ms->clamp[c->when.cells[k]] = (unsigned char)c->state;
    }
}

void multiscale_cpu_step(sim *s, void *const *var, const void *ptab, long step)
{
    multiscale *ms = s->ms;
    clamps_at(s, ms, step);
    if (ms->esize == 8) ms_stage_f64(s, ms, (double *const *)var, (const double *)ptab, step);
    else ms_stage_f32(s, ms, (float *const *)var, (const float *)ptab, step);
}
