/* Phase singularities of a simulation's state (sim:tips): spiral-wave tips in
 * 2D, scroll-wave filaments in 3D. The backend finds each rank's singular
 * plaquettes where the state lives (on the GPU, tips_cu.cu beside tips.c:
 * only the list of singular plaquettes crosses to the host), the ranks share
 * them, and every rank joins them into tips or filaments
 * (core/measure/singularity.h). */
#ifndef CARDIAC_TIPS_H
#define CARDIAC_TIPS_H
#include "sim.h"
#include "singularity.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The singularities of the phase of state variables va and vb about centre
 * {a0, b0}, or about their means over the tissue when centre is NULL.
 * Returns their number and a malloc'd array in *out (NULL when none), or -1
 * after sim_fail. Collective under MPI: every rank gets the whole list. */
long sim_find_tips(sim *s, int va, int vb, const double *centre, singularity **out);

/* The spiral-wave tips of each z layer of a 3D grid taken as a 2D sheet of
 * its own (the members of an ensemble, core/engine/members.h): the
 * singularities of the phase about {a0, b0} on the plaquettes inside a layer,
 * sorted by layer, with their layer in .layer and z = 0. Returns their number
 * and a malloc'd array in *out, or -1 after sim_fail. Collective under MPI. */
long sim_find_layer_tips(sim *s, int va, int vb, const double centre[2], singularity **out);

/* Frees what the GPU half keeps (s->tips_dev) at the simulation's end. */
void tips_release(sim *s);

/* The GPU half (tips_cu.cu), where the state lives: the sums of va and vb (as
 * floats) over this rank's owned tissue cells, and the singular plaquettes of
 * their phase about (a0, b0) whose lower corner this rank owns (a malloc'd
 * *out; -1 after sim_fail). */
struct state_view;
void tips_sums_cu(sim *s, const struct state_view *v, int va, int vb, double sums[2]);
long tips_faces_cu(sim *s, const struct state_view *v, int va, int vb, double a0, double b0, sing_face **out);
void tips_release_cu(sim *s);

#ifdef __cplusplus
}
#endif

#endif
