#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "h5_util.h"
#include "output_paths.h"
#include "output.h"
#include "par.h"
#include "sim.h"
#include "version.h"

struct h5out {
    char *path, *xmf;
    hid_t file;
    int vars[MODEL_MAX_STATE], nvars;
    long every;
    long frames;
    long xmf_frames;      /* frames the .xmf lists */
    double xmf_time;      /* wall clock of its last rewrite, s */
    long last_step;
    double *times;
    hid_t dset[MODEL_MAX_STATE], tset, sset;
    hid_t dxpl;           /* data transfer: collective MPI-IO under MPI (every rank calls every write) */
};

/* Under MPI every rank opens the one file through MPI-IO and takes part in
 * every call (metadata operations are collective in parallel HDF5); rank 0
 * writes what all ranks hold (attributes, mask, times, probes), each rank the
 * cells it owns of every frame. In one process the same code writes
 * everything. */
static int writer(void) { return par_rank() == 0; }

static hid_t extensible(hid_t loc, const char *name, hid_t type, int rank, const hsize_t *dims)
{
    hsize_t cur[8], max[8], chunk[8];
    for (int r = 0; r < rank; r++) { cur[r] = dims[r]; max[r] = dims[r]; chunk[r] = dims[r] ? dims[r] : 1; }
    cur[0] = 0; max[0] = H5S_UNLIMITED; chunk[0] = 1;
    /* keep chunks near 4 MiB: shrink the slowest spatial axis first */
    for (int r = 1; r < rank; r++) {
        double bytes = H5Tget_size(type);
        for (int q = 0; q < rank; q++) bytes *= chunk[q];
        if (bytes <= 4.0 * 1024 * 1024) break;
        hsize_t want = (hsize_t)(chunk[r] * (4.0 * 1024 * 1024) / bytes);
        chunk[r] = want ? want : 1;
    }
    if (rank == 1) chunk[0] = 1024;   /* time series: 1024 samples per chunk */
    hid_t sp = H5Screate_simple(rank, cur, max);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(pl, rank, chunk);
    hid_t d = H5Dcreate2(loc, name, type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    H5Pclose(pl); H5Sclose(sp);
    return d;
}

/* Appends count rows to an extensible dataset; rank 0's rows are written. */
static int append_rows(hid_t d, hid_t dxpl, hid_t memtype, const void *data, hsize_t count)
{
    hid_t sp = H5Dget_space(d);
    int rank = H5Sget_simple_extent_ndims(sp);
    hsize_t dims[8], start[8] = {0}, cnt[8];
    H5Sget_simple_extent_dims(sp, dims, NULL);
    H5Sclose(sp);
    start[0] = dims[0];
    dims[0] += count;
    if (H5Dset_extent(d, dims) < 0) return -1;
    for (int r = 0; r < rank; r++) cnt[r] = dims[r];
    cnt[0] = count;
    hid_t fs = H5Dget_space(d);
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, cnt, NULL);
    hid_t ms = H5Screate_simple(rank, cnt, NULL);
    if (!writer()) { H5Sselect_none(fs); H5Sselect_none(ms); }
    herr_t e = H5Dwrite(d, memtype, ms, fs, dxpl, data);
    H5Sclose(ms); H5Sclose(fs);
    return e < 0 ? -1 : 0;
}

/* Appends one frame of a field: each rank writes the cells it owns, from its
 * stored part (s->lg) of the field. */
static int append_frame(hid_t d, hid_t dxpl, const sim *s, const float *field)
{
    hid_t sp = H5Dget_space(d);
    hsize_t dims[4];
    H5Sget_simple_extent_dims(sp, dims, NULL);
    H5Sclose(sp);
    const hsize_t frame = dims[0]++;
    if (H5Dset_extent(d, dims) < 0) return -1;
    hsize_t fstart[4] = {frame}, cnt[4] = {1}, mdims[3], mstart[3];
    for (int a = 0; a < 3; a++) {
        fstart[3 - a] = (hsize_t)s->dc.lo[a];
        cnt[3 - a] = (hsize_t)(s->dc.hi[a] - s->dc.lo[a]);
        mdims[2 - a] = (hsize_t)s->lg.n[a];
        mstart[2 - a] = (hsize_t)s->own_lo[a];
    }
    hid_t fs = H5Dget_space(d);
    hid_t ms = H5Screate_simple(3, mdims, NULL);
    if (cnt[1] && cnt[2] && cnt[3]) {
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, fstart, NULL, cnt, NULL);
        H5Sselect_hyperslab(ms, H5S_SELECT_SET, mstart, NULL, cnt + 1, NULL);
    } else {   /* a rank that owns no cells (core/parallel/decomp.h, whole_on_0) still joins the collective write */
        H5Sselect_none(fs);
        H5Sselect_none(ms);
    }
    herr_t e = H5Dwrite(d, H5T_NATIVE_FLOAT, ms, fs, dxpl, field);
    H5Sclose(ms); H5Sclose(fs);
    return e < 0 ? -1 : 0;
}

