/* Clamps: a state variable of a region held at a value during pulses (a
 * region's membrane potential clamped, e.g. to rest to block conduction or
 * above threshold to excite it). The variable is set at every step boundary
 * that falls in a pulse, so the steps in between start from the clamped
 * value, neighbours see it through diffusion, and probes, maps and output
 * taken at those boundaries read it. */
#ifndef CARDIAC_CLAMP_H
#define CARDIAC_CLAMP_H
#include <stddef.h>
#include "stimulus.h"

typedef struct {
    stimulus when;   /* the region's stored cells (local indices) and the pulse timing; amplitude unused */
    int var;         /* state variable held */
    double value;    /* in the variable's units */
} clamp;

#ifdef __cplusplus
extern "C" {
#endif

struct sim;

/* Takes ownership of when (its cells are global indices, tissue cells only). */
void sim_add_clamp(struct sim *s, stimulus *when, int var, double value);
/* Applies every clamp that holds at the current step boundary (queued on the backend). */
void sim_apply_clamps(struct sim *s);
/* Steps from now to the next step boundary at which a clamp holds, at most limit. */
long sim_steps_to_clamp(const struct sim *s, long limit);
void sim_free_clamps(struct sim *s);

#ifdef __cplusplus
}
#endif

#endif
