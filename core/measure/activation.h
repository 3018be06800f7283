/* Activation and repolarisation maps, tracked per cell while a simulation
 * runs (issue 7): the local activation time (the first upstroke crossing a
 * threshold), the latest activation, repolarisation, action potential
 * duration and diastolic interval, and the number of upstrokes.
 *
 * The per-cell rule (track_cell) is shared by the CPU half (activation.c) and the GPU
 * half (core/measure/activation_cu.cu), so both compute the same maps from
 * the same samples. A tracker samples V every `every` steps and interpolates
 * crossings linearly between two samples, so its times are exact for a
 * linear upstroke between samples and within a step otherwise. */
#ifndef CARDIAC_ACTIVATION_H
#define CARDIAC_ACTIVATION_H
#include <stddef.h>
#include "grid.h"
#include "qualifiers.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The maps a tracker exports (track_field), in this order. */
enum {
    TRACK_FIRST,   /* activation time: first upward crossing of the threshold, ms */
    TRACK_LAST,    /* latest activation, ms */
    TRACK_REPOL,   /* latest repolarisation (crossing of the APD level, downwards), ms */
    TRACK_APD,     /* latest complete action potential duration: repol - its activation, ms */
    TRACK_DI,      /* diastolic interval before the latest activation: it - the previous repol, ms */
    TRACK_COUNT,   /* upstrokes seen */
    TRACK_NFIELDS
};
extern const char *const track_field_names[TRACK_NFIELDS];
extern const char *const track_field_units[TRACK_NFIELDS];

/* Per-cell arrays: row-major over the rank's cells in the CPU half, in the
 * backend's storage order in the GPU half (activation_cu.cu). Times are ms after
 * the tracker's origin (float holds them to ~1e-3 ms over 10 s); NaN until
 * the event was seen. */
typedef struct track_arrays {
    float *prev;          /* V at the previous sample */
    float *vmin;          /* lowest V since the last repolarisation: the next beat's resting level */
    float *peak;          /* highest V of the current action potential */
    float *time[TRACK_COUNT];   /* first, last, repol, apd, di */
    int *count;
    unsigned char *in_ap; /* 1 between an activation and its repolarisation */
} track_arrays;

/* One sample of cell c: V = v at time t, the previous sample at tp (ms after
 * the origin). An upward crossing of thr while at rest is an activation; the
 * action potential ends when V falls through peak - frac (peak - rest), the
 * rest being the lowest V before the upstroke (frac = 0.9: APD90). */
CARDIAC_HD void track_cell(track_arrays a, size_t c, float v, float tp, float t, float thr, float frac)
{
    /* Everything a sample may need is read before its first store: a read
     * cannot be moved past a store to another array that might alias it, so
     * reads behind stores would wait for each other one round trip at a time
     * (on the GPU a sample of double V took 7x a float one that way,
     * docs/gpu-notebook.md item 29). */
    const float p = a.prev[c], vmin = a.vmin[c], peak = a.peak[c];
    const int in_ap = a.in_ap[c];
    a.prev[c] = v;
    if (!in_ap) {
        if (p < thr && v >= thr) {
            const float ta = tp + (thr - p) / (v - p) * (t - tp);
            if (a.count[c] == 0) a.time[TRACK_FIRST][c] = ta;
            a.time[TRACK_DI][c] = ta - a.time[TRACK_REPOL][c];   /* NaN before the first repolarisation */
            a.time[TRACK_LAST][c] = ta;
            a.count[c] += 1;
            a.peak[c] = v;
            a.in_ap[c] = 1;
        } else if (v < vmin) {
            a.vmin[c] = v;
        }
        return;
    }
    const float top = v > peak ? v : peak;
    if (v > peak) a.peak[c] = v;
    const float level = top - frac * (top - vmin);
    if (p > level && v <= level) {
        const float tr = tp + (p - level) / (p - v) * (t - tp);
        a.time[TRACK_REPOL][c] = tr;
        a.time[TRACK_APD][c] = tr - a.time[TRACK_LAST][c];
        a.vmin[c] = v;
        a.in_ap[c] = 0;
    }
}

/* The starting state of cell c whose V is v: at rest, nothing seen. */
CARDIAC_HD void track_start(track_arrays a, size_t c, float v)
{
    a.prev[c] = v;
    a.vmin[c] = v;
    a.peak[c] = v;
    for (int f = 0; f < TRACK_COUNT; f++) a.time[f][c] = NAN;
    a.count[c] = 0;
    a.in_ap[c] = 0;
}

/* A tracker of one simulation (core/engine/sim.h keeps a list). */
typedef struct tracker {
    int var;              /* the state variable tracked (V) */
    float threshold;      /* activation level, in the variable's units */
    float fraction;       /* repolarisation fraction that ends the action potential (0.9: APD90) */
    long every;           /* sample every this many steps */
    double origin;        /* simulation time of the first sample; the arrays hold ms after it */
    double t_prev;        /* time of the latest sample */
    long last_step;       /* step of the latest sample */
    track_arrays a;       /* where the state lives: host memory, or GPU memory (device = 1) */
    int device;
} tracker;

struct sim;
struct state_view;

/* A tracker's arrays beside the state, GPU half (activation_cu.cu; the CPU
 * half is in activation.c): begin allocates them on first use and resets
 * them from the current state, sample queues one sample at times tp -> t (ms
 * after the origin), read waits and copies one map (TRACK_*, row-major over
 * the rank's cells) to host memory, release frees them. begin returns -1
 * after sim_fail; it resets the rank's cells [c0, c1) only. */
int  track_begin_cu(struct sim *s, const struct state_view *v, tracker *t, size_t c0, size_t c1);
void track_sample_cu(struct sim *s, const struct state_view *v, tracker *t, float tp, float tnow);
void track_read_cu(struct sim *s, const struct state_view *v, tracker *t, int field, float *dst);
void track_release_cu(tracker *t);

/* Least-squares plane t = t0 + s . x through the activation times t (ms,
 * whole grid) of the cells where sel is nonzero (NULL: every tissue cell) and
 * t is finite: a planar wave's speed is 1 / |s| (mm/ms) along s / |s|.
 * Returns the cells used (0 when fewer than dim + 1, or when the times do not
 * vary: *speed is then NaN); rms is the fit's residual, ms. */
size_t activation_plane_fit(const grid *g, const float *t, const unsigned char *sel, double *speed,
                            double dir[3], double *rms);

#ifdef __cplusplus
}
#endif

#endif
