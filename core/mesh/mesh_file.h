/* Tissue geometry from an HDF5 file: a mask or a phase field on the grid. */
#ifndef CARDIAC_MESH_FILE_H
#define CARDIAC_MESH_FILE_H
#include "grid.h"

/* Builds g from dataset `name` of the HDF5 file at path: a 1D, 2D or 3D array
 * stored with x fastest ([z][y][x], as cardiac's own /mesh/mask; leading axes
 * of size 1 are dropped, so a 2D run's mask gives a 2D mesh). A cell is
 * tissue where the value exceeds `threshold` (0.5: a 0/1 mask or a phase field
 * between 0 and 1). With `phase` set, the values are kept as the grid's
 * phase field (grid_set_phase), which then weights the diffusion. h: spacing
 * per axis of the result, mm. Returns 0, or -1 with a message in err. */
int grid_from_hdf5(grid *g, const char *path, const char *name, const double h[3], double threshold, int phase,
                   char *err, size_t errlen);

#endif
