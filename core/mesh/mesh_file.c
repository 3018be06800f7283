/* Tissue geometry from an HDF5 file (core/mesh/mesh_file.h). */
#include <stdio.h>
#include <stdlib.h>
#include "mesh_file.h"
#include "output.h"

int grid_from_hdf5(grid *g, const char *path, const char *name, const double h[3], double threshold, int phase,
                   char *err, size_t errlen)
{
    double *v = NULL;
    long dims[8];
    int rank = 0;
    long count = h5_read_dataset(path, name, &v, dims, &rank, err, errlen);
    if (count < 0) return -1;
    /* drop leading axes of size 1 (z, then y) */
    int first = 0;
    while (rank - first > 1 && dims[first] == 1) first++;
    const int dim = rank - first;
    if (dim < 1 || dim > 3 || count < 1) {
        snprintf(err, errlen, "dataset '%s' in '%s' has %d axes of more than one value; a mesh needs 1 to 3",
                 name, path, dim);
        free(v);
        return -1;
    }
    int n[3] = {1, 1, 1};
    for (int a = 0; a < dim; a++) n[a] = (int)dims[rank - 1 - a];   /* x is the last (fastest) axis */
    if (grid_init(g, dim, n, h, err, errlen) != 0) { free(v); return -1; }
    if (phase) {
        const int bad = grid_set_phase(g, v, threshold);
        free(v);
        if (bad) {
            snprintf(err, errlen, "could not allocate the phase field of '%s'", path);
            grid_free(g);
            return -1;
        }
        return 0;
    }
    for (size_t c = 0; c < g->ncells; c++) g->mask[c] = v[c] > threshold;
    free(v);
    grid_recount(g);
    return 0;
}
