/* Small HDF5 helpers shared by the output file and checkpoints. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "grid.h"
#include "h5_util.h"
#include "sim.h"

void h5_attr_str(hid_t obj, const char *name, const char *val)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, strlen(val) + 1);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, t, val);
    H5Aclose(a); H5Sclose(sp); H5Tclose(t);
}

void h5_attr_doubles(hid_t obj, const char *name, const double *v, int n)
{
    hsize_t d = (hsize_t)n;
    hid_t sp = n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &d, NULL);
    hid_t a = H5Acreate2(obj, name, H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, v);
    H5Aclose(a); H5Sclose(sp);
}

int h5_make_parent_dirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    char *slash = strrchr(tmp, '/');
    if (!slash || slash == tmp) return 0;
    *slash = 0;
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

void h5_write_model(hid_t f, const struct sim *s)
{
    const model_def *d = s->m.def;
    hid_t g = H5Gcreate2(f, "model", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (int i = 0; i < d->nparam; i++) {
        double v = s->m.p[i];
        char uname[128];
        h5_attr_doubles(g, d->params[i].name, &v, 1);
        snprintf(uname, sizeof uname, "%s.units", d->params[i].name);
        h5_attr_str(g, uname, d->params[i].units);
    }
    H5Gclose(g);
}

int h5_write_grid_array(hid_t loc, const char *name, hid_t type, const grid *g, const void *data)
{
    return h5_write_grid_array_pl(loc, name, type, g, data, H5P_DEFAULT);
}

int h5_write_grid_array_checked(hid_t loc, const char *name, hid_t type, const grid *g, const void *data)
{
    /* Fletcher32 works on chunks: planes of z, a few of them where planes are small */
    hsize_t chunk[3] = {1, (hsize_t)g->n[1], (hsize_t)g->n[0]};
    const hsize_t plane = chunk[1] * chunk[2];
    if (plane < (1u << 16)) {
        const hsize_t planes = (1u << 16) / plane;
        chunk[0] = (hsize_t)g->n[2] < planes ? (hsize_t)g->n[2] : planes;
    }
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(pl, 3, chunk);
    H5Pset_fletcher32(pl);
    int rc = h5_write_grid_array_pl(loc, name, type, g, data, pl);
    H5Pclose(pl);
    return rc;
}

int h5_write_grid_array_pl(hid_t loc, const char *name, hid_t type, const grid *g, const void *data, hid_t dcpl)
{
    hsize_t dims[3] = {(hsize_t)g->n[2], (hsize_t)g->n[1], (hsize_t)g->n[0]};
    hid_t sp = H5Screate_simple(3, dims, NULL);
    hid_t d = H5Dcreate2(loc, name, type, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    herr_t e = d < 0 ? -1 : H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    if (d >= 0) H5Dclose(d);
    H5Sclose(sp);
    return e < 0 ? -1 : 0;
}
