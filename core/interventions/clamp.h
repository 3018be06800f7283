/* Clamps: a state variable of a region held at a value during pulses (a
 * region's membrane potential clamped, e.g. to rest to block conduction or
 * above threshold to excite it). The variable is set at every step boundary
 * that falls in a pulse, so the steps in between start from the clamped
 * value, neighbours see it through diffusion, and probes, maps and output
 * taken at those boundaries read it. The CPU half is clamp.c, the GPU half
 * clamp_cu.cu beside it. */
#ifndef CARDIAC_CLAMP_H
#define CARDIAC_CLAMP_H
#include <stddef.h>
#include "stimulus.h"

typedef struct {
    stimulus when;   /* the region's stored cells (local indices) and the pulse timing; amplitude unused */
    int var;         /* state variable held */
    double value;    /* in the variable's units */
    size_t *dev_cells;  /* the GPU half's copy of the cells (clamp_cu.cu), or NULL */
} clamp;

#ifdef __cplusplus
extern "C" {
#endif

struct sim;

/* Takes ownership of when (its cells are global indices, tissue cells
 * only). The clamps act at the step boundaries where they hold (a feature of
 * the step loop, core/engine/feature.h; queued on the backend). */
void sim_add_clamp(struct sim *s, stimulus *when, int var, double value);

/* The GPU half (clamp_cu.cu): queues c's value into its cells of the state. */
struct state_view;
void clamp_apply_cu(struct sim *s, const struct state_view *v, clamp *c);
void clamp_free_cu(clamp *c);

#ifdef __cplusplus
}
#endif

#endif
