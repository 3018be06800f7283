/* Phase singularities: spiral-wave tips in 2D and scroll-wave filaments in
 * 3D, found from the phase theta = atan2(b - b0, a - a0) of two fields
 * (e.g. V and a recovery variable) on the tissue cells. A plaquette (the
 * square between 2 x 2 neighbouring cell centres) whose corners' phases wind
 * once around the circle holds a singularity (topological charge +1 or -1;
 * Gray et al., Nature 392:75, 1998; Iyer and Gray, Ann. Biomed. Eng. 29:47,
 * 2001). In 3D a filament crosses one face of each elementary cube it enters
 * and one it leaves, so the singular faces of each cube belong to one
 * filament: filaments are the connected sets of singular faces. */
#ifndef CARDIAC_SINGULARITY_H
#define CARDIAC_SINGULARITY_H
#include <stddef.h>
#include <stdint.h>
#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double x[3];      /* centre of the singular plaquette (2D) or of a filament's faces (3D), mm */
    int charge;       /* 2D: +1 counter-clockwise, -1 clockwise (x right, y up) */
    size_t faces;     /* 3D: singular faces of the filament (its length in cells, roughly) */
    int layer;        /* tips of the z layers of a 3D grid (sim_find_layer_tips): the layer, from 0 */
} singularity;

/* A singular plaquette: id = o * ncells + the grid index of its lower corner,
 * o the axis of its normal (2D: always 2, z), and its winding number. */
typedef struct sing_face {
    uint64_t id;
    int charge;
} sing_face;

/* Which plaquettes a (local) grid's cells are lower corners of: in 2D the
 * one with normal z, in 3D the three. */
static inline int plaquette_first_axis(const grid *g) { return g->dim == 3 ? 0 : 2; }

/* The singular plaquettes whose lower corner (i, j, k) of the local grid lg
 * lies in [lo, hi) per axis, from the fields a and b on lg (x fastest; the
 * layer above hi must hold valid values where the whole grid g goes on);
 * lg's cell (i, j, k) is g's (i + off[0], j + off[1], k + off[2]), and ids
 * are in g. Plaquettes leaving g, or with a corner outside the tissue, are
 * skipped. Returns the count and a malloc'd array in *out (NULL when none),
 * or -1 when out of memory. */
long singular_faces_local(const grid *g, const grid *lg, const int off[3], const int lo[3], const int hi[3],
                          const float *a, const float *b, double a0, double b0, sing_face **out);

/* qsort's order of singular plaquettes: by id. */
int sing_face_cmp(const void *a, const void *b);

/* Tips (2D; 1D has none) or filaments (3D) of the whole grid g from all its
 * singular plaquettes f[0..n-1] in any order (sorted here). Returns the number
 * found and a malloc'd array in *out (NULL when none), or -1 when out of memory. */
long singularities_from_faces(const grid *g, sing_face *f, long n, singularity **out);

#ifdef __cplusplus
}
#endif

#endif
