/* Small HDF5 helpers shared by the output file (core/io/output.c) and
 * checkpoints (core/io/checkpoint.c). */
#ifndef CARDIAC_H5_UTIL_H
#define CARDIAC_H5_UTIL_H
#include <hdf5.h>
#include "grid.h"

struct sim;

void h5_attr_str(hid_t obj, const char *name, const char *val);
void h5_attr_doubles(hid_t obj, const char *name, const double *v, int n);
/* Creates the missing folders on the way to path; 0, or -1 with errno. */
int h5_make_parent_dirs(const char *path);
/* Dataset name[z][y][x] of the whole grid g from data (memory type type). */
int h5_write_grid_array(hid_t loc, const char *name, hid_t type, const grid *g, const void *data);
/* The same, chunked, each chunk with a Fletcher32 checksum that HDF5 verifies
 * when it reads it back (checkpoints: a damaged file is refused, not read). */
int h5_write_grid_array_checked(hid_t loc, const char *name, hid_t type, const grid *g, const void *data);
/* The same with a dataset creation property list. */
int h5_write_grid_array_pl(hid_t loc, const char *name, hid_t type, const grid *g, const void *data, hid_t dcpl);
/* Group /model: each parameter's value with its units. */
void h5_write_model(hid_t f, const struct sim *s);

#endif
