/* Checkpoint files (core/io/checkpoint.h). Layout: root attributes program,
 * kind = "cardiac checkpoint", model, precision, cells_xyz, dx_mm, dt_ms, t0_ms,
 * steps (the step count) and time_ms; /mesh/mask; /state/<var>[z][y][x] in
 * the state's precision; /model with the parameters (for the record);
 * /params: attribute names (the model's parameter names, comma-separated),
 * /params/sets[set][parameter] (set 0: the model's own) and, with more than
 * one set, /params/label[z][y][x] (each cell's set), which a restore with
 * params = true adopts (core/interventions/param_sets.h); with a multiscale model,
 * /dyads (core/multiscale/checkpoint_dyads.h). */
#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "checkpoint.h"
#include "checkpoint_dyads.h"
#include "h5_util.h"
#include "output_paths.h"
#include "par.h"
#include "param_sets.h"
#include "version.h"

static const char *const KIND = "cardiac checkpoint";

static hid_t native_type(const sim *s) { return s->fp64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT; }

static void write_header(hid_t f, const sim *s)
{
    h5_attr_str(f, "program", "cardiac " CARDIAC_VERSION);
    h5_attr_str(f, "kind", KIND);
    h5_attr_str(f, "model", s->m.def->name);
    h5_attr_str(f, "precision", model_precision_name(sim_precision(s)));
    h5_attr_str(f, "backend", s->be->name);
    double n[3] = {s->g.n[0], s->g.n[1], s->g.n[2]}, t = sim_time(s), steps = (double)s->nstep;
    h5_attr_doubles(f, "cells_xyz", n, 3);
    h5_attr_doubles(f, "dx_mm", s->g.h, 3);
    h5_attr_doubles(f, "dt_ms", &s->dt, 1);
    h5_attr_doubles(f, "t0_ms", &s->t0, 1);
    h5_attr_doubles(f, "steps", &steps, 1);
    h5_attr_doubles(f, "time_ms", &t, 1);
    h5_write_model(f, s);
}

/* The model's parameter names, comma-separated: what /params/sets' columns are. */
static void param_names(const sim *s, char *out, size_t len)
{
    out[0] = 0;
    for (int q = 0; q < s->m.def->nparam; q++) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", q ? "," : "", s->m.def->params[q].name);
    }
}

