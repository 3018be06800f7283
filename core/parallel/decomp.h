/* Domain decomposition of a grid over the ranks of an MPI job (thesis 4.5:
 * slabs along z; general 3D splits): MPI's Cartesian topology places the
 * ranks, each owns a box of cells [lo, hi) and stores it with `ghost` layers
 * of its neighbours' cells on every face it shares with one, refreshed by the
 * halo exchange (core/parallel/halo.h). In one process the decomposition is the whole
 * grid with no ghosts. */
#ifndef CARDIAC_DECOMP_H
#define CARDIAC_DECOMP_H
#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct decomp {
    int nranks, rank;
    int dims[3];          /* ranks along each axis */
    int coords[3];        /* this rank's position in the rank grid */
    int gn[3];            /* global cells per axis */
    int lo[3], hi[3];     /* owned cells per axis, global indices [lo, hi) */
    int ghost;            /* ghost layers on faces shared with a neighbour */
    int slo[3], shi[3];   /* stored cells (owned + ghosts), global indices */
    int nbr[3][2];        /* neighbour rank below/above along each axis, -1 if none */
    int *cut[3];          /* per axis, dims[a] + 1 cell indices: part c owns [cut[c], cut[c + 1]) */
    int by_tissue;        /* the cuts balance tissue cells (else box cells) */
    int whole_on_0;       /* no axis is thick enough to split (a single cell, a thin
                             sheet) and the user gave no decomp: rank 0 owns the
                             whole grid, the others own nothing (lo = hi) */
    void *comm;           /* the Cartesian communicator (MPI_Comm *), NULL in one process */
} decomp;

/* Splits g over the job's ranks. want[a] > 0 asks for that many ranks along
 * axis a, 0 leaves the axis to the default: slabs along the grid's last axis
 * (or the last one thick enough; with none, whole_on_0).
 * by_tissue: each axis is cut where its parts hold equal shares of the
 * tissue cells (a heart's slabs then cost alike), else into parts of equal
 * size (at most one cell apart). Every rank computes the same cuts from the
 * whole mask. Fails (message in err) when the split does not multiply to the
 * number of ranks or leaves a rank fewer than `ghost` cells along an axis. */
int decomp_setup(decomp *dc, const grid *g, const int want[3], int ghost, int by_tissue, char *err, size_t errlen);
/* The same split planned for nranks ranks without MPI (mesh:decompose): fills
 * nranks, dims, gn, ghost, by_tissue, whole_on_0 and cut, no rank or
 * neighbours. */
int decomp_plan(decomp *dc, const grid *g, int nranks, const int want[3], int ghost, int by_tissue, char *err,
                size_t errlen);
/* Tissue cells of the part at rank-grid position c[3] (cell counts of the
 * whole mask; the same on every rank). */
size_t decomp_part_tissue(const decomp *dc, const grid *g, const int c[3]);
void decomp_free(decomp *dc);

/* The grid of the stored cells (mask copied from g). */
int decomp_local_grid(const decomp *dc, const grid *g, grid *lg, char *err, size_t errlen);

/* Local index of global cell (i, j, k) among the stored cells, or -1. */
long decomp_local_index(const decomp *dc, int i, int j, int k);
/* 1 when this rank owns global cell (i, j, k). */
int decomp_owns(const decomp *dc, int i, int j, int k);
/* Global index of a stored cell, from its local index. */
size_t decomp_global_index(const decomp *dc, size_t local);

#ifdef __cplusplus
}
#endif

#endif