/* The script's text: an attribute holds at most 64 KB (HDF5's compact
 * storage), so a longer script goes to the dataset /script, and the
 * attribute says so (it was dropped silently). */
enum { SCRIPT_ATTR_MAX = 60000 };

static void write_script(hid_t f, const char *text, hid_t dxpl)
{
    size_t len = strlen(text);
    if (len < SCRIPT_ATTR_MAX) {
        h5_attr_str(f, "script", text);
        return;
    }
    char note[96];
    snprintf(note, sizeof note, "(%zu bytes: in the dataset /script)", len);
    h5_attr_str(f, "script", note);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, len + 1);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t d = H5Dcreate2(f, "script", t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (!writer()) H5Sselect_none(sp);
    H5Dwrite(d, t, sp, sp, dxpl, text);
    H5Dclose(d); H5Sclose(sp); H5Tclose(t);
}

static void write_run_attributes(hid_t f, const sim *s, const h5out_config *cfg, hid_t dxpl)
{
    const model_def *d = s->m.def;
    h5_attr_str(f, "program", "cardiac " CARDIAC_VERSION);
    h5_attr_str(f, "model", d->name);
    h5_attr_str(f, "model_title", d->title);
    h5_attr_str(f, "model_citation", d->citation);
    h5_attr_str(f, "backend", s->be->name);
    h5_attr_doubles(f, "dt_ms", &s->dt, 1);
    h5_attr_doubles(f, "dx_mm", s->g.h, 3);
    h5_attr_doubles(f, "D_mm2_per_ms", s->D, 3);
    if (s->members) {   /* an ensemble (core/engine/members.h): the last axis of the fields counts its members */
        const double m = s->members;
        h5_attr_doubles(f, "members", &m, 1);
        if (s->members <= 2048) h5_attr_doubles(f, "member_D_mm2_per_ms", &s->mD[0][0], 3 * s->members);
    }
    double order = s->order;
    h5_attr_doubles(f, "stencil_order", &order, 1);
    double n[3] = {s->g.n[0], s->g.n[1], s->g.n[2]};
    h5_attr_doubles(f, "cells_xyz", n, 3);
    time_t now = time(NULL);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    par_bcast(when, sizeof when);   /* attribute values must agree across ranks */
    h5_attr_str(f, "created", when);
    h5_attr_str(f, "script_name", cfg->script_name ? cfg->script_name : "(interactive)");
    write_script(f, cfg->script ? cfg->script : "", dxpl);
    h5_write_model(f, s);
}

/* The checks and folders before creating the file, on rank 0 (whose verdict
 * every rank shares: the others would see the file rank 0 just made). */
static int prepare_path(const h5out_config *cfg, char *err, size_t errlen)
{
    int rc = 0;
    if (writer()) {
        char xmf[4200];
        output_sidecar(cfg->path, xmf, sizeof xmf);
        rc = output_path_ready(cfg->path, xmf, cfg->overwrite, "output file", err, errlen);
    }
    par_bcast(&rc, sizeof rc);
    if (rc) par_bcast(err, errlen);
    return rc;
}