/* /params: the parameter sets and, with more than one, each cell's set. */
static int write_params(hid_t f, const sim *s, const unsigned char *label)
{
    const int n = sim_param_sets(s), np = s->m.def->nparam;
    char names[4096];
    param_names(s, names, sizeof names);
    double *sets = malloc((size_t)n * np * sizeof *sets);
    if (!sets) return -1;
    for (int L = 0; L < n; L++) memcpy(sets + (size_t)L * np, sim_param_set(s, L), np * sizeof *sets);
    hid_t g = H5Gcreate2(f, "params", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    h5_attr_str(g, "names", names);
    hsize_t dims[2] = {(hsize_t)n, (hsize_t)np};
    hid_t sp = H5Screate_simple(2, dims, NULL);
    hid_t d = H5Dcreate2(g, "sets", H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d < 0 || H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, sets) < 0 ? -1 : 0;
    if (d >= 0) H5Dclose(d);
    H5Sclose(sp);
    if (rc == 0 && n > 1) rc = h5_write_grid_array_checked(g, "label", H5T_NATIVE_UINT8, &s->g, label);
    H5Gclose(g);
    free(sets);
    return rc;
}

/* Rank 0 writes tmp from the gathered fields (and the empty datasets of the dyads). */
static int write_file(sim *s, const char *tmp, void *const *fields, const unsigned char *label, char *err,
                      size_t errlen)
{
    hid_t f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) {
        snprintf(err, errlen, "cannot create checkpoint file '%s'%s%s", tmp, errno ? ": " : "", errno ? strerror(errno) : "");
        return -1;
    }
    write_header(f, s);
    hid_t gm = H5Gcreate2(f, "mesh", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = h5_write_grid_array_checked(gm, "mask", H5T_NATIVE_UINT8, &s->g, s->g.mask);
    H5Gclose(gm);
    hid_t gs = H5Gcreate2(f, "state", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (int v = 0; v < s->m.def->nstate && rc == 0; v++)
        rc = h5_write_grid_array_checked(gs, s->m.def->states[v].name, native_type(s), &s->g, fields[v]);
    H5Gclose(gs);
    if (rc == 0) rc = write_params(f, s, label);
    if (rc == 0 && s->ms) rc = checkpoint_create_dyads(f, s);
    if (H5Fclose(f) < 0) rc = -1;
    if (rc != 0) snprintf(err, errlen, "writing checkpoint '%s' failed (disk full?)", tmp);
    return rc;
}

int checkpoint_save(sim *s, const char *path, int overwrite, char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    int rc = 0;
    if (par_rank() == 0) rc = output_path_ready(path, NULL, overwrite, "checkpoint file", err, errlen);
    par_bcast(&rc, sizeof rc);
    if (rc) { par_bcast(err, errlen); return -1; }
    if (sim_sync(s, err, errlen) != 0) return -1;
    const int ns = s->m.def->nstate;
    void *fields[MODEL_MAX_STATE] = {0};
    for (int v = 0; v < ns && rc == 0; v++) {
        fields[v] = malloc(s->g.ncells * sim_state_size(s));
        if (!fields[v] || sim_get_state(s, v, fields[v]) != 0 || s->failed) rc = -1;
    }
    unsigned char *label = sim_param_sets(s) > 1 ? malloc(s->g.ncells) : NULL;
    if (rc == 0 && sim_param_sets(s) > 1 && !label) rc = -1;
    if (rc) snprintf(err, errlen, "%s", s->failed ? s->error : "out of memory gathering the state for a checkpoint");
    par_max_ints(&rc, 1);
    if (rc == 0 && label && sim_param_labels_whole(s, label) != 0) {
        snprintf(err, errlen, "%s", s->error);
        rc = -1;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);          /* renamed when complete: never half overwritten */
    if (rc == 0 && par_rank() == 0) rc = write_file(s, tmp, fields, label, err, errlen);
    for (int v = 0; v < ns; v++) free(fields[v]);
    free(label);
    par_bcast(&rc, sizeof rc);
    if (rc == 0 && s->ms) rc = checkpoint_write_dyads(s, tmp, err, errlen);
    if (par_rank() == 0) {
        if (rc == 0 && rename(tmp, path) != 0) {
            snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
            rc = -1;
        }
        if (rc != 0) remove(tmp);
    }
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

/* The file's header against the simulation; fills dt, t0, steps, time. A
 * file of another dt is refused unless convert_dt (its time then continues
 * from step 0 with the simulation's dt). */
static int check_header(hid_t f, const sim *s, const char *path, int convert_dt, double hdr[4], char *err,
                        size_t errlen)
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
    double h[3];   /* files written before 2026-11-25 do not say */
    if (read_attr_doubles(f, "dx_mm", h, 3) == 0)
        for (int a = 0; a < s->g.dim; a++)
            if (fabs(h[a] - s->g.h[a]) > 1e-12 * s->g.h[a]) {
                char theirs[96] = "", ours[96] = "";
                for (int b = 0; b < s->g.dim; b++) {
                    snprintf(theirs + strlen(theirs), sizeof theirs - strlen(theirs), "%s%g", b ? " x " : "", h[b]);
                    snprintf(ours + strlen(ours), sizeof ours - strlen(ours), "%s%g", b ? " x " : "", s->g.h[b]);
                }
                snprintf(err, errlen, "checkpoint '%s' is of a mesh of %s mm cells; this simulation's are %s mm", path,
                         theirs, ours);
                return -1;
            }
    if (hdr[0] != s->dt && !convert_dt) {
        snprintf(err, errlen, "checkpoint '%s' was written at dt = %g ms and this simulation steps dt = %g ms: pass "
                 "{convert_dt = true} to continue its time (%g ms) with this dt from step 0", path, hdr[0], s->dt,
                 hdr[3]);
        return -1;
    }
    return 0;
}

/* Reads and checks everything into freshly allocated whole-grid fields. */
static int read_file(const sim *s, const char *path, int convert_dt, void **fields, double hdr[4], char *err,
                     size_t errlen)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        struct stat st;
        if (stat(path, &st) != 0)
            snprintf(err, errlen, "cannot open checkpoint file '%s': %s", path, strerror(errno));
        else
            snprintf(err, errlen, "checkpoint file '%s' (%lld bytes) is not a readable HDF5 file: truncated or damaged",
                     path, (long long)st.st_size);
        return -1;
    }
    int rc = check_header(f, s, path, convert_dt, hdr, err, errlen);
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
            snprintf(err, errlen, "checkpoint '%s': cannot read state variable '%s' (damaged: its checksum or size "
                     "does not match)", path, s->m.def->states[v].name);
            rc = -1;
        }
        /* a state that is not finite would stop the run at its first step: refuse it here */
        for (size_t c = 0; c < s->g.ncells && !rc; c++) {
            const double x = s->fp64 ? ((const double *)fields[v])[c] : ((const float *)fields[v])[c];
            if (!s->g.mask[c] || isfinite(x)) continue;
            int i, j, k;
            grid_ijk(&s->g, c, &i, &j, &k);
            snprintf(err, errlen, "checkpoint '%s' holds %s in state variable '%s' at cell (%d, %d, %d)", path,
                     x != x ? "NaN" : "infinity", s->m.def->states[v].name, i + 1, j + 1, k + 1);
            rc = -1;
        }
    }
    H5Fclose(f);
    return rc;
}

