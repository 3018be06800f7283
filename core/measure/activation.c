/* Activation maps: their names, a tracker's arrays where the state lives
 * (the CPU half; the GPU half is activation_cu.cu), and the
 * conduction-velocity fit over the maps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "activation.h"
#include "sim.h"
#include "state_view.h"
#include "threads.h"

const char *const track_field_names[TRACK_NFIELDS] = {"first", "last", "repol", "apd", "di", "count"};
const char *const track_field_units[TRACK_NFIELDS] = {"ms", "ms", "ms", "ms", "ms", "1"};

static void track_release(tracker *t)
{
    if (t->device) {
#ifdef CARDIAC_HAVE_CUDA
        track_release_cu(t);
#endif
        return;
    }
    track_arrays *a = &t->a;
    free(a->prev); free(a->vmin); free(a->peak); free(a->count); free(a->in_ap);
    for (int f = 0; f < TRACK_COUNT; f++) free(a->time[f]);
    memset(a, 0, sizeof *a);
}

/* Allocates the arrays on first use, and starts the rank's cells [c0, c1)
 * (all: c1 = -1) from the current state. */
static int track_begin(sim *s, tracker *t, size_t c0, size_t c1)
{
    state_view v;
    sim_view(s, 0, &v);
    if (c1 > v.ncells) c1 = v.ncells;
#ifdef CARDIAC_HAVE_CUDA
    if (v.device) return track_begin_cu(s, &v, t, c0, c1);
#endif
    track_arrays *a = &t->a;
    const size_t n = v.ncells;
    if (!a->prev) {
        a->prev = malloc(n * sizeof(float)); a->vmin = malloc(n * sizeof(float)); a->peak = malloc(n * sizeof(float));
        a->count = malloc(n * sizeof(int)); a->in_ap = malloc(n);
        int ok = a->prev && a->vmin && a->peak && a->count && a->in_ap;
        for (int f = 0; f < TRACK_COUNT; f++) ok = (a->time[f] = malloc(n * sizeof(float))) && ok;
        if (!ok) { track_release(t); sim_fail(s, "out of memory for the activation maps"); return -1; }
    }
    for (size_t c = c0; c < c1; c++) track_start(*a, c, (float)view_value(&v, t->var, c));
    return 0;
}

static void track_sample(sim *s, tracker *t, float tp, float tnow)
{
    state_view v;
    sim_view(s, 0, &v);
#ifdef CARDIAC_HAVE_CUDA
    if (v.device) { track_sample_cu(s, &v, t, tp, tnow); return; }
#endif
    const long n = (long)v.ncells;
#pragma omp parallel for schedule(static) num_threads(cpu_loop_threads((double)n))
    for (long c = 0; c < n; c++)
        track_cell(t->a, (size_t)c, (float)view_value(&v, t->var, (size_t)c), tp, tnow, t->threshold, t->fraction);
}

static void track_read(sim *s, tracker *t, int field, float *dst)
{
    state_view v;
    sim_view(s, 0, &v);
#ifdef CARDIAC_HAVE_CUDA
    if (v.device) { track_read_cu(s, &v, t, field, dst); return; }
#endif
    if (field == TRACK_COUNT) for (size_t c = 0; c < v.ncells; c++) dst[c] = (float)t->a.count[c];
    else memcpy(dst, t->a.time[field], v.ncells * sizeof *dst);
}

/* ---- trackers of a simulation: created, sampled by the step loop, read ---- */

static void read_local(sim *s, void *obj, int field, void *dst) { track_read(s, obj, field, dst); }

/* Times of a tracker are kept relative to its origin. */
void sim_track_field(sim *s, tracker *t, int field, float *dst)
{
    if (sim_gather_whole(s, read_local, t, field, dst, sizeof *dst) != 0 || field == TRACK_COUNT) return;
    if (field == TRACK_APD || field == TRACK_DI) return;
    for (size_t c = 0; c < s->g.ncells; c++) dst[c] = (float)(dst[c] + t->origin);
}

/* A feature of the step loop (core/engine/feature.h): a sample every `every`
 * steps after the tracker's start. */
static long tracker_steps_to(const sim *s, void *obj, long limit)
{
    const tracker *t = obj;
    return feature_steps_to_every(s->nstep, t->last_step, t->every, limit);
}

static void tracker_at(sim *s, void *obj)
{
    tracker *t = obj;
    if (!feature_due_every(s->nstep, t->last_step, t->every, t->last_step)) return;
    const double now = sim_time(s);
    track_sample(s, t, (float)(t->t_prev - t->origin), (float)(now - t->origin));
    t->t_prev = now;
    t->last_step = s->nstep;
}

static void tracker_release(sim *s, void *obj)
{
    (void)s;
    track_release(obj);
    free(obj);
}

static const feature_ops tracker_feature = {FEATURE_MEASUREMENT, tracker_steps_to, tracker_at, tracker_release};

int sim_restart_tracker(sim *s, tracker *t, char *err, size_t errlen)
{
    t->origin = t->t_prev = sim_time(s);
    t->last_step = s->nstep;
    if (track_begin(s, t, 0, (size_t)-1) != 0 || s->failed) {
        snprintf(err, errlen, "%s", s->failed ? s->error : "out of memory for the activation maps");
        return -1;
    }
    return 0;
}