h5out *h5out_open(const h5out_config *cfg, sim *s, char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (prepare_path(cfg, err, errlen) != 0) return NULL;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (par_active()) H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t f = H5Fcreate(cfg->path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    if (f < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot create output file '%s'%s%s", cfg->path,
                 e ? ": " : "", e ? strerror(e) : "");
        return NULL;
    }
    h5out *o = calloc(1, sizeof *o);
    o->file = f;
    o->path = strdup(cfg->path);
    size_t pl = strlen(cfg->path);
    o->xmf = malloc(pl + 8);
    output_sidecar(cfg->path, o->xmf, pl + 8);
    output_path_hold(o->path);
    output_path_hold(o->xmf);
    memcpy(o->vars, cfg->vars, cfg->nvars * sizeof(int));
    o->nvars = cfg->nvars;
    o->every = cfg->every;
    o->last_step = -1;
    o->dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (par_active()) H5Pset_dxpl_mpio(o->dxpl, H5FD_MPIO_COLLECTIVE);

    write_run_attributes(f, s, cfg, o->dxpl);
    hid_t gm = H5Gcreate2(f, "mesh", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims3[3] = {(hsize_t)s->g.n[2], (hsize_t)s->g.n[1], (hsize_t)s->g.n[0]};
    hid_t sp = H5Screate_simple(3, dims3, NULL);
    hid_t dm = H5Dcreate2(gm, "mask", H5T_NATIVE_UINT8, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (!writer()) H5Sselect_none(sp);
    H5Dwrite(dm, H5T_NATIVE_UINT8, sp, sp, o->dxpl, s->g.mask);
    H5Dclose(dm); H5Sclose(sp); H5Gclose(gm);

    hsize_t one = 0;
    o->tset = extensible(f, "time", H5T_NATIVE_DOUBLE, 1, &one);
    o->sset = extensible(f, "step", H5T_NATIVE_LONG, 1, &one);
    hid_t gf = H5Gcreate2(f, "fields", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims4[4] = {0, dims3[0], dims3[1], dims3[2]};
    for (int v = 0; v < o->nvars; v++) {
        const var_info *vi = &s->m.def->states[o->vars[v]];
        o->dset[v] = extensible(gf, vi->name, H5T_NATIVE_FLOAT, 4, dims4);
        h5_attr_str(o->dset[v], "units", vi->units);
        h5_attr_str(o->dset[v], "description", vi->desc);
    }
    H5Gclose(gf);
    H5Fflush(f, H5F_SCOPE_GLOBAL);
    return o;
}

int h5out_due(const h5out *o, const sim *s)
{
    return s->nstep % o->every == 0 && o->last_step != s->nstep;
}

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The .xmf lists every frame, so a rewrite costs O(frames): after each frame
 * that made a run's output quadratic in its frames (8,000 frames of a 10 x 10
 * sheet: 52 s). It is rewritten when the frames have grown by a quarter since
 * the last rewrite (the rewrites then add up to about five times the final
 * file), when a second has passed since (so that it is current at the end of
 * a long run), and always when asked (force: closing, a run stopped or
 * failed). Between rewrites it lists fewer frames than the file holds, never
 * more. */
static void write_xdmf(h5out *o, const sim *s, int force)
{
    if (o->frames == o->xmf_frames) return;
    const double now = wall_s();
    if (!force && o->frames < o->xmf_frames + o->xmf_frames / 4 + 1 && now - o->xmf_time < 1.0) return;
    o->xmf_frames = o->frames;
    o->xmf_time = now;
    if (!writer()) return;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", o->xmf);
    FILE *x = fopen(tmp, "w");
    if (!x) return;
    const char *base = strrchr(o->path, '/');
    base = base ? base + 1 : o->path;
    const grid *g = &s->g;
    fprintf(x, "<?xml version=\"1.0\" ?>\n<!-- written by cardiac " CARDIAC_VERSION " -->\n"
               "<Xdmf Version=\"3.0\">\n <Domain>\n"
               "  <Grid Name=\"cardiac\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
    for (long f = 0; f < o->frames; f++) {
        fprintf(x, "   <Grid Name=\"frame%ld\" GridType=\"Uniform\">\n    <Time Value=\"%.9g\"/>\n", f, o->times[f]);
        fprintf(x, "    <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"%d %d %d\"/>\n",
                g->n[2], g->n[1], g->n[0]);
        fprintf(x, "    <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
                   "     <DataItem Dimensions=\"3\" Format=\"XML\">%.9g %.9g %.9g</DataItem>\n"
                   "     <DataItem Dimensions=\"3\" Format=\"XML\">%.9g %.9g %.9g</DataItem>\n"
                   "    </Geometry>\n",
                g->h[2] / 2, g->h[1] / 2, g->h[0] / 2, g->h[2], g->h[1], g->h[0]);
        for (int v = 0; v < o->nvars; v++) {
            const char *name = s->m.def->states[o->vars[v]].name;
            fprintf(x, "    <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Node\">\n"
                       "     <DataItem ItemType=\"HyperSlab\" Dimensions=\"%d %d %d\">\n"
                       "      <DataItem Dimensions=\"3 4\" Format=\"XML\">%ld 0 0 0 1 1 1 1 1 %d %d %d</DataItem>\n"
                       "      <DataItem Dimensions=\"%ld %d %d %d\" NumberType=\"Float\" Precision=\"4\" "
                       "Format=\"HDF\">%s:/fields/%s</DataItem>\n"
                       "     </DataItem>\n    </Attribute>\n",
                    name, g->n[2], g->n[1], g->n[0], f, g->n[2], g->n[1], g->n[0],
                    o->frames, g->n[2], g->n[1], g->n[0], base, name);
        }
        fprintf(x, "   </Grid>\n");
    }
    fprintf(x, "  </Grid>\n </Domain>\n</Xdmf>\n");
    fclose(x);
    rename(tmp, o->xmf);
}

int h5out_frame(h5out *o, sim *s, const float *const *fields, double t, long step,
                char *err, size_t errlen)
{
    for (int v = 0; v < o->nvars; v++) {
        if (append_frame(o->dset[v], o->dxpl, s, fields[v]) != 0) {
            snprintf(err, errlen, "writing frame %ld to '%s' failed (disk full?)", o->frames, o->path);
            return -1;
        }
    }
    append_rows(o->tset, o->dxpl, H5T_NATIVE_DOUBLE, &t, 1);
    append_rows(o->sset, o->dxpl, H5T_NATIVE_LONG, &step, 1);
    o->times = realloc(o->times, (o->frames + 1) * sizeof *o->times);
    o->times[o->frames++] = t;
    h5out_flush(o, s, 0);
    return 0;
}

void h5out_mark(h5out *o, long step) { o->last_step = step; }
const int *h5out_vars(const h5out *o) { return o->vars; }
int h5out_nvars(const h5out *o) { return o->nvars; }
long h5out_every(const h5out *o) { return o->every; }

static void write_probe(h5out *o, const sim *s, probe *p)
{
    char path[160];
    snprintf(path, sizeof path, "probes/%s", p->name);
    if (H5Lexists(o->file, "probes", H5P_DEFAULT) <= 0)
        H5Gclose(H5Gcreate2(o->file, "probes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    hid_t g;
    if (H5Lexists(o->file, path, H5P_DEFAULT) <= 0) {
        g = H5Gcreate2(o->file, path, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        hsize_t one = 0;
        H5Dclose(extensible(g, "time", H5T_NATIVE_DOUBLE, 1, &one));
        hsize_t d2[2] = {0, p->ncells};
        for (int v = 0; v < p->nvars; v++)
            H5Dclose(extensible(g, s->m.def->states[p->vars[v]].name, H5T_NATIVE_FLOAT, 2, d2));
        /* 1-based (i, j, k) of each probed cell */
        hsize_t dc[2] = {p->ncells, 3};
        int *ijk = malloc(p->ncells * 3 * sizeof *ijk);
        for (size_t c = 0; c < p->ncells; c++) {
            int i, j, k;
            grid_ijk(&s->g, p->cells[c], &i, &j, &k);
            ijk[3 * c] = i + 1; ijk[3 * c + 1] = j + 1; ijk[3 * c + 2] = k + 1;
        }
        hid_t sp = H5Screate_simple(2, dc, NULL);
        hid_t dset = H5Dcreate2(g, "cells", H5T_NATIVE_INT, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (!writer()) H5Sselect_none(sp);
        H5Dwrite(dset, H5T_NATIVE_INT, sp, sp, o->dxpl, ijk);
        H5Dclose(dset); H5Sclose(sp); free(ijk);
        p->nsaved = 0;   /* a new file holds the whole series (none of it has left memory: first = 0) */
    } else {
        g = H5Gopen2(o->file, path, H5P_DEFAULT);
    }
    size_t n = p->ncombined - p->nsaved;
    hid_t d = H5Dopen2(g, "time", H5P_DEFAULT);
    append_rows(d, o->dxpl, H5T_NATIVE_DOUBLE, probe_time(p, p->nsaved), n);
    H5Dclose(d);
    float *col = malloc(n * p->ncells * sizeof *col);
    for (int v = 0; v < p->nvars; v++) {
        for (size_t q = 0; q < n; q++)
            memcpy(col + q * p->ncells, probe_row(p, p->nsaved + q) + (size_t)v * p->ncells,
                   p->ncells * sizeof *col);
        d = H5Dopen2(g, s->m.def->states[p->vars[v]].name, H5P_DEFAULT);
        append_rows(d, o->dxpl, H5T_NATIVE_FLOAT, col, n);
        H5Dclose(d);
    }
    free(col);
    H5Gclose(g);
    p->nsaved = p->ncombined;
    probe_release(p);
}

/* Reads rows frow .. frow + n - 1 of probe p from `file` (every rank, through
 * dxpl): times into t, rows (nvars x ncells each) into rows. */
static int read_probe_rows(hid_t file, hid_t dxpl, const sim *s, const probe *p, size_t frow, size_t n,
                           double *t, float *rows)
{
    char path[160];
    snprintf(path, sizeof path, "probes/%s", p->name);
    hid_t g = H5Gopen2(file, path, H5P_DEFAULT);
    if (g < 0) return -1;
    int rc = 0;
    float *col = malloc((n ? n : 1) * p->ncells * sizeof *col);
    for (int v = -1; v < p->nvars && rc == 0; v++) {   /* -1: the times */
        hid_t d = H5Dopen2(g, v < 0 ? "time" : s->m.def->states[p->vars[v]].name, H5P_DEFAULT);
        hid_t fs = d < 0 ? -1 : H5Dget_space(d);
        hsize_t start[2] = {frow, 0}, cnt[2] = {n, p->ncells};
        hid_t ms = H5Screate_simple(v < 0 ? 1 : 2, cnt, NULL);
        if (d < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, cnt, NULL) < 0 ||
            H5Dread(d, v < 0 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT, ms, fs, dxpl, v < 0 ? (void *)t : col) < 0)
            rc = -1;
        for (size_t q = 0; rc == 0 && v >= 0 && q < n; q++)
            memcpy(rows + (q * p->nvars + v) * p->ncells, col + q * p->ncells, p->ncells * sizeof *col);
        H5Sclose(ms);
        if (fs >= 0) H5Sclose(fs);
        if (d >= 0) H5Dclose(d);
    }
    free(col);
    H5Gclose(g);
    return rc;
}

int h5out_read_probe(const h5out *o, const sim *s, const probe *p, size_t q0, size_t n, double *t, float *rows,
                     char *err, size_t errlen)
{
    if (o && read_probe_rows(o->file, o->dxpl, s, p, q0, n, t, rows) == 0) return 0;
    snprintf(err, errlen, "cannot read samples %zu..%zu of probe '%s' back from the output file%s%s", q0 + 1, q0 + n,
             p->name, o ? " " : "", o ? o->path : "");
    return -1;
}

int h5out_flush(h5out *o, sim *s, int complete)
{
    for (size_t q = 0; q < s->nprobes; q++)
        if (s->probes[q]->ncombined > s->probes[q]->nsaved) write_probe(o, s, s->probes[q]);
    write_xdmf(o, s, complete);
    return H5Fflush(o->file, H5F_SCOPE_GLOBAL) < 0 ? -1 : 0;
}

void h5out_close(h5out *o, sim *s)
{
    if (!o) return;
    h5out_flush(o, s, 1);
    /* the probes' written samples come back to memory: the file may be
     * overwritten or moved once it is closed */
    for (size_t q = 0; q < s->nprobes; q++) {
        char err[512];
        if (probe_reload(o, s, s->probes[q], err, sizeof err) != 0) sim_fail(s, "%s", err);
    }
    for (int v = 0; v < o->nvars; v++) H5Dclose(o->dset[v]);
    H5Dclose(o->tset);
    H5Dclose(o->sset);
    H5Pclose(o->dxpl);
    H5Fclose(o->file);
    output_path_release(o->path);
    output_path_release(o->xmf);
    free(o->path); free(o->xmf); free(o->times);
    free(o);
    if (s->out == o) s->out = NULL;
}

const char *h5out_path(const h5out *o) { return o->path; }
long h5out_frames(const h5out *o) { return o->frames; }

long h5_read_dataset(const char *path, const char *name, double **data, long dims[8], int *rank,
                     char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) { snprintf(err, errlen, "cannot open HDF5 file '%s'", path); return -1; }
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    if (d < 0) {
        snprintf(err, errlen, "no dataset '%s' in '%s'", name, path);
        H5Fclose(f);
        return -1;
    }
    hid_t sp = H5Dget_space(d);
    hsize_t hd[8];
    *rank = H5Sget_simple_extent_ndims(sp);
    H5Sget_simple_extent_dims(sp, hd, NULL);
    long n = 1;
    for (int r = 0; r < *rank; r++) { dims[r] = (long)hd[r]; n *= (long)hd[r]; }
    *data = malloc((n ? n : 1) * sizeof(double));
    H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data);
    H5Sclose(sp); H5Dclose(d); H5Fclose(f);
    return n;
}
