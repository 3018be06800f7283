/* What a feature may touch of a backend: where the state lives. The backend
 * keeps the state and steps it; the features that read or write it between
 * steps (activation maps, the pseudo-ECG, spiral tips, probes, clamps, the
 * calcium release units) ask for this view (sim_view) and call their own
 * halves with it: the CPU half (core/<room>/<feature>.c) when the arrays are
 * in host memory, the GPU half (core/<room>/<feature>_cu.cu, beside it) when
 * they are on the device. A feature keeps its own buffers; it never reaches
 * into a backend's private data.
 *
 * Storage: one array per state variable with one value per stored cell. Cell
 * c (row-major in the rank's part of the grid, s->lg) is stored at index c,
 * or, for blockDS storage, where the block map puts it (core/mesh/blocks.h);
 * cells of blocks not stored hold no value and read as the resting state. On
 * the GPU, `store` is the CUDA backend's own map (struct store_map,
 * cuda/launch.h), which the GPU halves read through cuda/store_index.cuh. */
#ifndef CARDIAC_STATE_VIEW_H
#define CARDIAC_STATE_VIEW_H
#include <stddef.h>
#include "blocks.h"
#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct state_view {
    int device;                          /* 1: var, mask and stream are GPU memory / a CUDA stream */
    int nstate;
    void *var[MODEL_MAX_STATE];          /* each state variable, one value per stored cell */
    unsigned char fp64[MODEL_MAX_STATE]; /* the values of var[v] are float (0), double (1), or, on the
                                            GPU, IEEE half (2: the gates of precision "fp32h",
                                            every other half of var[v]; STORE_F16, cuda/launch.h) */
    const double *rest;                  /* the value of cells that are not stored */
    size_t ncells;                       /* cells of the rank's part (row-major over s->lg) */
    size_t nstored;                      /* values per state array (the layout's storage: blockDS's
                                            stored blocks, a tower's x-halo copies) */
    const block_map *blocks;             /* host: the blockDS map, or NULL when stored row-major */
    const void *store;                   /* device: the storage map (struct store_map) */
    const unsigned char *mask;           /* device: the row-major tissue mask of s->lg, when asked for (VIEW_MASK) */
    void *stream;                        /* device: the cudaStream_t the steps run on; features queue on it */
} state_view;

/* What a caller needs besides the arrays: VIEW_MASK, the tissue mask on the
 * device (made on first request, kept until the backend is freed); and what
 * it does: VIEW_WRITE, it changes the state (the GPU then no longer knows
 * where the tissue rests, cuda/rest_region.cu). */
enum { VIEW_MASK = 1, VIEW_WRITE = 2 };

/* Where row-major cell c is stored: its index in var[v], or (size_t)-1. */
static inline size_t view_store_of(const state_view *v, size_t c)
{
    return v->blocks ? block_store_index(v->blocks, c) : c;
}

/* Host views: the value of state `var` at cell c (the resting value where
 * the cell is not stored), and the value at storage index q set to x. */
static inline double view_value(const state_view *v, int var, size_t c)
{
    const size_t q = view_store_of(v, c);
    if (q == (size_t)-1) return v->rest[var];
    return v->fp64[var] ? ((const double *)v->var[var])[q] : ((const float *)v->var[var])[q];
}

static inline void view_set(const state_view *v, int var, size_t q, double x)
{
    if (v->fp64[var]) ((double *)v->var[var])[q] = x;
    else ((float *)v->var[var])[q] = (float)x;
}

#ifdef __cplusplus
}
#endif

#endif
