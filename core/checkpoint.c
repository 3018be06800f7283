/* Checkpoint files (core/checkpoint.h). Layout: root attributes program,
 * kind = "cardiac checkpoint", model, precision, cells_xyz, dt_ms, t0_ms,
 * steps (the step count) and time_ms; /mesh/mask; /state/<var>[z][y][x] in
 * the state's precision; /model with the parameters (for the record: the
 * script that loads the checkpoint sets its own). */
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "checkpoint.h"
#include "h5_util.h"
#include "par.h"
#include "version.h"

static const char *const KIND = "cardiac checkpoint";

static hid_t native_type(const sim *s) { return s->fp64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT; }

static void write_header(hid_t f, const sim *s)
{
    h5_attr_str(f, "program", "cardiac " CARDIAC_VERSION);
    h5_attr_str(f, "kind", KIND);
    h5_attr_str(f, "model", s->m.def->name);
    h5_attr_str(f, "precision", s->fp64 ? "fp64" : "fp32");
    h5_attr_str(f, "backend", s->be->name);
    double n[3] = {s->g.n[0], s->g.n[1], s->g.n[2]}, t = sim_time(s), steps = (double)s->nstep;
    h5_attr_doubles(f, "cells_xyz", n, 3);
    h5_attr_doubles(f, "dt_ms", &s->dt, 1);
    h5_attr_doubles(f, "t0_ms", &s->t0, 1);
    h5_attr_doubles(f, "steps", &steps, 1);
    h5_attr_doubles(f, "time_ms", &t, 1);
    h5_write_model(f, s);
}

/* Rank 0 writes path.tmp from the gathered fields, then renames it. */
static int write_file(sim *s, const char *path, void *const *fields, char *err, size_t errlen)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    hid_t f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) {
        snprintf(err, errlen, "cannot create checkpoint file '%s'%s%s", tmp, errno ? ": " : "", errno ? strerror(errno) : "");
        return -1;
    }
    write_header(f, s);
    hid_t gm = H5Gcreate2(f, "mesh", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = h5_write_grid_array(gm, "mask", H5T_NATIVE_UINT8, &s->g, s->g.mask);
    H5Gclose(gm);
    hid_t gs = H5Gcreate2(f, "state", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (int v = 0; v < s->m.def->nstate && rc == 0; v++)
        rc = h5_write_grid_array(gs, s->m.def->states[v].name, native_type(s), &s->g, fields[v]);
    H5Gclose(gs);
    if (H5Fclose(f) < 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0) {
        snprintf(err, errlen, "writing checkpoint '%s' failed (disk full?)", path);
        remove(tmp);
    }
    return rc;
}

/* A checkpoint holds the cell-level state only. */
static int refuse_dyads(const sim *s, const char *what, char *err, size_t errlen)
{
    if (!s->ms) return 0;
    snprintf(err, errlen, "%s: model %s keeps the state of its calcium release units outside the cell state, "
             "and checkpoints do not store it yet", what, s->m.def->name);
    return -1;
}

int checkpoint_save(sim *s, const char *path, int overwrite, char *err, size_t errlen)
{
    if (refuse_dyads(s, "checkpoint", err, errlen) != 0) return -1;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    int rc = 0;
    struct stat st;
    if (par_rank() == 0) {
        if (!overwrite && stat(path, &st) == 0) {
            snprintf(err, errlen, "checkpoint file '%s' exists; pass overwrite = true to replace it", path);
            rc = -1;
        } else if (h5_make_parent_dirs(path) != 0) {
            snprintf(err, errlen, "cannot create the folder of checkpoint '%s': %s", path, strerror(errno));
            rc = -1;
        }
    }
    par_bcast(&rc, sizeof rc);
    if (rc) { par_bcast(err, errlen); return -1; }
    if (sim_sync(s, err, errlen) != 0) return -1;
    const int ns = s->m.def->nstate;
    void *fields[MODEL_MAX_STATE] = {0};
    for (int v = 0; v < ns && rc == 0; v++) {
        fields[v] = malloc(s->g.ncells * sim_state_size(s));
        if (!fields[v] || sim_get_state(s, v, fields[v]) != 0 || s->failed) rc = -1;
    }
    if (rc) snprintf(err, errlen, "%s", s->failed ? s->error : "out of memory gathering the state for a checkpoint");
    par_max_ints(&rc, 1);
    if (rc == 0 && par_rank() == 0) rc = write_file(s, path, fields, err, errlen);
    for (int v = 0; v < ns; v++) free(fields[v]);
    par_bcast(&rc, sizeof rc);
    if (rc) par_bcast(err, errlen);
    return rc;
}

/* ---- loading ----------------------------------------------------------- */

static int read_attr_str(hid_t f, const char *name, char *out, size_t len)
{
    out[0] = 0;
    if (H5Aexists(f, name) <= 0) return -1;
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, len);
    herr_t e = H5Aread(a, t, out);
    out[len - 1] = 0;
    H5Tclose(t);
    H5Aclose(a);
    return e < 0 ? -1 : 0;
}

static int read_attr_doubles(hid_t f, const char *name, double *v, int n)
{
    if (H5Aexists(f, name) <= 0) return -1;
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    hid_t sp = H5Aget_space(a);
    int ok = H5Sget_simple_extent_npoints(sp) == n && H5Aread(a, H5T_NATIVE_DOUBLE, v) >= 0;
    H5Sclose(sp);
    H5Aclose(a);
    return ok ? 0 : -1;
}

