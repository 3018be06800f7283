/* Parameters that differ between regions of the tissue (ischaemia-like
 * interventions, transmural cell types): a table of parameter sets, identical
 * on every rank, and a label per stored cell saying which set it steps with.
 * Set 0 is the simulation's own model parameters (sim.m.p): those of the
 * cells no regional change reached, or of the first set in use when every
 * cell was reached; a
 * simulation whose cells all use set 0 has no label array at all, so the
 * homogeneous case costs nothing (the GPU kernels keep their
 * compile-time-folded parameters). */
#ifndef CARDIAC_PARAM_SETS_H
#define CARDIAC_PARAM_SETS_H
#include <stddef.h>
#include "model.h"

/* At most this many distinct sets (labels are bytes). */
#define PARAM_SETS_MAX 255

typedef double param_vec[MODEL_MAX_PARAM];

#ifdef __cplusplus
extern "C" {
#endif

struct sim;

/* Changes the parameters of the tissue cells `cells` (global row-major
 * indices; all cells when cells is NULL): a cell that now uses set L
 * afterwards uses the parameters next[L] (one entry per current set,
 * sim_param_sets() of them). Collective under MPI, with the same cells and
 * next on every rank. Nothing changes when the new parameters would make dt
 * unstable or need more than PARAM_SETS_MAX sets: -1 with err. */
int sim_change_params(struct sim *s, const size_t *cells, size_t n, const param_vec *next, char *err,
                      size_t errlen);

/* The number of parameter sets in use (1 for a homogeneous simulation). */
int sim_param_sets(const struct sim *s);
/* The parameters of set L. */
const double *sim_param_set(const struct sim *s, int L);
/* The set global cell c uses, or -1 when this rank does not store c. */
int sim_param_label(const struct sim *s, size_t c);
/* The set of every cell of the whole grid (row-major) into dst (ncells
 * bytes), from the ranks' owned cells (core/engine/sim.c, as the other whole-grid
 * gathers). Collective under MPI. 0, or -1 after sim_fail. */
int sim_param_labels_whole(struct sim *s, unsigned char *dst);
/* Replaces the parameter sets (sets[0] becomes the model's parameters) and
 * every cell's label (glabel: the whole grid's, row-major; may be NULL when
 * n == 1), as a checkpoint saved them. Checks dt against every set first;
 * nothing changes on error (-1 with err). Collective under MPI. */
int sim_replace_param_sets(struct sim *s, const param_vec *sets, int n, const unsigned char *glabel, char *err,
                           size_t errlen);
/* The largest reaction-rate bound (1/ms) over the sets in use: the dt limit's share. */
double sim_rate_bound(const struct sim *s);
void sim_free_param_sets(struct sim *s);

#ifdef __cplusplus
}
#endif

#endif
