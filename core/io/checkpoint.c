/* Checkpoint files (core/io/checkpoint.h). Layout: root attributes program,
 * kind = "cardiac checkpoint", model, precision, cells_xyz, dx_mm, dt_ms, t0_ms,
 * steps (the step count) and time_ms; /mesh/mask; /state/<var>[z][y][x] in
 * the state's precision; /model with the parameters (for the record);
 * /params: attribute names (the model's parameter names, comma-separated),
 * /params/sets[set][parameter] (set 0: the model's own) and, with more than
 * one set, /params/label[z][y][x] (each cell's set), which a restore with
 * params = true adopts (core/interventions/param_sets.h); with a multiscale model,
 * /dyads (core/multiscale/checkpoint_dyads.h); with quiescent cells
 * (core/engine/quiescence.h), /quiescent_lag[z][y][x]: the steps each cell's
 * ionic state sat out before the next step.
 *
 * A snapshot (checkpoint_mem_*) holds the same contents in memory, for
 * studies that restore one state many times: saving gathers the state and the
 * parameter sets as a file checkpoint does, restoring checks it against the
 * simulation and applies it through the same functions as a file's. */
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
#include "multiscale.h"
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
static int write_file(sim *s, const char *tmp, void *const *fields, const unsigned char *label,
                      const unsigned char *lags, char *err, size_t errlen)
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
    if (rc == 0 && lags) rc = h5_write_grid_array_checked(f, "quiescent_lag", H5T_NATIVE_UINT8, &s->g, lags);
    if (rc == 0 && s->ms) rc = checkpoint_create_dyads(f, s);
    if (H5Fclose(f) < 0) rc = -1;
    if (rc != 0) snprintf(err, errlen, "writing checkpoint '%s' failed (disk full?)", tmp);
    return rc;
}

/* The whole state (each variable over the whole grid in the state's
 * precision, malloc'd into fields) and, with more than one parameter set,
 * each cell's set (*label, malloc'd; NULL with one set), and with quiescent
 * cells their lags (*lags, malloc'd; else NULL): what a checkpoint
 * holds besides the time, in a file or in memory. Collective under MPI: every
 * rank gets the whole grid. 0, or -1 with err on every rank (the fields
 * gathered so far are left for the caller to free). */
static int gather_state(sim *s, void **fields, unsigned char **label, unsigned char **lags, char *err,
                        size_t errlen)
{
    *label = *lags = NULL;
    if (sim_sync(s, err, errlen) != 0) return -1;
    int rc = 0;
    for (int v = 0; v < s->m.def->nstate && rc == 0; v++) {
        fields[v] = malloc(s->g.ncells * sim_state_size(s));
        if (!fields[v] || sim_get_state(s, v, fields[v]) != 0 || s->failed) rc = -1;
    }
    if (rc == 0 && sim_param_sets(s) > 1 && !(*label = malloc(s->g.ncells))) rc = -1;
    if (rc == 0 && s->quiescent && (!(*lags = malloc(s->g.ncells)) || sim_get_lags(s, *lags) != 0)) rc = -1;
    if (rc) snprintf(err, errlen, "%s", s->failed ? s->error : "out of memory gathering the state for a checkpoint");
    int any = rc != 0;                                  /* a flag: the maximum of -1 and 0 would be 0 */
    par_max_ints(&any, 1);
    if (any && !rc) snprintf(err, errlen, "another rank could not gather its part of the state");
    rc = any ? -1 : 0;
    if (rc == 0 && *label && sim_param_labels_whole(s, *label) != 0) {
        snprintf(err, errlen, "%s", s->error);
        rc = -1;
    }
    return rc;
}