int sim_restart_tracker_layer(sim *s, tracker *t, int layer, char *err, size_t errlen)
{
    const int ax = s->g.dim - 1;
    if (s->g.dim < 2 || layer < 0 || layer >= s->g.n[ax]) {
        snprintf(err, errlen, "layer %d does not exist", layer + 1);
        return -1;
    }
    if (t->last_step != s->nstep) {
        snprintf(err, errlen, "the maps have sampled since they started (at %g ms): a layer starts again only at "
                 "their start", t->origin);
        return -1;
    }
    /* the layer's cells this rank stores: a contiguous range of its cells */
    const int l = layer - s->dc.slo[ax];
    if (l < 0 || l >= s->lg.n[ax]) return 0;
    const size_t plane = s->lg.ncells / (size_t)s->lg.n[ax];
    if (track_begin(s, t, (size_t)l * plane, (size_t)(l + 1) * plane) != 0 || s->failed) {
        snprintf(err, errlen, "%s", s->failed ? s->error : "out of memory for the activation maps");
        return -1;
    }
    return 0;
}

tracker *sim_add_tracker(sim *s, int var, float threshold, float fraction, long every, char *err, size_t errlen)
{
    tracker *t = calloc(1, sizeof *t);
    tracker **list = realloc(s->trackers, (s->ntrackers + 1) * sizeof *list);
    if (!t || !list) { free(t); snprintf(err, errlen, "out of memory"); return NULL; }
    s->trackers = list;
    t->var = var;
    t->threshold = threshold;
    t->fraction = fraction;
    t->every = every;
    if (sim_restart_tracker(s, t, err, errlen) != 0) {
        track_release(t);
        free(t);
        return NULL;
    }
    if (sim_attach(s, &tracker_feature, t) != 0) {
        track_release(t);
        free(t);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->trackers[s->ntrackers++] = t;
    return t;
}


/* Solves the n x n system a x = b (row-major a, n <= 4) by Gaussian
 * elimination with partial pivoting; -1 when it is singular. */
static int solve(double *a, double *b, int n)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[p * n + c])) p = r;
        if (fabs(a[p * n + c]) < 1e-300) return -1;
        for (int k = 0; k < n; k++) { double t = a[c * n + k]; a[c * n + k] = a[p * n + k]; a[p * n + k] = t; }
        double t = b[c]; b[c] = b[p]; b[p] = t;
        for (int r = c + 1; r < n; r++) {
            double f = a[r * n + c] / a[c * n + c];
            for (int k = c; k < n; k++) a[r * n + k] -= f * a[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        for (int k = c + 1; k < n; k++) b[c] -= a[c * n + k] * b[k];
        b[c] /= a[c * n + c];
    }
    return 0;
}

static void centre(const grid *g, size_t c, double x[3])
{
    int ijk[3];
    grid_ijk(g, c, &ijk[0], &ijk[1], &ijk[2]);
    for (int a = 0; a < 3; a++) x[a] = grid_center(g, a, ijk[a]);
}

static int selected(const grid *g, const float *t, const unsigned char *sel, size_t c)
{
    return (sel ? sel[c] : g->mask[c]) && isfinite(t[c]);
}

/* Coordinates relative to the first used cell keep the normal equations well
 * conditioned on large meshes. */
size_t activation_plane_fit(const grid *g, const float *t, const unsigned char *sel, double *speed,
                            double dir[3], double *rms)
{
    const int d = g->dim, n = d + 1;
    double A[16] = {0}, b[4] = {0}, x0[3] = {0, 0, 0};
    size_t used = 0, first = (size_t)-1;
    *speed = NAN;
    *rms = NAN;
    dir[0] = dir[1] = dir[2] = NAN;
    for (size_t c = 0; c < g->ncells && first == (size_t)-1; c++)
        if (selected(g, t, sel, c)) first = c;
    if (first == (size_t)-1) return 0;
    centre(g, first, x0);
    for (size_t c = first; c < g->ncells; c++) {
        if (!selected(g, t, sel, c)) continue;
        double x[3], r[4] = {1};
        centre(g, c, x);
        for (int a = 0; a < d; a++) r[a + 1] = x[a] - x0[a];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) A[i * n + k] += r[i] * r[k];
            b[i] += r[i] * t[c];
        }
        used++;
    }
    if (used < (size_t)n || solve(A, b, n) != 0) return 0;
    double s2 = 0, ss = 0;
    for (int a = 0; a < d; a++) s2 += b[a + 1] * b[a + 1];
    for (size_t c = first; c < g->ncells; c++) {
        if (!selected(g, t, sel, c)) continue;
        double x[3], e = b[0] - t[c];
        centre(g, c, x);
        for (int a = 0; a < d; a++) e += b[a + 1] * (x[a] - x0[a]);
        ss += e * e;
    }
    *rms = sqrt(ss / used);
    if (!(s2 > 0)) return 0;
    *speed = 1 / sqrt(s2);
    for (int a = 0; a < 3; a++) dir[a] = a < d ? b[a + 1] * *speed : 0;
    return used;
}
