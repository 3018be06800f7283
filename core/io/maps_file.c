/* Maps files (core/io/maps_file.h). */
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "h5_util.h"
#include "maps_file.h"
#include "output_paths.h"
#include "version.h"

static void write_xdmf(const char *path, const grid *g, const map_field *maps, int n)
{
    char xmf[4200];
    output_sidecar(path, xmf, sizeof xmf);
    FILE *x = fopen(xmf, "w");
    if (!x) return;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    fprintf(x, "<?xml version=\"1.0\" ?>\n<!-- written by cardiac " CARDIAC_VERSION " -->\n"
               "<Xdmf Version=\"3.0\">\n <Domain>\n  <Grid Name=\"maps\" GridType=\"Uniform\">\n"
               "   <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"%d %d %d\"/>\n"
               "   <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
               "    <DataItem Dimensions=\"3\" Format=\"XML\">%.9g %.9g %.9g</DataItem>\n"
               "    <DataItem Dimensions=\"3\" Format=\"XML\">%.9g %.9g %.9g</DataItem>\n   </Geometry>\n",
            g->n[2], g->n[1], g->n[0], g->h[2] / 2, g->h[1] / 2, g->h[0] / 2, g->h[2], g->h[1], g->h[0]);
    for (int q = 0; q < n; q++)
        fprintf(x, "   <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Node\">\n"
                   "    <DataItem Dimensions=\"%d %d %d\" NumberType=\"Float\" Precision=\"4\" Format=\"HDF\">"
                   "%s:/maps/%s</DataItem>\n   </Attribute>\n",
                maps[q].name, g->n[2], g->n[1], g->n[0], base, maps[q].name);
    fprintf(x, "  </Grid>\n </Domain>\n</Xdmf>\n");
    fclose(x);
}

int maps_write(const char *path, const grid *g, const map_field *maps, int n, const char *about, int overwrite,
               char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    char xmf[4200];
    output_sidecar(path, xmf, sizeof xmf);
    if (output_path_ready(path, xmf, overwrite, "maps file", err, errlen) != 0) return -1;
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) { snprintf(err, errlen, "cannot create '%s'", path); return -1; }
    h5_attr_str(f, "program", "cardiac " CARDIAC_VERSION);
    h5_attr_str(f, "description", about ? about : "");
    h5_attr_doubles(f, "dx_mm", g->h, 3);
    hid_t gm = H5Gcreate2(f, "mesh", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = h5_write_grid_array(gm, "mask", H5T_NATIVE_UINT8, g, g->mask);
    H5Gclose(gm);
    hid_t gp = H5Gcreate2(f, "maps", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (int q = 0; q < n && rc == 0; q++) {
        rc = h5_write_grid_array(gp, maps[q].name, H5T_NATIVE_FLOAT, g, maps[q].data);
        if (rc == 0) {
            hid_t d = H5Dopen2(gp, maps[q].name, H5P_DEFAULT);
            h5_attr_str(d, "units", maps[q].units);
            H5Dclose(d);
        }
    }
    H5Gclose(gp);
    if (H5Fclose(f) < 0) rc = -1;
    if (rc) { snprintf(err, errlen, "writing '%s' failed (disk full?)", path); return -1; }
    write_xdmf(path, g, maps, n);
    return 0;
}
