/* The features the step loop serves. An intervention changes the state at
 * step boundaries (clamps); a measurement reads it (probes, activation maps,
 * the pseudo-ECG). A feature attaches itself to a simulation once
 * (sim_attach); the step loop (core/engine/sim.c) then asks every attached
 * feature how many steps from now it next needs a step boundary, stops
 * there, and calls it: interventions first, then measurements, so that what
 * is measured at a boundary includes what was applied there; and releases it
 * when the simulation ends. The engine knows nothing else of them; each keeps its own state and reaches the
 * backend's state through the view (core/engine/state_view.h). */
#ifndef CARDIAC_FEATURE_H
#define CARDIAC_FEATURE_H

#ifdef __cplusplus
extern "C" {
#endif

struct sim;

typedef enum { FEATURE_INTERVENTION, FEATURE_MEASUREMENT } feature_kind;

typedef struct feature_ops {
    feature_kind kind;
    /* Steps from the current one to the next boundary at which obj acts, in
     * 1 .. limit (limit when none comes sooner). */
    long (*steps_to)(const struct sim *s, void *obj, long limit);
    /* At the current step boundary: acts if it is due there (failures
     * through sim_fail). */
    void (*at)(struct sim *s, void *obj);
    /* The simulation ends: frees obj and what it holds (before the backend
     * is freed, so device buffers go first). */
    void (*release)(struct sim *s, void *obj);
} feature_ops;

/* For features that act every `every` steps counted from step `from` (a
 * sample): the steps from step `now` to the next such step, at most limit,
 * and whether `now` is one of them and not yet taken (`last`, the step of
 * the latest). */
static inline long feature_steps_to_every(long now, long from, long every, long limit)
{
    const long d = every - (now - from) % every;
    return d < limit ? d : limit;
}
static inline int feature_due_every(long now, long from, long every, long last)
{
    return (now - from) % every == 0 && last != now;
}

/* Attaches obj (which outlives the simulation's use of it) once: attaching
 * it again does nothing. 0, or -1 when out of memory (obj is then the
 * caller's to free). */
int sim_attach(struct sim *s, const feature_ops *ops, void *obj);

#ifdef __cplusplus
}
#endif

#endif
