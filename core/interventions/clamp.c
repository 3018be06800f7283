/* Clamps (core/interventions/clamp.h). */
#include <stdlib.h>
#include <string.h>
#include "sim.h"

/* Like stimuli, a clamp keeps its cells this rank stores, ghost cells too:
 * every rank then holds the same value in its copy of a clamped cell, as the
 * single-process run does, whatever the order of exchange and clamp. */
void sim_add_clamp(sim *s, stimulus *when, int var, double value)
{
    when->ncells = sim_keep_local(s, when->cells, when->ncells);
    s->clamps = realloc(s->clamps, (s->nclamps + 1) * sizeof *s->clamps);
    clamp *c = &s->clamps[s->nclamps++];
    c->when = *when;
    c->var = var;
    c->value = value;
    memset(when, 0, sizeof *when);
}

static int holds(const sim *s, const clamp *c, long step)
{
    return stimulus_active(&c->when, s->t0 + step * s->dt, s->dt);
}

void sim_apply_clamps(sim *s)
{
    for (size_t q = 0; q < s->nclamps; q++)
        if (holds(s, &s->clamps[q], s->nstep)) s->be->clamp(s, q);
}

long sim_steps_to_clamp(const sim *s, long limit)
{
    for (size_t q = 0; q < s->nclamps; q++) {
        const clamp *c = &s->clamps[q];
        if (s->t0 + s->nstep * s->dt >= stimulus_end(&c->when)) continue;
        for (long d = 1; d < limit; d++)
            if (holds(s, c, s->nstep + d)) { limit = d; break; }
    }
    return limit;
}

void sim_free_clamps(sim *s)
{
    for (size_t q = 0; q < s->nclamps; q++) stimulus_free(&s->clamps[q].when);
    free(s->clamps);
    s->clamps = NULL;
    s->nclamps = 0;
}