/* Reads /<group>/<name> as a whole-grid array of memory type `type`, after
 * checking its shape. */
static int read_array(hid_t f, const char *name, hid_t type, const grid *g, void *out)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    if (d < 0) return -1;
    hid_t sp = H5Dget_space(d);
    hsize_t dims[3] = {0, 0, 0};
    int ok = H5Sget_simple_extent_ndims(sp) == 3 && H5Sget_simple_extent_dims(sp, dims, NULL) == 3 &&
             dims[0] == (hsize_t)g->n[2] && dims[1] == (hsize_t)g->n[1] && dims[2] == (hsize_t)g->n[0] &&
             H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0;
    H5Sclose(sp);
    H5Dclose(d);
    return ok ? 0 : -1;
}

/* The file's header against the simulation; fills dt, t0, steps, time. */
static int check_header(hid_t f, const sim *s, const char *path, double hdr[4], char *err, size_t errlen)
{
    char kind[64], model[64];
    double n[3];
    if (read_attr_str(f, "kind", kind, sizeof kind) != 0 || strcmp(kind, KIND) != 0) {
        snprintf(err, errlen, "'%s' is not a cardiac checkpoint (written by sim:checkpoint)", path);
        return -1;
    }
    read_attr_str(f, "model", model, sizeof model);
    if (strcmp(model, s->m.def->name) != 0) {
        snprintf(err, errlen, "checkpoint '%s' holds model '%s'; this simulation runs '%s'", path, model,
                 s->m.def->name);
        return -1;
    }
    if (read_attr_doubles(f, "cells_xyz", n, 3) != 0 || read_attr_doubles(f, "dt_ms", &hdr[0], 1) != 0 ||
        read_attr_doubles(f, "t0_ms", &hdr[1], 1) != 0 || read_attr_doubles(f, "steps", &hdr[2], 1) != 0 ||
        read_attr_doubles(f, "time_ms", &hdr[3], 1) != 0) {
        snprintf(err, errlen, "checkpoint '%s' lacks its time or mesh attributes (damaged file?)", path);
        return -1;
    }
    if (n[0] != s->g.n[0] || n[1] != s->g.n[1] || n[2] != s->g.n[2]) {
        snprintf(err, errlen, "checkpoint '%s' is of a %gx%gx%g mesh; this simulation's is %dx%dx%d", path, n[0], n[1],
                 n[2], s->g.n[0], s->g.n[1], s->g.n[2]);
        return -1;
    }
    return 0;
}

/* Reads and checks everything into freshly allocated whole-grid fields. */
static int read_file(const sim *s, const char *path, void **fields, double hdr[4], char *err, size_t errlen)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) { snprintf(err, errlen, "cannot open checkpoint file '%s'", path); return -1; }
    int rc = check_header(f, s, path, hdr, err, errlen);
    unsigned char *mask = rc ? NULL : malloc(s->g.ncells);
    if (!rc && (!mask || read_array(f, "mesh/mask", H5T_NATIVE_UINT8, &s->g, mask) != 0)) {
        snprintf(err, errlen, "checkpoint '%s': cannot read its mesh mask", path);
        rc = -1;
    }
    if (!rc && memcmp(mask, s->g.mask, s->g.ncells) != 0) {
        snprintf(err, errlen, "checkpoint '%s' is of a mesh with other tissue cells than this simulation's", path);
        rc = -1;
    }
    free(mask);
    for (int v = 0; v < s->m.def->nstate && !rc; v++) {
        char name[96];
        snprintf(name, sizeof name, "state/%s", s->m.def->states[v].name);
        fields[v] = malloc(s->g.ncells * sim_state_size(s));
        if (!fields[v] || read_array(f, name, native_type(s), &s->g, fields[v]) != 0) {
            snprintf(err, errlen, "checkpoint '%s': cannot read state variable '%s'", path, s->m.def->states[v].name);
            rc = -1;
        }
    }
    H5Fclose(f);
    return rc;
}

int checkpoint_load(sim *s, const char *path, char *err, size_t errlen)
{
    if (refuse_dyads(s, "restore", err, errlen) != 0) return -1;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (sim_sync(s, err, errlen) != 0) return -1;
    void *fields[MODEL_MAX_STATE] = {0};
    double hdr[4];
    int rc = read_file(s, path, fields, hdr, err, errlen);   /* every rank reads the file */
    int any = rc != 0;
    par_max_ints(&any, 1);
    for (int v = 0; v < s->m.def->nstate && !any; v++)
        if (sim_set_state(s, v, fields[v]) != 0) any = 1;
    for (int v = 0; v < s->m.def->nstate; v++) free(fields[v]);
    if (any) {
        if (!rc) snprintf(err, errlen, "%s", s->failed ? s->error : "another rank could not read the checkpoint");
        return -1;
    }
    if (hdr[0] == s->dt) { s->t0 = hdr[1]; s->nstep = (long)hdr[2]; }
    else { s->t0 = hdr[3]; s->nstep = 0; }
    s->bad_cell = s->bad_gcell = -1;
    for (size_t q = 0; q < s->nprobes; q++) s->probes[q]->last_step = -1;
    for (size_t q = 0; q < s->ntrackers; q++)
        if (sim_restart_tracker(s, s->trackers[q], err, errlen) != 0) return -1;
    return sim_sync(s, err, errlen);
}
