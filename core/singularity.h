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
#include "grid.h"

typedef struct {
    double x[3];      /* centre of the singular plaquette (2D) or of a filament's faces (3D), mm */
    int charge;       /* 2D: +1 counter-clockwise, -1 clockwise (x right, y up) */
    size_t faces;     /* 3D: singular faces of the filament (its length in cells, roughly) */
} singularity;

/* Finds the tips (2D grids; 1D has none) or filaments (3D) of the phase of
 * fields a and b (whole grid, x fastest) about (a0, b0); plaquettes with a
 * corner outside the tissue are skipped. Returns the number found and a
 * malloc'd array in *out (NULL when none), or -1 when out of memory. */
long singularities_find(const grid *g, const float *a, const float *b, double a0, double b0, singularity **out);

#endif
