/* The dyad stage of multiscale cell models (model_def.multiscale, today
 * gaur_rudy): every tissue cell this rank owns carries n calcium release
 * units on a grid of n = nx ny nz (the cell's 100 x 10 x 10 for 10,000),
 * stepped before the cell level in every time step (core/multiscale/dyads.h): channel
 * gating drawn from counter-based random numbers keyed by (seed, dyad and
 * channel type; global cell, step), so that a run gives the same channel
 * counts whatever the number of ranks; local calcium; diffusion between
 * neighbouring dyads; and the means the cell level reads (ICaL, INaCa, ...).
 * The dyads' state stays with the rank that owns the cell: calcium does not
 * cross cell borders, voltage does (the ordinary halo exchange). */
#ifndef CARDIAC_MULTISCALE_H
#define CARDIAC_MULTISCALE_H
#include <stddef.h>
#include <stdint.h>
#include "stimulus.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-dyad real arrays: dyadic space, submembrane space, myoplasm, NSR, JSR,
 * the L-type channels' Ca-dependent mode, trapped CaMKII. */
enum { MS_CADS, MS_CASS, MS_CACYT, MS_CANSR, MS_CAJSR, MS_NCA, MS_CAMKT, MS_NVAR };

typedef struct {
    stimulus when;              /* the pulse timing and the region's cells as slots of multiscale.lcell */
    int state;                  /* DYAD_RYR_OPEN or DYAD_RYR_CLOSED */
} ryr_clamp;

typedef struct multiscale {
    int n, shape[3];            /* dyads per cell and their grid */
    uint32_t seed;
    size_t ncells;              /* cells with dyads: this rank's owned tissue cells */
    size_t *lcell;              /* their local indices (s->lg) */
    uint64_t *gcell;            /* their global indices, the random numbers' key */
    uint64_t key_period;        /* an ensemble (core/engine/members.h): the key is the cell's index in its
                                   member's layer, gcell mod this, so that a member draws what it draws
                                   alone; 0: gcell */
    size_t esize;               /* bytes per real: 4 or 8, the state's precision */
    /* The dyads' state in host memory (CPU backend); NULL where it lives on
     * the GPU (dev: the GPU half, dyads_cu.cu beside multiscale.c). */
    void *var[MS_NVAR];         /* ncells x n values each, cell-major */
    void *next[MS_NVAR];        /* diffusion's targets (cass, cacyt, cansr) */
    uint32_t *ryr;              /* RyR counts packed C1 | O1 << 8 | C2 << 16 | C3 << 24 */
    unsigned char *clamp;       /* per cell: the RyR clamp of the current step (DYAD_RYR_*) */
    ryr_clamp *clamps; size_t nclamps;
    unsigned char *active;      /* per clamp: on in the step of the last multiscale_clamps_at */
    int clamps_dirty;           /* clamps added since */
    struct gpu_dyads *dev;      /* the dyads in GPU memory (core/multiscale/dyads_cu.h), or NULL */
} multiscale;

struct sim;

/* The grid of n dyads: (n, 1, 1) up to 100, (100, n/100, 1) up to 1,000 and
 * (100, 10, n/1000) up to 10,000. 0, or -1 with err for other counts. */
int multiscale_shape(int n, int shape[3], char *err, size_t errlen);
/* Bytes the dyads of ncells cells need; for s's model (0 for others). */
double multiscale_bytes(size_t ncells, int n, int fp64);
double multiscale_need(const struct sim *s, size_t ncells);
/* The resting state of one dyad: the reals MS_* and the packed RyR counts
 * (the tiers in equilibrium at the resting JSR Ca2+). */
void multiscale_rest_dyad(const struct sim *s, double v[MS_NVAR], uint32_t *ryr);
/* Checks, before the backend allocates anything, that the dyad stage
 * supports s's backend and storage and that the dyad count fills the grid;
 * 0 or -1 with err. */
int multiscale_check(const struct sim *s, char *err, size_t errlen);
/* Allocates the dyads of s's owned tissue cells at the resting state
 * (multiscale_check passed), in host memory or, where the state lives on
 * the GPU, in GPU memory (multiscale_init_cu); 0 or -1 with err. */
int multiscale_create(struct sim *s, char *err, size_t errlen);
void multiscale_free(struct sim *s);
/* The dyads' state to (to_host) or from host arrays var[MS_NVAR] (ncells x n
 * values of esize bytes each, cell-major) and ryr, wherever the backend keeps
 * it (checkpoints). */
void multiscale_copy(struct sim *s, void *const *var, uint32_t *ryr, int to_host);
/* The dyads' variable (MS_*) that cell-state variable `var` of s's model is
 * the mean of; -1 for a state the dyads do not hold (or a model without
 * dyads); -2 for one the dyad stage writes each step from its sums
 * (currents, fluxes, CaMKII's active fraction, counts), which cannot be set. */
int multiscale_dyad_var(const struct sim *s, int var);
/* After the cell-state variable `var` of the global tissue cells cells[n] was
 * set to the values of `field` (the whole grid in the state's precision):
 * every dyad of those cells this rank owns takes its cell's value, so the
 * dyad stage's next means keep it. 0; -1 out of memory. */
int multiscale_set_cells(struct sim *s, int var, const size_t *cells, size_t n, const void *field);
/* Takes ownership of when (global tissue cells); state DYAD_RYR_*. */
void sim_add_ryr_clamp(struct sim *s, stimulus *when, int state);
/* Sets ms->clamp (per cell, DYAD_RYR_*) for the step that starts at step
 * count `step`; 1 if it changed since the last call, 0 if not, -1 out of
 * memory. */
int multiscale_clamps_at(const struct sim *s, long step);
/* The dyad stage of the CPU backend for the step that starts at step count
 * `step`: var are the cell-state arrays (row-major over s->lg, the state's
 * precision), ptab the parameter sets (core/interventions/param_sets.h). Writes the means
 * into var. */
void multiscale_cpu_step(struct sim *s, void *const *var, const void *ptab, long step);

/* The GPU half (dyads_cu.cu), where the CUDA backend keeps the state: the
 * dyads allocated at the resting state (ms->dev), copied to or from host
 * arrays as multiscale_copy, freed; and, from the backend's step, the
 * simulation's parameters uploaded when a run starts and the stage of the
 * step that starts at step count `step` (before the cell level reads the
 * dyads' means), queued on the view's stream. */
struct state_view;
int  multiscale_init_cu(struct sim *s, const struct state_view *v, char *err, size_t errlen);
void multiscale_copy_cu(struct sim *s, const struct state_view *v, void *const *var, uint32_t *ryr, int to_host);
void multiscale_free_cu(multiscale *ms);
void multiscale_params_cu(struct sim *s, const struct state_view *v);
void multiscale_stage_cu(struct sim *s, const struct state_view *v, const uint8_t *plabel, const void *ptable,
                         long long step);

#ifdef __cplusplus
}
#endif

#endif
