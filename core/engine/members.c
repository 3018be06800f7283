/* Ensembles: each member's D (core/engine/members.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "members.h"
#include "sim.h"

int sim_members(const sim *s) { return s->members; }

const double *sim_member_D(const sim *s, int k) { return s->mD[k]; }

int members_init(sim *s, int members, char *err, size_t errlen)
{
    const grid *g = &s->g;
    const int ax = g->dim - 1;
    if (g->dim < 2 || g->n[ax] != members) {
        snprintf(err, errlen, "an ensemble of %d members needs a grid whose last axis has %d cells (one per member), "
                 "got %d x %d x %d", members, members, g->n[0], g->n[1], g->n[2]);
        return -1;
    }
    s->mD = calloc((size_t)members, sizeof *s->mD);
    if (!s->mD) { snprintf(err, errlen, "out of memory for the ensemble's members"); return -1; }
    s->members = members;
    s->st.maxis = ax;
    return 0;
}

/* No coefficients per layer: the stencil's one set serves every cell. */
static void drop_layers(sim *s)
{
    free(s->mcoef);
    s->mcoef = NULL;
    s->st.mcoef = NULL;
    s->st.mversion++;
}

void members_free(sim *s)
{
    drop_layers(s);
    free(s->mD);
    s->mD = NULL;
}

/* Every member takes D: one set of coefficients again. */
void members_set_all(sim *s, const double D[3])
{
    if (!s->members) return;
    for (int k = 0; k < s->members; k++) memcpy(s->mD[k], D, sizeof s->mD[k]);
    drop_layers(s);
}

static int check_member_dt(const sim *s, int k, const double D[3], double rate, char *err, size_t errlen)
{
    char why[384];
    if (sim_check_dt(s, D, rate, why, sizeof why) == 0) return 0;
    if (s->members) snprintf(err, errlen, "member %d: %s", k + 1, why);
    else snprintf(err, errlen, "%s", why);
    return -1;
}

int sim_check_dt_members(const sim *s, double rate, char *err, size_t errlen)
{
    if (!s->members) return check_member_dt(s, 0, s->D, rate, err, errlen);
    for (int k = 0; k < s->members; k++)
        if (check_member_dt(s, k, s->mD[k], rate, err, errlen) != 0) return -1;
    return 0;
}

double sim_dt_max(const sim *s)
{
    const double rate = sim_rate_bound(s);
    if (!s->members) return sim_dt_limit(s, s->D, rate);
    double lim = sim_dt_limit(s, s->mD[0], rate);
    for (int k = 1; k < s->members; k++) {
        const double q = sim_dt_limit(s, s->mD[k], rate);
        if (q < lim) lim = q;
    }
    return lim;
}

/* The coefficients of each layer this rank stores, from its member's D (the
 * expression of stencil_setup, so that a member steps with the bits it would
 * alone); none when every member has the same D. */
static int build_layers(sim *s)
{
    int same = 1;
    for (int k = 1; k < s->members && same; k++) same = !memcmp(s->mD[k], s->mD[0], sizeof s->mD[0]);
    drop_layers(s);
    if (same) {
        stencil_setup(&s->st, &s->lg, s->order, s->mD[0]);
        memcpy(s->D, s->mD[0], sizeof s->D);
        return 0;
    }
    const grid *g = &s->lg;
    const int ax = s->st.maxis, nl = g->n[ax];
    s->mcoef = malloc((size_t)nl * 3 * sizeof *s->mcoef);
    if (!s->mcoef) return -1;
    for (int l = 0; l < nl; l++) {
        const double *D = s->mD[s->dc.slo[ax] + l];
        for (int a = 0; a < 3; a++) s->mcoef[3 * l + a] = a < g->dim ? D[a] / (g->h[a] * g->h[a]) : 0.0;
    }
    s->st.mcoef = s->mcoef;
    return 0;
}

int sim_set_member_D(sim *s, int k, const double D[3], char *err, size_t errlen)
{
    if (!s->members) { snprintf(err, errlen, "the simulation is not an ensemble"); return -1; }
    if (k < 0 || k >= s->members) {
        snprintf(err, errlen, "member %d does not exist: the ensemble has members 1 to %d", k + 1, s->members);
        return -1;
    }
    if (D[s->st.maxis] != 0) {
        snprintf(err, errlen, "member %d: D along the member axis must be 0 (members do not couple), got %g", k + 1,
                 D[s->st.maxis]);
        return -1;
    }
    if (check_member_dt(s, k, D, sim_rate_bound(s), err, errlen) != 0) return -1;
    double old[3];
    memcpy(old, s->mD[k], sizeof old);
    memcpy(s->mD[k], D, sizeof s->mD[k]);
    if (build_layers(s) != 0) {
        memcpy(s->mD[k], old, sizeof old);
        build_layers(s);
        snprintf(err, errlen, "out of memory for the members' diffusion coefficients");
        return -1;
    }
    return 0;
}
