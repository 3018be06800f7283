/* The monodomain solver loop: stimuli, probes, output frames and error checks
 * around the backend's stepping. Work is handed to the backend in chunks of
 * steps between events (a stimulus switching, a probe sample, an output frame,
 * a check for NaN/interrupt), so a GPU backend runs without host round trips
 * in between and output is written while the next chunk computes. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "halo.h"
#include "members.h"
#include "output.h"
#include "par.h"
#include "rate_tables.h"
#include "quiescence.h"
#include "sim.h"
#include "tips.h"
#include "nan_text.h"

double sim_bytes_needed(const grid *g, const model_def *d, int fp64)
{
    /* state variables + next V + stimulus current, plus the mask */
    return (double)g->ncells * ((d->nstate + 2) * (fp64 ? sizeof(double) : sizeof(float)) + 1);
}

void sim_fail(sim *s, const char *fmt, ...)
{
    if (s->failed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
    nan_text(s->error);
    s->failed = 1;
}

static const backend_ops *find_backend(const char *name, char *err, size_t errlen)
{
    if (!name || strcmp(name, "cpu") == 0) return &backend_cpu;
    if (strcmp(name, "cuda") == 0) {
        char why[256];
        if (!backend_cuda_ops()) {
            snprintf(err, errlen, "backend 'cuda' is not available: this build has no CUDA backend "
                     "(nvcc was not found when it was configured)");
            return NULL;
        }
        if (cuda_device_count(why, sizeof why) == 0) {
            snprintf(err, errlen, "backend 'cuda' cannot run: %s", why);
            return NULL;
        }
        return backend_cuda_ops();
    }
    snprintf(err, errlen, "unknown backend '%s' (available: \"cpu\", \"cuda\", \"auto\")", name);
    return NULL;
}

double sim_dt_limit(const sim *s, const double D[3], double rate)
{
    stencil st;
    memset(&st, 0, sizeof st);
    stencil_setup(&st, &s->lg, s->order, D);
    /* a phase field's limit depends on the field: take it over the whole grid,
     * which every rank holds, so that all ranks agree */
    return stencil_dt_limit(&st, s->g.phi ? &s->g : &s->lg, rate);
}

int sim_check_dt(const sim *s, const double D[3], double rate, char *err, size_t errlen)
{
    const double lim = sim_dt_limit(s, D, rate);
    if (s->dt > lim) {
        snprintf(err, errlen,
                 "dt = %g ms is above the explicit stability limit for D = (%g, %g, %g) mm^2/ms "
                 "and this mesh: the largest stable dt is %.6g ms", s->dt, D[0], D[1], D[2], lim);
        return -1;
    }
    return 0;
}

int sim_set_diffusion(sim *s, const double D[3], char *err, size_t errlen)
{
    if (s->members && D[s->st.maxis] != 0) {
        snprintf(err, errlen, "an ensemble's members do not couple: D along its member axis (axis %d) must be 0, "
                 "got %g", s->st.maxis + 1, D[s->st.maxis]);
        return -1;
    }
    if (sim_check_dt(s, D, sim_rate_bound(s), err, errlen) != 0) return -1;
    stencil_setup(&s->st, &s->lg, s->order, D);
    memcpy(s->D, D, sizeof s->D);
    members_set_all(s, D);   /* an ensemble: every member takes D */
    return 0;
}

int sim_resolution(const sim *s, double lim[3])
{
    int worst = -1;
    for (int a = 0; a < 3; a++) {
        lim[a] = a < s->g.dim && s->g.n[a] > 1 ? model_resolved_dx(s->m.def, s->order, s->D[a]) : 0;
        if (lim[a] > 0 && s->g.h[a] > lim[a] * (1 + 1e-9) && worst < 0) worst = a;
    }
    return worst;
}

/* This rank's part of the grid: the decomposition and the stored cells,
 * with as many ghost layers as the backend's layout needs (layouts that
 * advance several steps per kernel need their halo of every state). */
static int setup_part(sim *s, const backend_ops *be, const grid *g, const sim_config *cfg, char *err, size_t errlen)
{
    const int ghost = be->ghost_layers ? be->ghost_layers(s, g, par_size()) : cfg->order / 2;
    if (decomp_setup(&s->dc, g, cfg->decomp, ghost, !cfg->balance_cells, err, errlen) != 0) return -1;
    if (decomp_local_grid(&s->dc, g, &s->lg, err, errlen) != 0) return -1;
    /* an ensemble's ranks share no diffusion across the member axis: nothing
     * is exchanged there, and the ghost layers keep finite values that D = 0
     * multiplies into exactly 0 (core/engine/members.h) */
    if (cfg->members) s->dc.nbr[g->dim - 1][0] = s->dc.nbr[g->dim - 1][1] = -1;
    for (int a = 0; a < 3; a++) {
        s->own_lo[a] = s->dc.lo[a] - s->dc.slo[a];
        s->own_hi[a] = s->dc.hi[a] - s->dc.slo[a];
    }
    if (s->dc.whole_on_0 && par_rank() == 0)
        fprintf(stderr, "cardiac: the grid (%d x %d x %d cells) is too thin to split over %d ranks; rank 0 computes "
                "it, the others only join its collective calls\n", g->n[0], g->n[1], g->n[2], s->dc.nranks);
    return 0;
}

/* blockDS: blocks deep enough for the stencil's reach (a neighbour is at
 * most one block away). */
static int check_blocks(const sim *s, const sim_config *cfg, char *err, size_t errlen)
{
    if (!cfg->blocks[0]) return 0;
    for (int a = 0; a < 3; a++)
        if (s->g.n[a] > 1 && cfg->blocks[a] < cfg->order / 2) {
            snprintf(err, errlen, "blocks: stencil = %d reaches %d cells; blocks must be at least that deep, got %d "
                     "along axis %d", cfg->order, cfg->order / 2, cfg->blocks[a], a + 1);
            return -1;
        }
    return 0;
}

/* Multirate stepping needs the model's list of slow states, none of them
 * stored in half (the rule combines values before they are stored). */
static int check_multirate(const sim *s, char *err, size_t errlen)
{
    const model_def *d = s->m.def;
    if (!d->slow_states) {
        snprintf(err, errlen, "multirate = %d: model '%s' declares no slow states (model:states() marks "
                 "them slow = true); leave out multirate", s->multirate, d->name);
        return -1;
    }
    if (d->slow_states & d->half_gates) {
        snprintf(err, errlen, "multirate: model '%s' declares a slow state that precision fp32h stores in half", d->name);
        return -1;
    }
    return 0;
}

/* Precision fp32g stores the model's frac_gates in 16 bits; its slow gates
 * among them hold there only when multirate makes their changes large enough
 * (MODEL_FRAC_MIN_MULTIRATE, core/models/model.h). */
static int check_fp32g(const sim *s, char *err, size_t errlen)
{
    const model_def *d = s->m.def;
    const unsigned long long slow = d->frac_gates & d->slow_states;
    if (!slow || s->multirate >= MODEL_FRAC_MIN_MULTIRATE) return 0;
    char names[256] = "";
    for (int v = 0, k = 0; v < d->nstate; v++)
        if (slow >> v & 1) {
            const size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", k++ ? ", " : "", d->states[v].name);
        }
    snprintf(err, errlen, "precision 'fp32g' stores model '%s's slow gates (%s) in 16 bits, where a step's change "
             "of a slow gate is below the storage's resolution and the gate stops short of its target; it needs "
             "multirate = %d or more (got %d), which updates them every m-th step by m times the change; or use "
             "precision 'fp32h'", d->name, names, MODEL_FRAC_MIN_MULTIRATE, s->multirate ? s->multirate : 1);
    return -1;
}

/* Rate tables: the model's (model_def.table), in fp64, whose step reads them
 * (the float steps compute their gates' exponentials in hardware; on the GPU
 * a table there cost the float kernels registers and time,
 * docs/gpu-notebook.md item 41). */
static int check_tables(const sim *s, const sim_config *cfg, char *err, size_t errlen)
{
    const model_def *d = s->m.def;
    if (!d->table) {
        snprintf(err, errlen, "tables = true: model '%s' has no rate tables (ohara_rudy has); leave out tables",
                 d->name);
        return -1;
    }
    if (!cfg->fp64 || cfg->mixed) {
        snprintf(err, errlen, "tables = true: the rate tables are for precision 'fp64' (got '%s'); in the float "
                 "precisions the gates' exponentials are cheap and the tables slow the GPU step",
                 cfg->mixed ? "mixed" : cfg->frac ? "fp32g" : cfg->half ? "fp32h" : "fp32");
        return -1;
    }
    return 0;
}

/* Quiescent cells (core/engine/quiescence.h) sit out multirate's holding
 * steps, so they need multirate, whose interval the one-byte lag can count;
 * the rate tables hold exp(-dt / tau) for the simulation's dt only, and a
 * quiescent cell steps several dt at once. */
static int check_quiescent(const sim *s, const sim_config *cfg, char *err, size_t errlen)
{
    if (!isfinite(cfg->quiescent_below)) {
        snprintf(err, errlen, "quiescent_below must be a finite membrane potential (mV), got %g", cfg->quiescent_below);
        return -1;
    }
    if (!(cfg->quiescent_diffusion > 0)) {
        snprintf(err, errlen, "quiescent_diffusion must be a positive current (mV/ms), got %g", cfg->quiescent_diffusion);
        return -1;
    }
    if (!s->multirate) {
        snprintf(err, errlen, "quiescent_below = %g: quiescent cells advance at multirate's updating steps; give "
                 "multirate = m (2 to %d) too", cfg->quiescent_below, QUIESCENT_MAX_MULTIRATE);
        return -1;
    }
    if (s->multirate > QUIESCENT_MAX_MULTIRATE) {
        snprintf(err, errlen, "quiescent_below: multirate = %d is more than the %d steps a quiescent cell can sit out",
                 s->multirate, QUIESCENT_MAX_MULTIRATE);
        return -1;
    }
    if (cfg->tables) {
        snprintf(err, errlen, "quiescent_below: the rate tables hold the gates' steps for dt only, and a quiescent "
                 "cell steps several dt at once; leave out tables or quiescent_below");
        return -1;
    }
    return 0;
}

/* The parameters changed (core/interventions/param_sets.c): the rate tables
 * follow them, then the backend's copies. */
void sim_params_changed(sim *s)
{
    if (s->tables) {
        char err[256];
        if (rate_tables_build(s, err, sizeof err) != 0) sim_fail(s, "%s", err);
    }
    if (s->be && s->be->params_changed) s->be->params_changed(s);
}

sim *sim_create(const grid *g, const model_inst *m, const sim_config *cfg, char *err, size_t errlen)
{
    const backend_ops *be = find_backend(cfg->backend, err, errlen);
    if (!be) return NULL;
    if (g->phi && cfg->order != 2) {
        snprintf(err, errlen, "stencil = %d: phase-field diffusion (a mesh with a phase field) is second order; "
                 "use stencil = 2", cfg->order);
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
    s->fp64 = cfg->fp64;
    s->mixed = cfg->mixed;
    s->half = (cfg->half || cfg->frac) && !cfg->fp64;
    s->frac = cfg->frac && !cfg->fp64;
    s->tsteps = cfg->tsteps;
    s->multirate = cfg->multirate > 1 ? cfg->multirate : 0;
    s->quiescent = cfg->quiescent;
    s->rest_every_cell = cfg->rest_every_cell;
    s->quiet_below = cfg->quiescent_below;
    s->quiet_diffusion = cfg->quiescent_diffusion;
    if ((s->multirate && check_multirate(s, err, errlen) != 0) || (s->frac && check_fp32g(s, err, errlen) != 0) ||
        (cfg->tables && check_tables(s, cfg, err, errlen) != 0) ||
        (cfg->quiescent && check_quiescent(s, cfg, err, errlen) != 0)) {
        sim_destroy(s);
        return NULL;
    }
    s->block[0] = cfg->block[0];
    s->block[1] = cfg->block[1];
    snprintf(s->layout, sizeof s->layout, "%s", cfg->layout ? cfg->layout : "");
    if (cfg->members && cfg->blocks[0]) {
        snprintf(err, errlen, "blocks: an ensemble's members are stored whole (a member with holes keeps its mask); "
                 "leave out blocks");
        sim_destroy(s);
        return NULL;
    }
    if (cfg->members && members_init(s, cfg->members, err, errlen) != 0) {
        sim_destroy(s);
        return NULL;
    }
    if (setup_part(s, be, g, cfg, err, errlen) != 0 || check_blocks(s, cfg, err, errlen) != 0) {
        sim_destroy(s);
        return NULL;
    }
    double need = sim_bytes_needed(&s->lg, m->def, cfg->fp64);
    if (m->def->multiscale) need += multiscale_bytes(s->lg.ntissue, (int)m->p[GR_DYADS], cfg->fp64);
    size_t avail = host_memory_available();
    if (be == &backend_cpu && avail && need > (double)avail) {
        char a[32], b[32];
        format_bytes(need, a, sizeof a);
        format_bytes((double)avail, b, sizeof b);
        snprintf(err, errlen, "the simulation needs %s of memory for %zu cells x %d state variables; "
                 "only %s is available", a, s->lg.ncells, m->def->nstate, b);
        sim_destroy(s);
        return NULL;
    }
    /* blockDS under mpirun: each rank stores the blocks of its part (ghost
     * layers included) that hold tissue, on the CPU and on the GPU */
    for (int a = 0; a < 3; a++) s->blocks[a] = cfg->blocks[a];
    s->dt = cfg->dt;
    s->bad_cell = s->bad_gcell = -1;
    if (sim_set_diffusion(s, cfg->D, err, errlen) != 0) { sim_destroy(s); return NULL; }
    s->be = be;
    if (multiscale_check(s, err, errlen) != 0) { sim_destroy(s); return NULL; }
    if (cfg->tables && (!(s->tables = calloc(1, sizeof *s->tables)) || rate_tables_build(s, err, errlen) != 0)) {
        if (!err[0]) snprintf(err, errlen, "out of memory for the rate tables");
        sim_destroy(s);
        return NULL;
    }
    if (be->init(s, err, errlen) != 0) {
        if (!err[0]) {
            char nb[32];
            format_bytes(need, nb, sizeof nb);
            snprintf(err, errlen, "out of memory allocating %s of simulation state", nb);
        }
        sim_destroy(s);
        return NULL;
    }
    if (multiscale_create(s, err, errlen) != 0) {
        if (!err[0]) snprintf(err, errlen, "out of memory allocating the calcium release units");
        sim_destroy(s);
        return NULL;
    }
    return s;
}

void sim_destroy(sim *s)
{
    if (!s) return;
    if (s->out) h5out_close(s->out, s);
    halo_free(s);
    for (size_t q = s->nfeatures; q-- > 0;) s->features[q].ops->release(s, s->features[q].obj);
    free(s->features);
    free(s->trackers);   /* (their objects went with the features) */
    free(s->ecgs);
    free(s->probes);
    multiscale_free(s);
    tips_release(s);
    members_free(s);
    if (s->be && s->be->free) s->be->free(s);
    for (size_t q = 0; q < s->nstims; q++) stimulus_free(&s->stims[q]);
    free(s->stims);
    free(s->stim_on);
    sim_free_param_sets(s);
    rate_tables_free(s->tables);
    grid_free(&s->g);
    grid_free(&s->lg);
    decomp_free(&s->dc);
    free(s);
}

/* Global cell c as a local index of the stored cells, -1 when not stored. */
long sim_local_index(const sim *s, size_t c)
{
    int i, j, k;
    grid_ijk(&s->g, c, &i, &j, &k);
    return decomp_local_index(&s->dc, i, j, k);
}

int sim_attach(sim *s, const feature_ops *ops, void *obj)
{
    for (size_t q = 0; q < s->nfeatures; q++)
        if (s->features[q].ops == ops && s->features[q].obj == obj) return 0;
    struct attached *f = realloc(s->features, (s->nfeatures + 1) * sizeof *f);
    if (!f) return -1;
    s->features = f;
    s->features[s->nfeatures++] = (struct attached){ops, obj};
    return 0;
}

/* Every attached feature of this kind at the current step boundary. */
static void features_at(sim *s, feature_kind kind)
{
    for (size_t q = 0; q < s->nfeatures && !s->failed; q++)
        if (s->features[q].ops->kind == kind) s->features[q].ops->at(s, s->features[q].obj);
}

void sim_view(sim *s, unsigned want, struct state_view *v)
{
    s->be->view(s, want, v);
}

int sim_owns(const sim *s, size_t c)
{
    int i, j, k;
    grid_ijk(&s->g, c, &i, &j, &k);
    return decomp_owns(&s->dc, i, j, k);
}

/* The stimulus keeps the stored cells among its cells, as local indices
 * (ghost cells too, so that any layout may step them). */
size_t sim_keep_local(const sim *s, size_t *cells, size_t n)
{
    size_t m = 0;
    for (size_t q = 0; q < n; q++) {
        long l = sim_local_index(s, cells[q]);
        if (l >= 0) cells[m++] = (size_t)l;
    }
    return m;
}

void sim_add_stimulus(sim *s, stimulus *st)
{
    st->ncells = sim_keep_local(s, st->cells, st->ncells);
    s->stims = realloc(s->stims, (s->nstims + 1) * sizeof *s->stims);
    s->stim_on = realloc(s->stim_on, s->nstims + 1);
    s->stims[s->nstims] = *st;
    s->stim_on[s->nstims] = 0;
    s->nstims++;
    memset(st, 0, sizeof *st);
}

static int check_failed(sim *s, char *err, size_t errlen)
{
    if (!s->failed) return 0;
    snprintf(err, errlen, "%s", s->error);
    return -1;
}

/* The first failure and the first non-finite cell of any rank become every
 * rank's, so that all ranks stop together (collective under MPI). The
 * non-finite cell is keyed by (step, global cell, variable). */
static void share_state(sim *s)
{
    int f = s->failed ? par_size() - par_rank() : 0;
    par_max_ints(&f, 1);
    if (f) {
        par_bcast_from(par_size() - f, s->error, sizeof s->error);
        s->failed = 1;
    }
    const long nc = (long)s->g.ncells;
    long key = LONG_MAX;
    if (s->bad_cell >= 0)
        key = (s->bad_step * nc + (long)decomp_global_index(&s->dc, (size_t)s->bad_cell)) * MODEL_MAX_STATE +
              s->bad_var;
    par_min_longs(&key, 1);
    if (key == LONG_MAX) return;
    s->bad_var = (int)(key % MODEL_MAX_STATE);
    key /= MODEL_MAX_STATE;
    s->bad_gcell = key % nc;
    s->bad_step = key / nc;
    if (s->bad_cell < 0) s->bad_cell = 0;
}

/* Sums the probe rows the ranks filled so far: each rank sampled the cells it owns. */
static void sim_combine_probes(sim *s)
{
    for (size_t q = 0; q < s->nprobes; q++) {
        probe *p = s->probes[q];
        const size_t row = (size_t)p->nvars * p->ncells;
        if (p->nready > p->ncombined)
            par_sum_floats(probe_row(p, p->ncombined), (p->nready - p->ncombined) * row);
        p->ncombined = p->nready;
    }
}

int sim_sync(sim *s, char *err, size_t errlen)
{
    s->be->sync(s);
    for (size_t q = 0; q < s->nprobes; q++) probe_flush(s, s->probes[q]);
    share_state(s);
    if (!s->failed) sim_combine_probes(s);
    return check_failed(s, err, errlen);
}

/* Copies the owned cells of a stored field (values of esize bytes) into their
 * places in a whole-grid field. */
static void place_owned(const sim *s, const void *loc, void *dst, size_t esize)
{
    for (int k = s->own_lo[2]; k < s->own_hi[2]; k++)
        for (int j = s->own_lo[1]; j < s->own_hi[1]; j++) {
            const size_t lc = grid_index(&s->lg, s->own_lo[0], j, k);
            const size_t gc = grid_index(&s->g, s->dc.lo[0], j + s->dc.slo[1], k + s->dc.slo[2]);
            memcpy((char *)dst + gc * esize, (const char *)loc + lc * esize,
                   (size_t)(s->own_hi[0] - s->own_lo[0]) * esize);
        }
}

int sim_gather_whole(sim *s, sim_local_getter get, void *obj, int arg, void *dst, size_t esize)
{
    if (s->dc.nranks == 1) { get(s, obj, arg, dst); return 0; }
    void *loc = malloc(s->lg.ncells * esize);
    if (!loc) { sim_fail(s, "out of memory gathering a field"); return -1; }
    get(s, obj, arg, loc);
    memset(dst, 0, s->g.ncells * esize);
    place_owned(s, loc, dst, esize);
    free(loc);
    par_or_bytes(dst, s->g.ncells * esize);
    return 0;
}

static void get_field_local(sim *s, void *obj, int var, void *dst) { (void)obj; s->be->get_field(s, var, dst); }
static void get_state_local(sim *s, void *obj, int var, void *dst) { (void)obj; s->be->get_state(s, var, dst); }
static void get_labels_local(sim *s, void *obj, int arg, void *dst)
{
    (void)obj; (void)arg;
    if (s->plabel) memcpy(dst, s->plabel, s->lg.ncells);
    else memset(dst, 0, s->lg.ncells);
}

int sim_param_labels_whole(sim *s, unsigned char *dst)
{
    return sim_gather_whole(s, get_labels_local, NULL, 0, dst, 1);
}

void sim_get_field(sim *s, int var, float *dst)
{
    sim_gather_whole(s, get_field_local, NULL, var, dst, sizeof *dst);
}

size_t sim_state_size(const sim *s) { return s->fp64 ? sizeof(double) : sizeof(float); }

int sim_precision(const sim *s)
{
    return s->mixed ? PRECISION_MIXED : s->fp64 ? PRECISION_FP64 : s->frac ? PRECISION_FP32G
         : s->half ? PRECISION_FP32H : PRECISION_FP32;
}

int sim_var_fp64(const sim *s, int v) { return s->fp64 && !(s->mixed && (s->m.def->mixed_float >> v & 1)); }
int sim_var_half(const sim *s, int v) { return s->half && (s->m.def->half_gates >> v & 1); }
int sim_var_frac(const sim *s, int v) { return s->frac && (s->m.def->frac_gates >> v & 1); }

int sim_states_alike(sim *s, int a, int b, int half_ok, const char *what)
{
    const int ha = sim_var_half(s, a), hb = sim_var_half(s, b);
    const int fa = sim_var_frac(s, a), fb = sim_var_frac(s, b);
    if (fa || fb) {
        if (fa && fb && half_ok) return 1;
        sim_fail(s, "%s: state '%s' is stored as a 16-bit fraction on the GPU in precision 'fp32g'%s; use two states "
                 "stored in float, precision 'fp32', or the cpu backend", what, s->m.def->states[fa ? a : b].name,
                 half_ok ? " and cannot be combined with other states there" : "");
        return 0;
    }
    if (ha || hb) {
        if (ha && hb && half_ok) return 1;
        sim_fail(s, "%s: state '%s' is stored in half on the GPU in precision '%s'%s; use two states stored in "
                 "float, precision 'fp32', or the cpu backend", what, s->m.def->states[ha ? a : b].name,
                 s->frac ? "fp32g" : "fp32h", half_ok ? " and cannot be combined with float states there" : "");
        return 0;
    }
    if (sim_var_fp64(s, a) == sim_var_fp64(s, b)) return 1;
    sim_fail(s, "%s: state '%s' is stored in float on the GPU in precision 'mixed' and cannot be combined with "
             "double states there; use two non-gate states, precision 'fp64', or the cpu backend", what,
             s->m.def->states[sim_var_fp64(s, a) ? b : a].name);
    return 0;
}

int sim_get_state(sim *s, int var, void *dst)
{
    return sim_gather_whole(s, get_state_local, NULL, var, dst, sim_state_size(s));
}

int sim_set_state(sim *s, int var, const void *src)
{
    const size_t e = sim_state_size(s);
    if (s->dc.nranks == 1) { s->be->set_state(s, var, src); return 0; }
    char *loc = malloc(s->lg.ncells * e);
    if (!loc) { sim_fail(s, "out of memory scattering a field"); return -1; }
    for (size_t c = 0; c < s->lg.ncells; c++) memcpy(loc + c * e, (const char *)src + decomp_global_index(&s->dc, c) * e, e);
    s->be->set_state(s, var, loc);
    free(loc);
    return 0;
}

static void get_lags_local(sim *s, void *obj, int arg, void *dst) { (void)obj; (void)arg; s->be->get_lags(s, dst); }

int sim_get_lags(sim *s, unsigned char *dst)
{
    return sim_gather_whole(s, get_lags_local, NULL, 0, dst, 1);
}

int sim_set_lags(sim *s, const unsigned char *src)
{
    if (s->dc.nranks == 1) { s->be->set_lags(s, src); return 0; }
    unsigned char *loc = malloc(s->lg.ncells);
    if (!loc) { sim_fail(s, "out of memory scattering the quiescent cells' lags"); return -1; }
    for (size_t c = 0; c < s->lg.ncells; c++) loc[c] = src[decomp_global_index(&s->dc, c)];
    s->be->set_lags(s, loc);
    free(loc);
    return 0;
}

double sim_time_steps(sim *s, long nsteps, int exchange)
{
    s->halo_off = !exchange;
    double ms = s->be->time_steps(s, nsteps);
    s->halo_off = 0;
    s->nstep += nsteps;
    par_max_doubles(&ms, 1);
    return ms;
}

void sim_forget_bad_cell(sim *s) { s->bad_cell = s->bad_gcell = -1; }

int sim_output_open(sim *s, const h5out_config *cfg, char *err, size_t errlen)
{
    if (s->out) {
        snprintf(err, errlen, "this simulation already writes '%s'; close it first with sim:close_output()",
                 h5out_path(s->out));
        return -1;
    }
    s->out = h5out_open(cfg, s, err, errlen);
    return s->out ? 0 : -1;
}

const char *sim_output_path(const sim *s) { return s->out ? h5out_path(s->out) : NULL; }

void sim_output_close(sim *s)
{
    if (s->out) h5out_close(s->out, s);
}

int sim_output_flush(sim *s, int complete) { return s->out ? h5out_flush(s->out, s, complete) : 0; }

/* Writes the queued output snapshot, if any, to the file. */
static int write_pending_frame(sim *s, char *err, size_t errlen)
{
    if (!s->frame_pending) return 0;
    s->frame_pending = 0;
    if (!s->out) return 0;
    const float *fields[MODEL_MAX_STATE];
    int nvars = h5out_nvars(s->out);
    for (int q = 0; q < nvars; q++) fields[q] = s->be->snapshot_field(s, q);
    if (check_failed(s, err, errlen)) return -1;
    return h5out_frame(s->out, s, fields, s->frame_t, s->frame_step, err, errlen);
}

/* The measurements due and a due output frame at the current step. */
static int record_events(sim *s, char *err, size_t errlen)
{
    features_at(s, FEATURE_MEASUREMENT);
    if (s->out && h5out_due(s->out, s)) {
        if (write_pending_frame(s, err, errlen) != 0) return -1;
        s->be->snapshot(s, h5out_vars(s->out), h5out_nvars(s->out));
        h5out_mark(s->out, s->nstep);
        s->frame_pending = 1;
        s->frame_t = sim_time(s);
        s->frame_step = s->nstep;
    }
    return check_failed(s, err, errlen);
}

int sim_record(sim *s, char *err, size_t errlen)
{
    if (record_events(s, err, errlen) != 0) return -1;
    if (write_pending_frame(s, err, errlen) != 0) return -1;
    return sim_sync(s, err, errlen);
}

static int stimulus_pattern_at(const sim *s, long step, size_t q)
{
    return stimulus_active(&s->stims[q], s->t0 + step * s->dt, s->dt);
}

static void update_stimuli(sim *s)
{
    int changed = 0;
    for (size_t q = 0; q < s->nstims; q++) {
        unsigned char on = (unsigned char)stimulus_pattern_at(s, s->nstep, q);
        changed |= on != s->stim_on[q];
        s->stim_on[q] = on;
    }
    if (changed) s->be->stim_changed(s);
}

/* Steps from now until the next event, at most limit: a stimulus switching on
 * or off, a feature acting (a clamp, a probe sample, ...), or an output frame. */
static long steps_to_event(const sim *s, long limit)
{
    long n = limit;
    for (size_t q = 0; q < s->nfeatures; q++) n = s->features[q].ops->steps_to(s, s->features[q].obj, n);
    if (s->out) {
        long e = h5out_every(s->out), d = e - s->nstep % e;
        if (d < n) n = d;
    }
    for (long d = 1; d < n; d++)
        for (size_t q = 0; q < s->nstims; q++)
            if ((unsigned char)stimulus_pattern_at(s, s->nstep + d, q) != s->stim_on[q]) return d;
    return n;
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void report_bad(sim *s, char *err, size_t errlen)
{
    int i, j, k;
    grid_ijk(&s->g, (size_t)s->bad_gcell, &i, &j, &k);
    snprintf(err, errlen,
             "state variable '%s' became NaN or Inf at step %ld (t = %g ms) in cell (%d, %d, %d) "
             "(1-based); lower dt or check the parameters",
             s->m.def->states[s->bad_var].name, s->bad_step, s->t0 + s->bad_step * s->dt,
             i + 1, j + 1, k + 1);
}

/* Waits for the backend and checks for failures and non-finite states. */
static int checkpoint(sim *s, char *err, size_t errlen)
{
    if (sim_sync(s, err, errlen) != 0) return -1;
    if (s->bad_cell >= 0) {
        report_bad(s, err, errlen);
        return -1;
    }
    return 0;
}

int sim_advance(sim *s, long nsteps, volatile int *interrupt, progress_fn prog, void *ctx,
                char *err, size_t errlen)
{
    if (s->bad_cell >= 0) {
        report_bad(s, err, errlen);
        return -1;
    }
    features_at(s, FEATURE_INTERVENTION);
    if (sim_record(s, err, errlen) != 0) return -1;
    const long start = s->nstep;
    double last_report = wall_seconds(), last_check = last_report;
    /* steps queued between checks; grows to ~0.1 s of work and is kept for
     * the next call, so that runs in short slices (sim:start) do not check
     * after 1, 2, 4, ... steps each time */
    /* ... and a multiple of the steps a kernel takes (tsteps, K), so that a
     * check leaves no shorter kernel behind: on tplane a launch of 1 step
     * costs about what one of 3 does (docs/gpu-notebook.md, item 57) */
    const long unit = s->tsteps > 1 ? s->tsteps : 1;
    long chunk = s->chunk > 0 ? s->chunk : unit;
    long since_check = 0;
    int rc = 0;
    while (s->nstep - start < nsteps) {
        /* under MPI the ranks stop together, at a checkpoint */
        if (!par_active() && interrupt && *interrupt) { rc = 1; break; }
        update_stimuli(s);
        long n = steps_to_event(s, nsteps - (s->nstep - start));
        if (n > chunk - since_check) n = chunk - since_check;
        s->be->step(s, n);
        s->nstep += n;
        features_at(s, FEATURE_INTERVENTION);
        since_check += n;
        if (write_pending_frame(s, err, errlen) != 0) { rc = -1; break; }
        if (since_check >= chunk || (!par_active() && s->bad_cell >= 0)) {
            if (checkpoint(s, err, errlen) != 0) { rc = -1; break; }
            double now = wall_seconds();
            /* every rank takes the same chunks: the slowest rank's time decides */
            double v[2] = {now - last_check, interrupt && *interrupt};
            par_max_doubles(v, 2);
            if (v[1]) { rc = 1; break; }
            if (v[0] < 0.05 && chunk < (1L << 20)) chunk *= 2;
            else if (v[0] > 0.2 && chunk > unit) chunk /= 2;
            last_check = now;
            since_check = 0;
            if (prog && now - last_report > 0.25) {
                prog(ctx, s, s->nstep - start, nsteps, 0);
                last_report = now;
            }
        }
        if (record_events(s, err, errlen) != 0) { rc = -1; break; }
    }
    if (rc >= 0) {
        if (write_pending_frame(s, err, errlen) != 0 || checkpoint(s, err, errlen) != 0) rc = -1;
    }
    s->chunk = chunk;
    if (prog) prog(ctx, s, s->nstep - start, nsteps, 1);
    return rc;
}

long sim_steps_for(sim *s, double ms)
{
    const double want = ms + s->run_rest;
    const long n = (long)floor(want / s->dt + 0.5);
    s->run_rest = want - n * s->dt;
    return n < 0 ? 0 : n;
}