/* A checkpoint's parameter sets ([n][nparam], malloc'd) and, with n > 1,
 * each cell's set (malloc'd whole-grid labels). */
typedef struct { param_vec *sets; int n; unsigned char *label; } saved_params;

static int read_params(const sim *s, const char *path, saved_params *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) { snprintf(err, errlen, "cannot open checkpoint file '%s'", path); return -1; }
    char names[4096], mine[4096];
    param_names(s, mine, sizeof mine);
    int rc = 0;
    hid_t g = H5Lexists(f, "params", H5P_DEFAULT) > 0 ? H5Gopen2(f, "params", H5P_DEFAULT) : -1;
    if (g < 0) {
        snprintf(err, errlen, "checkpoint '%s' holds no parameters (written before checkpoints kept them); restore it "
                 "without params = true", path);
        rc = -1;
    } else if (read_attr_str(g, "names", names, sizeof names) != 0 || strcmp(names, mine) != 0) {
        snprintf(err, errlen, "checkpoint '%s' has other parameters than model '%s' has now", path, s->m.def->name);
        rc = -1;
    }
    hid_t d = rc ? -1 : H5Dopen2(g, "sets", H5P_DEFAULT);
    hsize_t dims[2] = {0, 0};
    if (!rc) {
        hid_t sp = d < 0 ? -1 : H5Dget_space(d);
        if (sp < 0 || H5Sget_simple_extent_ndims(sp) != 2 || H5Sget_simple_extent_dims(sp, dims, NULL) != 2 ||
            dims[1] != (hsize_t)s->m.def->nparam || dims[0] < 1 || dims[0] > PARAM_SETS_MAX)
            rc = -1;
        if (sp >= 0) H5Sclose(sp);
    }
    double *flat = rc ? NULL : malloc(dims[0] * dims[1] * sizeof *flat);
    p->sets = rc ? NULL : calloc(dims[0], sizeof *p->sets);
    if (!rc && (!flat || !p->sets || H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, flat) < 0)) rc = -1;
    if (!rc) {
        p->n = (int)dims[0];
        for (int L = 0; L < p->n; L++) memcpy(p->sets[L], flat + (size_t)L * dims[1], dims[1] * sizeof *flat);
        if (p->n > 1) {
            p->label = malloc(s->g.ncells);
            if (!p->label || read_array(g, "label", H5T_NATIVE_UINT8, &s->g, p->label) != 0) rc = -1;
        }
    }
    if (rc && !err[0]) snprintf(err, errlen, "checkpoint '%s': cannot read its parameter sets", path);
    free(flat);
    if (d >= 0) H5Dclose(d);
    if (g >= 0) H5Gclose(g);
    H5Fclose(f);
    return rc;
}

int checkpoint_load(sim *s, const char *path, int params, int convert_dt, char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (sim_sync(s, err, errlen) != 0) return -1;
    void *fields[MODEL_MAX_STATE] = {0};
    double hdr[4];
    saved_params sp = {0};
    err[0] = 0;
    int rc = read_file(s, path, convert_dt, fields, hdr, err, errlen);   /* every rank reads the file */
    if (rc == 0 && params) rc = read_params(s, path, &sp, err, errlen);
    int any = rc != 0;
    par_max_ints(&any, 1);
    struct saved_dyads *dy = NULL;                             /* read whole before anything changes */
    if (!any && s->ms && !(dy = checkpoint_read_dyads(s, path, err, errlen))) any = rc = 1;
    /* the parameters first: they are checked against dt before anything changes */
    if (!any && params && sim_replace_param_sets(s, sp.sets, sp.n, sp.label, err, errlen) != 0) any = rc = 1;
    for (int v = 0; v < s->m.def->nstate && !any; v++)
        if (sim_set_state(s, v, fields[v]) != 0) any = 1;
    if (!any && dy) checkpoint_apply_dyads(s, dy);
    else checkpoint_drop_dyads(dy);
    for (int v = 0; v < s->m.def->nstate; v++) free(fields[v]);
    free(sp.sets);
    free(sp.label);
    if (any) {
        if (!rc) snprintf(err, errlen, "%s", s->failed ? s->error : "another rank could not read the checkpoint");
        return -1;
    }
    if (hdr[0] == s->dt) { s->t0 = hdr[1]; s->nstep = (long)hdr[2]; }
    else { s->t0 = hdr[3]; s->nstep = 0; }
    s->run_rest = 0;
    s->bad_cell = s->bad_gcell = -1;
    for (size_t q = 0; q < s->nprobes; q++) s->probes[q]->last_step = -1;
    for (size_t q = 0; q < s->ntrackers; q++)
        if (sim_restart_tracker(s, s->trackers[q], err, errlen) != 0) return -1;
    return sim_sync(s, err, errlen);
}
