/* Ensembles: many small simulations stepped as one. Members that share a mesh
 * shape, a model, dt, the stencil and the precision are stacked along one more
 * axis of the grid, its last: a 2D member is a z layer of a 3D grid, a 1D
 * member a row of a 2D grid. No diffusion couples the layers (D is 0 along
 * the member axis), so the state, parameter sets, stimuli, clamps, activation
 * maps, probes, output and the MPI split along the last axis serve every
 * member at once, and each member's result equals, bit for bit, the same
 * simulation run alone: the member axis adds 0 times a finite difference,
 * which is exactly 0 (tests/ensemble.lua). What differs per member lives
 * here: its D, as coefficients per layer of the stencil (core/engine/stencil.h)
 * when the members' D differ. Each member's own parameters are parameter
 * sets (core/interventions/param_sets.h) over its layer. */
#ifndef CARDIAC_MEMBERS_H
#define CARDIAC_MEMBERS_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sim;

/* Members of an ensemble, 0 for a simulation that is not one. */
int sim_members(const struct sim *s);
/* Member k's D (mm^2/ms per axis of the grid; 0 along the member axis). */
const double *sim_member_D(const struct sim *s, int k);
/* Gives member k (0-based) its own D (per axis of the grid; the member
 * axis's value must be 0). Checked against dt for that member first; nothing
 * changes on error (-1 with err). The same call on every rank under MPI. */
int sim_set_member_D(struct sim *s, int k, const double D[3], char *err, size_t errlen);
/* Whether dt is stable for every member's D with reaction-rate bound rate
 * (1/ms); for a simulation that is not an ensemble, for its D. */
int sim_check_dt_members(const struct sim *s, double rate, char *err, size_t errlen);
/* The largest stable dt over the members (or of the simulation's D). */
double sim_dt_max(const struct sim *s);

/* For sim_create and sim_set_diffusion (core/engine/sim.c). */
int members_init(struct sim *s, int members, char *err, size_t errlen);
void members_set_all(struct sim *s, const double D[3]);
void members_free(struct sim *s);

#ifdef __cplusplus
}
#endif

#endif