int checkpoint_save(sim *s, const char *path, int overwrite, char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    int rc = 0;
    if (par_rank() == 0) rc = output_path_ready(path, NULL, overwrite, "checkpoint file", err, errlen);
    par_bcast(&rc, sizeof rc);
    if (rc) { par_bcast(err, errlen); return -1; }
    const int ns = s->m.def->nstate;
    void *fields[MODEL_MAX_STATE] = {0};
    unsigned char *label = NULL, *lags = NULL;
    rc = gather_state(s, fields, &label, &lags, err, errlen);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);          /* renamed when complete: never half overwritten */
    if (rc == 0 && par_rank() == 0) rc = write_file(s, tmp, fields, label, lags, err, errlen);
    for (int v = 0; v < ns; v++) free(fields[v]);
    free(label);
    free(lags);
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

/* A checkpoint's model, mesh and dt against the simulation's, before
 * anything changes; `what` names it in messages ("checkpoint 'f.h5'").
 * h: its cells' spacing, or NULL where it does not say (files written before
 * 2026-11-25). A checkpoint of another dt is refused unless convert_dt is 1
 * (its time then continues from step 0 with the simulation's dt); -1: the
 * conversion is not offered. */
static int check_fits(const sim *s, const char *what, const char *model, const double n[3], const double *h, double dt,
                      double time, int convert_dt, char *err, size_t errlen)
{
    if (strcmp(model, s->m.def->name) != 0) {
        snprintf(err, errlen, "%s holds model '%s'; this simulation runs '%s'", what, model, s->m.def->name);
        return -1;
    }
    if (n[0] != s->g.n[0] || n[1] != s->g.n[1] || n[2] != s->g.n[2]) {
        snprintf(err, errlen, "%s is of a %gx%gx%g mesh; this simulation's is %dx%dx%d", what, n[0], n[1], n[2],
                 s->g.n[0], s->g.n[1], s->g.n[2]);
        return -1;
    }
    for (int a = 0; h && a < s->g.dim; a++)
        if (fabs(h[a] - s->g.h[a]) > 1e-12 * s->g.h[a]) {
            char theirs[96] = "", ours[96] = "";
            for (int b = 0; b < s->g.dim; b++) {
                snprintf(theirs + strlen(theirs), sizeof theirs - strlen(theirs), "%s%g", b ? " x " : "", h[b]);
                snprintf(ours + strlen(ours), sizeof ours - strlen(ours), "%s%g", b ? " x " : "", s->g.h[b]);
            }
            snprintf(err, errlen, "%s is of a mesh of %s mm cells; this simulation's are %s mm", what, theirs, ours);
            return -1;
        }
    if (dt != s->dt && convert_dt != 1) {
        if (convert_dt < 0)
            snprintf(err, errlen, "%s was taken at dt = %g ms and this simulation steps dt = %g ms", what, dt, s->dt);
        else
            snprintf(err, errlen, "%s was written at dt = %g ms and this simulation steps dt = %g ms: pass "
                     "{convert_dt = true} to continue its time (%g ms) with this dt from step 0", what, dt, s->dt, time);
        return -1;
    }
    return 0;
}

/* A checkpoint's tissue (whole-grid mask) against the simulation's. */
static int check_mask(const sim *s, const char *what, const unsigned char *mask, char *err, size_t errlen)
{
    if (memcmp(mask, s->g.mask, s->g.ncells) == 0) return 0;
    snprintf(err, errlen, "%s is of a mesh with other tissue cells than this simulation's", what);
    return -1;
}

/* The file's header against the simulation; fills dt, t0, steps, time. */
static int check_header(hid_t f, const sim *s, const char *path, int convert_dt, double hdr[4], char *err,
                        size_t errlen)
{
    char kind[64], model[64], what[4200];
    double n[3];
    snprintf(what, sizeof what, "checkpoint '%s'", path);
    if (read_attr_str(f, "kind", kind, sizeof kind) != 0 || strcmp(kind, KIND) != 0) {
        snprintf(err, errlen, "'%s' is not a cardiac checkpoint (written by sim:checkpoint)", path);
        return -1;
    }
    read_attr_str(f, "model", model, sizeof model);
    if (strcmp(model, s->m.def->name) != 0) return check_fits(s, what, model, n, NULL, 0, 0, 0, err, errlen);
    if (read_attr_doubles(f, "cells_xyz", n, 3) != 0 || read_attr_doubles(f, "dt_ms", &hdr[0], 1) != 0 ||
        read_attr_doubles(f, "t0_ms", &hdr[1], 1) != 0 || read_attr_doubles(f, "steps", &hdr[2], 1) != 0 ||
        read_attr_doubles(f, "time_ms", &hdr[3], 1) != 0) {
        snprintf(err, errlen, "checkpoint '%s' lacks its time or mesh attributes (damaged file?)", path);
        return -1;
    }
    double h[3];   /* files written before 2026-11-25 do not say */
    const int has_h = read_attr_doubles(f, "dx_mm", h, 3) == 0;
    return check_fits(s, what, model, n, has_h ? h : NULL, hdr[0], hdr[3], convert_dt, err, errlen);
}

