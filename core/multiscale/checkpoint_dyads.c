/* Calcium release units in checkpoints (core/multiscale/checkpoint_dyads.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checkpoint_dyads.h"
#include "h5_util.h"
#include "par.h"

static const char *const NAMES[MS_NVAR] = {"cads", "cass", "cacyt", "cansr", "cajsr", "nca", "camkt"};

static hid_t real_type(const sim *s) { return s->fp64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT; }

static int make_dataset(hid_t g, const char *name, hid_t type, const sim *s, size_t esize)
{
    const multiscale *ms = s->ms;
    hsize_t dims[2] = {(hsize_t)s->g.ncells, (hsize_t)ms->n};
    size_t rows = (1u << 20) / ((size_t)ms->n * esize);     /* chunks of about 1 MiB */
    if (rows < 1) rows = 1;
    if (rows > s->g.ncells) rows = s->g.ncells;
    hsize_t chunk[2] = {(hsize_t)rows, (hsize_t)ms->n};
    hid_t sp = H5Screate_simple(2, dims, NULL), pl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(pl, 2, chunk);
    hid_t d = H5Dcreate2(g, name, type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    H5Pclose(pl);
    H5Sclose(sp);
    if (d < 0) return -1;
    H5Dclose(d);
    return 0;
}

int checkpoint_create_dyads(hid_t f, const sim *s)
{
    const multiscale *ms = s->ms;
    hid_t g = H5Gcreate2(f, "dyads", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    double n = ms->n, seed = ms->seed;
    h5_attr_doubles(g, "dyads", &n, 1);
    h5_attr_doubles(g, "seed", &seed, 1);
    int rc = 0;
    for (int v = 0; v < MS_NVAR && rc == 0; v++) rc = make_dataset(g, NAMES[v], real_type(s), s, ms->esize);
    if (rc == 0) rc = make_dataset(g, "ryr", H5T_NATIVE_UINT32, s, sizeof(uint32_t));
    H5Gclose(g);
    return rc;
}

/* The host copy of this rank's dyads: MS_NVAR arrays and the RyR counts. */
typedef struct { void *var[MS_NVAR]; uint32_t *ryr; } host_dyads;

static void host_free(host_dyads *h)
{
    for (int v = 0; v < MS_NVAR; v++) free(h->var[v]);
    free(h->ryr);
    memset(h, 0, sizeof *h);
}

static int host_alloc(const sim *s, host_dyads *h)
{
    const size_t nd = s->ms->ncells * (size_t)s->ms->n + 1;
    memset(h, 0, sizeof *h);
    int ok = (h->ryr = malloc(nd * sizeof *h->ryr)) != NULL;
    for (int v = 0; v < MS_NVAR && ok; v++) ok = (h->var[v] = malloc(nd * s->ms->esize)) != NULL;
    if (!ok) host_free(h);
    return ok ? 0 : -1;
}

/* Writes (or reads) this rank's rows of one dataset: runs of consecutive
 * global cells are one hyperslab each. */
static int rows_io(hid_t d, hid_t type, const sim *s, void *data, size_t esize, int write)
{
    const multiscale *ms = s->ms;
    hid_t fs = H5Dget_space(d);
    int rc = 0;
    for (size_t k = 0; k < ms->ncells && rc == 0;) {
        size_t len = 1;
        while (k + len < ms->ncells && ms->gcell[k + len] == ms->gcell[k] + len) len++;
        hsize_t start[2] = {(hsize_t)ms->gcell[k], 0}, count[2] = {(hsize_t)len, (hsize_t)ms->n};
        hid_t mem = H5Screate_simple(2, count, NULL);
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
        char *at = (char *)data + k * (size_t)ms->n * esize;
        rc = (write ? H5Dwrite(d, type, mem, fs, H5P_DEFAULT, at) : H5Dread(d, type, mem, fs, H5P_DEFAULT, at)) < 0;
        H5Sclose(mem);
        k += len;
    }
    H5Sclose(fs);
    return rc ? -1 : 0;
}

static int all_rows_io(hid_t f, const sim *s, host_dyads *h, int write)
{
    int rc = 0;
    for (int v = 0; v <= MS_NVAR && rc == 0; v++) {
        char name[64];
        snprintf(name, sizeof name, "dyads/%s", v < MS_NVAR ? NAMES[v] : "ryr");
        hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
        if (d < 0) return -1;
        rc = v < MS_NVAR ? rows_io(d, real_type(s), s, h->var[v], s->ms->esize, write)
                         : rows_io(d, H5T_NATIVE_UINT32, s, h->ryr, sizeof(uint32_t), write);
        H5Dclose(d);
    }
    return rc;
}

int checkpoint_write_dyads(sim *s, const char *path, char *err, size_t errlen)
{
    host_dyads h = {0};
    int rc = host_alloc(s, &h);
    if (rc == 0) multiscale_copy(s, h.var, h.ryr, 1);
    if (rc != 0) snprintf(err, errlen, "out of memory copying the calcium release units for a checkpoint");
    for (int r = 0; r < par_size(); r++) {          /* one rank at a time appends to the file */
        if (par_rank() == r && rc == 0) {
            hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
            rc = f < 0 || all_rows_io(f, s, &h, 1) != 0 ? -1 : 0;
            if (f >= 0 && H5Fclose(f) < 0) rc = -1;
            if (rc) snprintf(err, errlen, "writing the calcium release units into '%s' failed (disk full?)", path);
        }
        int any = rc != 0;
        par_max_ints(&any, 1);
        if (any && !rc) { rc = -1; snprintf(err, errlen, "another rank could not write its calcium release units"); }
        if (rc) break;
    }
    host_free(&h);
    return rc;
}

struct saved_dyads *checkpoint_read_dyads(sim *s, const char *path, char *err, size_t errlen)
{
    const multiscale *ms = s->ms;
    host_dyads h = {0};
    int rc = 0;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t g = f < 0 || H5Lexists(f, "dyads", H5P_DEFAULT) <= 0 ? -1 : H5Gopen2(f, "dyads", H5P_DEFAULT);
    double n = 0, seed = -1;
    if (g < 0) {
        snprintf(err, errlen, "checkpoint '%s' holds no calcium release units", path);
        rc = -1;
    } else {
        hid_t a = H5Aopen(g, "dyads", H5P_DEFAULT), b = H5Aopen(g, "seed", H5P_DEFAULT);
        if (a < 0 || b < 0 || H5Aread(a, H5T_NATIVE_DOUBLE, &n) < 0 || H5Aread(b, H5T_NATIVE_DOUBLE, &seed) < 0) n = -1;
        if (a >= 0) H5Aclose(a);
        if (b >= 0) H5Aclose(b);
        if (n != ms->n || seed != ms->seed) {
            snprintf(err, errlen, "checkpoint '%s' has %g dyads per cell with seed %g; this simulation %d with seed %u",
                     path, n, seed, ms->n, (unsigned)ms->seed);
            rc = -1;
        }
        H5Gclose(g);
    }
    if (rc == 0 && host_alloc(s, &h) != 0) {
        snprintf(err, errlen, "out of memory reading the calcium release units");
        rc = -1;
    }
    if (rc == 0 && all_rows_io(f, s, &h, 0) != 0) {
        snprintf(err, errlen, "checkpoint '%s': cannot read its calcium release units", path);
        rc = -1;
    }
    if (f >= 0) H5Fclose(f);
    int any = rc != 0;
    par_max_ints(&any, 1);
    if (any && !rc) snprintf(err, errlen, "another rank could not read its calcium release units");
    host_dyads *keep = any ? NULL : malloc(sizeof *keep);
    if (keep) *keep = h;
    else host_free(&h);
    if (!any && !keep) snprintf(err, errlen, "out of memory reading the calcium release units");
    return (struct saved_dyads *)keep;
}

void checkpoint_apply_dyads(sim *s, struct saved_dyads *d)
{
    host_dyads *h = (host_dyads *)d;
    multiscale_copy(s, h->var, h->ryr, 0);
    checkpoint_drop_dyads(d);
}

void checkpoint_drop_dyads(struct saved_dyads *d)
{
    if (!d) return;
    host_free((host_dyads *)d);
    free(d);
}
