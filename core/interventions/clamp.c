/* Clamps (core/interventions/clamp.h): the list, when each holds, and the
 * CPU half of applying one (the GPU half is clamp_cu.cu). */
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "state_view.h"

/* Like stimuli, a clamp keeps its cells this rank stores, ghost cells too:
 * every rank then holds the same value in its copy of a clamped cell, as the
 * single-process run does, whatever the order of exchange and clamp. */
static const feature_ops clamps_feature;

void sim_add_clamp(sim *s, stimulus *when, int var, double value)
{
    if (s->nclamps == 0 && sim_attach(s, &clamps_feature, NULL) != 0) {
        sim_fail(s, "out of memory adding a clamp");
        return;
    }
    when->ncells = sim_keep_local(s, when->cells, when->ncells);
    s->clamps = realloc(s->clamps, (s->nclamps + 1) * sizeof *s->clamps);
    clamp *c = &s->clamps[s->nclamps++];
    c->when = *when;
    c->var = var;
    c->value = value;
    c->dev_cells = NULL;
    memset(when, 0, sizeof *when);
}

static int holds(const sim *s, const clamp *c, long step)
{
    return stimulus_active(&c->when, s->t0 + step * s->dt, s->dt);
}

/* Clamps hold tissue cells only, which are always stored. */
static void apply(sim *s, const state_view *v, clamp *c)
{
#ifdef CARDIAC_HAVE_CUDA
    if (v->device) { clamp_apply_cu(s, v, c); return; }
#else
    (void)s;
#endif
    for (size_t k = 0; k < c->when.ncells; k++) view_set(v, c->var, view_store_of(v, c->when.cells[k]), c->value);
}

/* A feature of the step loop (core/engine/feature.h): the clamps that hold
 * at the current step boundary, applied. */
static void clamps_at(sim *s, void *obj)
{
    (void)obj;
    state_view v;
    int viewed = 0;
    for (size_t q = 0; q < s->nclamps; q++) {
        if (!holds(s, &s->clamps[q], s->nstep)) continue;
        if (!viewed) { sim_view(s, VIEW_WRITE, &v); viewed = 1; }
        apply(s, &v, &s->clamps[q]);
    }
}

/* Steps from now to the next step boundary at which a clamp holds, at most limit. */
static long clamps_steps_to(const sim *s, void *obj, long limit)
{
    (void)obj;
    for (size_t q = 0; q < s->nclamps; q++) {
        const clamp *c = &s->clamps[q];
        if (s->t0 + s->nstep * s->dt >= stimulus_end(&c->when)) continue;
        for (long d = 1; d < limit; d++)
            if (holds(s, c, s->nstep + d)) { limit = d; break; }
    }
    return limit;
}

static void free_clamps(sim *s)
{
    for (size_t q = 0; q < s->nclamps; q++) {
#ifdef CARDIAC_HAVE_CUDA
        if (s->clamps[q].dev_cells) clamp_free_cu(&s->clamps[q]);
#endif
        stimulus_free(&s->clamps[q].when);
    }
    free(s->clamps);
    s->clamps = NULL;
    s->nclamps = 0;
}

static void clamps_release(sim *s, void *obj)
{
    (void)obj;
    free_clamps(s);
}

static const feature_ops clamps_feature = {FEATURE_INTERVENTION, clamps_steps_to, clamps_at, clamps_release};
