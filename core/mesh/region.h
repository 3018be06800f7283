/* Geometric regions (slab, box, sphere, cylinder shell, synthetic heart,
 * explicit cells) resolved to tissue cells. */
#ifndef CARDIAC_REGION_H
#define CARDIAC_REGION_H
#include <stddef.h>
#include "grid.h"

typedef enum {
    REGION_ALL, REGION_SLAB, REGION_BOX, REGION_SPHERE, REGION_CYLINDER, REGION_BIVENTRICLE, REGION_CELLS
} region_kind;

typedef struct {
    region_kind kind;
    int axis;              /* slab: 0..2; cylinder: its axis */
    double lo[3], hi[3];   /* slab: lo[axis]..hi[axis]; box: corners (mm) */
    double center[3], radius;
    double inner;          /* cylinder: inner radius of the shell (0: solid), mm */
    size_t *cells;         /* REGION_CELLS: linear cell indices */
    size_t ncells;
} region;

/* Does the cell centre lie in the region? (REGION_CELLS: never, use the list.) */
int region_contains(const region *r, const grid *g, int i, int j, int k);
/* Cells of the region on grid g (only tissue cells when tissue_only);
 * *out is malloc'd (NULL when none). */
size_t region_resolve(const region *r, const grid *g, int tissue_only, size_t **out);

#endif
