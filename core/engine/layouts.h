/* The GPU's data layouts, in one table: what each runs (steps per kernel,
 * models, meshes, stencils, ranks, phase fields) and whether this build has
 * its kernels. The CUDA backend chooses a layout and launches it from here
 * (cuda/layout_policy.cu), the shell checks a script's `layout` against it
 * before any work (shell/l_sim.c), and help() lists it. The thesis' window
 * and tower layouts are baselines for its reproductions, never chosen by
 * default, and built only with CARDIAC_THESIS_LAYOUTS=ON. */
#ifndef CARDIAC_LAYOUTS_H
#define CARDIAC_LAYOUTS_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum layout_kind { LAYOUT_NAIVE, LAYOUT_WINDOW, LAYOUT_TOWER, LAYOUT_TBLOCK, LAYOUT_BLOCK, LAYOUT_TPLANE, LAYOUT_COUNT };

/* The shared-memory layouts (window, tower, tblock, tplane) keep several
 * planes of a cell's state per thread or block; they are built for models
 * with at most this many states (the minimal models). */
#define MARCHING_MAX_STATES 8

typedef struct layout_def {
    const char *name;
    const char *summary;   /* what it is, for help() */
    int tsteps_max;        /* time steps per kernel: 1 .. tsteps_max (1: one step per launch) */
    int max_states;        /* runs models with at most this many states; 0: any */
    unsigned dims;         /* mesh dimensions it runs: bit d for a dD mesh */
    unsigned orders;       /* stencil orders it runs: bit o for stencil = o */
    int split;             /* runs split over several ranks (mpirun) */
    int phase_field;       /* runs phase-field meshes */
    int blocks;            /* is the blockDS storage: chosen by 'blocks', and only by it */
    int folded;            /* has kernels with the model's default parameters folded in as constants */
    int thesis;            /* a thesis baseline: built with CARDIAC_THESIS_LAYOUTS=ON only */
    int members;           /* steps ensembles (core/engine/members.h), whose members may each have their own D */
} layout_def;

extern const layout_def layout_table[LAYOUT_COUNT];

/* The LAYOUT_* named name, or -1. */
int layout_find(const char *name);
/* Whether this build has the layout's kernels. */
int layout_built(int id);
/* Whether the layout advances several steps per kernel (tsteps). */
int layout_temporal(int id);
/* The names of the layouts this build has, "a", "b" or "c", into buf. */
const char *layout_list(char *buf, size_t len, int temporal_only);

#ifdef __cplusplus
}
#endif

#endif