/* Reads and checks everything into freshly allocated whole-grid fields. */
static int read_file(const sim *s, const char *path, int convert_dt, void **fields, unsigned char **lags,
                     double hdr[4], char *err, size_t errlen)
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
    if (!rc) {
        char what[4200];
        snprintf(what, sizeof what, "checkpoint '%s'", path);
        rc = check_mask(s, what, mask, err, errlen);
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
    /* a quiescent simulation takes the lags of one (checkpoints without them: none behind) */
    if (!rc && s->quiescent && H5Lexists(f, "quiescent_lag", H5P_DEFAULT) > 0 &&
        (!(*lags = malloc(s->g.ncells)) || read_array(f, "quiescent_lag", H5T_NATIVE_UINT8, &s->g, *lags) != 0)) {
        snprintf(err, errlen, "checkpoint '%s': cannot read its quiescent cells' lags (damaged)", path);
        rc = -1;
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

/* Release units held in memory (a snapshot's): this rank's cells' dyads as
 * multiscale_copy reads and writes them. */
typedef struct { void *var[MS_NVAR]; uint32_t *ryr; size_t ncells; int n; uint32_t seed; } mem_dyads;

/* Makes a checkpoint the simulation's state, once every rank has read and
 * checked it (failed: some rank could not; this rank's reason, if it was
 * this rank, is in err already): the parameter sets when sp is given (checked
 * against dt before anything changes), the state variables (whole-grid
 * fields), the release units (from a file, dy, which this frees; from
 * memory, md) and the time (hdr: dt, t0, steps, time). Trackers restart and
 * probes sample again from the restored time. Collective under MPI. */
static int restore_state(sim *s, int failed, void *const *fields, const unsigned char *lags, const saved_params *sp,
                         const double hdr[4], struct saved_dyads *dy, const mem_dyads *md, char *err, size_t errlen)
{
    int any = failed;
    par_max_ints(&any, 1);
    if (!any && sp && sim_replace_param_sets(s, sp->sets, sp->n, sp->label, err, errlen) != 0) any = failed = 1;
    for (int v = 0; v < s->m.def->nstate && !any; v++)
        if (sim_set_state(s, v, fields[v]) != 0) any = 1;
    if (!any && dy) checkpoint_apply_dyads(s, dy);
    else checkpoint_drop_dyads(dy);
    if (!any && md) multiscale_copy(s, md->var, md->ryr, 0);
    if (any) {
        if (!failed)
            snprintf(err, errlen, "%s", s->failed ? s->error : "another rank could not read the checkpoint");
        return -1;
    }
    if (hdr[0] == s->dt) { s->t0 = hdr[1]; s->nstep = (long)hdr[2]; }
    else { s->t0 = hdr[3]; s->nstep = 0; }
    if (s->quiescent) {   /* relative to the restored step count; none behind where the checkpoint has no lags */
        unsigned char *none = lags ? NULL : calloc(s->g.ncells, 1);
        if ((!lags && !none) || sim_set_lags(s, lags ? lags : none) != 0) {
            free(none);
            snprintf(err, errlen, "out of memory restoring the quiescent cells' lags");
            return -1;
        }
        free(none);
    }
    s->run_rest = 0;
    s->bad_cell = s->bad_gcell = -1;
    for (size_t q = 0; q < s->nprobes; q++) s->probes[q]->last_step = -1;
    for (size_t q = 0; q < s->ntrackers; q++)
        if (sim_restart_tracker(s, s->trackers[q], err, errlen) != 0) return -1;
    return sim_sync(s, err, errlen);
}

int checkpoint_load(sim *s, const char *path, int params, int convert_dt, char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (sim_sync(s, err, errlen) != 0) return -1;
    void *fields[MODEL_MAX_STATE] = {0};
    unsigned char *lags = NULL;
    double hdr[4];
    saved_params sp = {0};
    err[0] = 0;
    int rc = read_file(s, path, convert_dt, fields, &lags, hdr, err, errlen);   /* every rank reads the file */
    if (rc == 0 && params) rc = read_params(s, path, &sp, err, errlen);
    int any = rc != 0;
    par_max_ints(&any, 1);
    struct saved_dyads *dy = NULL;                             /* read whole before anything changes */
    if (!any && s->ms && !(dy = checkpoint_read_dyads(s, path, err, errlen))) rc = -1;
    rc = restore_state(s, rc != 0, fields, lags, params ? &sp : NULL, hdr, dy, NULL, err, errlen);
    for (int v = 0; v < s->m.def->nstate; v++) free(fields[v]);
    free(lags);
    free(sp.sets);
    free(sp.label);
    return rc;
}

/* ---- in memory ---------------------------------------------------------- */

struct checkpoint_mem {
    char model[64];
    int precision;                  /* PRECISION_* of the fields */
    double n[3], h[3];              /* the mesh's cells and spacing */
    double hdr[4];                  /* dt, t0, steps, time */
    int nranks;                     /* the job's ranks: the release units are each rank's own */
    unsigned char *mask;            /* the tissue, whole grid */
    void *fields[MODEL_MAX_STATE];  /* whole grid, the state's precision */
    unsigned char *lags;            /* quiescent cells' lags, whole grid, or NULL */
    saved_params params;            /* the parameter sets and, with more than one, each cell's */
    mem_dyads *dyads;               /* NULL without release units */
    size_t bytes;
};

void checkpoint_mem_free(checkpoint_mem *m)
{
    if (!m) return;
    for (int v = 0; v < MODEL_MAX_STATE; v++) free(m->fields[v]);
    free(m->mask);
    free(m->lags);
    free(m->params.sets);
    free(m->params.label);
    if (m->dyads) {
        for (int v = 0; v < MS_NVAR; v++) free(m->dyads->var[v]);
        free(m->dyads->ryr);
        free(m->dyads);
    }
    free(m);
}

size_t checkpoint_mem_bytes(const checkpoint_mem *m) { return m->bytes; }
double checkpoint_mem_time(const checkpoint_mem *m) { return m->hdr[3]; }

/* This rank's release units copied to host memory, or NULL when out of memory. */
static mem_dyads *copy_dyads(sim *s, size_t *bytes)
{
    const multiscale *ms = s->ms;
    const size_t nd = ms->ncells * (size_t)ms->n + 1;
    mem_dyads *d = calloc(1, sizeof *d);
    int ok = d && (d->ryr = malloc(nd * sizeof *d->ryr)) != NULL;
    for (int v = 0; v < MS_NVAR && ok; v++) ok = (d->var[v] = malloc(nd * ms->esize)) != NULL;
    if (!ok) {
        if (d) {
            for (int v = 0; v < MS_NVAR; v++) free(d->var[v]);
            free(d->ryr);
            free(d);
        }
        return NULL;
    }
    d->ncells = ms->ncells;
    d->n = ms->n;
    d->seed = ms->seed;
    multiscale_copy(s, d->var, d->ryr, 1);
    *bytes += nd * (MS_NVAR * ms->esize + sizeof *d->ryr);
    return d;
}

checkpoint_mem *checkpoint_mem_save(sim *s, char *err, size_t errlen)
{
    checkpoint_mem *m = calloc(1, sizeof *m);
    unsigned char *label = NULL;
    int rc = m ? 0 : -1;
    if (!m) snprintf(err, errlen, "out of memory for a snapshot");
    int any = rc != 0;
    par_max_ints(&any, 1);
    if (any) {
        if (!rc) snprintf(err, errlen, "another rank could not allocate its snapshot");
        free(m);
        return NULL;
    }
    rc = gather_state(s, m->fields, &label, &m->lags, err, errlen);
    m->params.label = label;
    const int np = s->m.def->nparam;
    m->params.n = sim_param_sets(s);
    m->bytes = sizeof *m + (size_t)s->m.def->nstate * s->g.ncells * sim_state_size(s) + (label ? s->g.ncells : 0) +
               (m->lags ? s->g.ncells : 0);
    if (rc == 0) {
        m->params.sets = calloc((size_t)m->params.n, sizeof *m->params.sets);
        m->mask = malloc(s->g.ncells);
        if (m->params.sets && m->mask) {
            for (int L = 0; L < m->params.n; L++) memcpy(m->params.sets[L], sim_param_set(s, L), np * sizeof(double));
            memcpy(m->mask, s->g.mask, s->g.ncells);
            m->bytes += s->g.ncells + (size_t)m->params.n * sizeof *m->params.sets;
        } else rc = -1;
        if (rc == 0 && s->ms && !(m->dyads = copy_dyads(s, &m->bytes))) rc = -1;
        if (rc) snprintf(err, errlen, "out of memory for a snapshot");
        any = rc != 0;
        par_max_ints(&any, 1);
        if (any && !rc) snprintf(err, errlen, "another rank could not keep its snapshot");
        rc = any ? -1 : 0;
    }
    if (rc) { checkpoint_mem_free(m); return NULL; }
    snprintf(m->model, sizeof m->model, "%s", s->m.def->name);
    m->precision = sim_precision(s);
    for (int a = 0; a < 3; a++) { m->n[a] = s->g.n[a]; m->h[a] = s->g.h[a]; }
    m->hdr[0] = s->dt;
    m->hdr[1] = s->t0;
    m->hdr[2] = (double)s->nstep;
    m->hdr[3] = sim_time(s);
    m->nranks = par_size();
    return m;
}

int checkpoint_mem_load(sim *s, const checkpoint_mem *m, int params, char *err, size_t errlen)
{
    static const char *const what = "snapshot";
    if (sim_sync(s, err, errlen) != 0) return -1;
    err[0] = 0;
    int rc = check_fits(s, what, m->model, m->n, m->h, m->hdr[0], m->hdr[3], -1, err, errlen);
    if (rc == 0) rc = check_mask(s, what, m->mask, err, errlen);
    if (rc == 0 && m->precision != sim_precision(s)) {
        snprintf(err, errlen, "snapshot holds a %s state; this simulation's is %s", model_precision_name(m->precision),
                 model_precision_name(sim_precision(s)));
        rc = -1;
    }
    if (rc == 0 && m->nranks != par_size()) {
        snprintf(err, errlen, "snapshot was taken by a job of %d ranks; this one has %d", m->nranks, par_size());
        rc = -1;
    }
    if (rc == 0 && (!s->ms) != (!m->dyads)) {
        snprintf(err, errlen, "snapshot %s calcium release units; this simulation %s", m->dyads ? "holds" : "has no",
                 s->ms ? "has them" : "has none");
        rc = -1;
    }
    if (rc == 0 && s->ms && (m->dyads->n != s->ms->n || m->dyads->seed != s->ms->seed ||
                             m->dyads->ncells != s->ms->ncells)) {
        snprintf(err, errlen, "snapshot has %d dyads per cell with seed %u on %zu cells of this rank; this simulation "
                 "%d with seed %u on %zu", m->dyads->n, (unsigned)m->dyads->seed, m->dyads->ncells, s->ms->n,
                 (unsigned)s->ms->seed, s->ms->ncells);
        rc = -1;
    }
    return restore_state(s, rc != 0, m->fields, m->lags, params ? &m->params : NULL, m->hdr, NULL, m->dyads, err,
                         errlen);
}
