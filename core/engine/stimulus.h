/* Stimuli: a set of tissue cells receiving a constant dV/dt current during
 * pulses. Pulse starts are either a train (start, period, count) or an
 * explicit list of times (S1-S2 sequences, arbitrary protocols). */
#ifndef CARDIAC_STIMULUS_H
#define CARDIAC_STIMULUS_H
#include <stddef.h>

typedef struct {
    size_t *cells;      /* linear indices of tissue cells */
    size_t ncells;
    double amplitude;   /* added to dV/dt, model units of V per ms */
    double duration;    /* ms */
    double start, period;
    long count;         /* pulses in the train */
    double *times;      /* explicit pulse starts (ms); overrides the train when ntimes > 0 */
    size_t ntimes;
} stimulus;

/* Is a pulse on at the step that starts at time t (ms), with step dt?
 * Pulse [s, s + duration) covers the steps whose start lies in it, with a
 * tolerance of 1e-6 dt so that a duration of n*dt gives exactly n steps. */
int stimulus_active(const stimulus *s, double t, double dt);
/* Time (ms) at which the last pulse ends. */
double stimulus_end(const stimulus *s);
void stimulus_free(stimulus *s);

#endif
