/* Static maps (activation times, APD, ...) of a whole grid as one HDF5 file
 * with an XDMF sidecar for ParaView: /mesh/mask and /maps/<name>[z][y][x]
 * (float32, NaN where a cell has no value), each with its units. */
#ifndef CARDIAC_MAPS_FILE_H
#define CARDIAC_MAPS_FILE_H
#include <stddef.h>
#include "grid.h"

typedef struct {
    const char *name, *units;
    const float *data;       /* g->ncells values, x fastest */
} map_field;

/* Writes path (and path with .xmf); refuses an existing file unless
 * overwrite. `about` is stored as the root attribute "description".
 * Not collective: call it on one rank. 0, or -1 with err. */
int maps_write(const char *path, const grid *g, const map_field *maps, int n, const char *about, int overwrite,
               char *err, size_t errlen);

#endif
