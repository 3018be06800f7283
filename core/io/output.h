/* HDF5 output of fields and probes, with an XDMF sidecar for ParaView.
 * Layout (docs/architecture.md): root attributes describe the run; /mesh/mask;
 * /time and /step per frame; /fields/<var>[frame][z][y][x] (float32);
 * /probes/<name>/{time,cells,<var>[sample][cell]}. The file is flushed and the
 * XDMF rewritten after every frame, so an interrupted run leaves a valid file. */
#ifndef CARDIAC_OUTPUT_H
#define CARDIAC_OUTPUT_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sim;
struct probe;
typedef struct h5out h5out;

typedef struct {
    const char *path;
    const int *vars; int nvars;
    long every;                /* steps between frames */
    int overwrite;
    const char *script;        /* text of the script that made the file, may be NULL */
    const char *script_name;
} h5out_config;

/* Checks the path and creates the file (creating missing parent folders). */
h5out *h5out_open(const h5out_config *cfg, struct sim *s, char *err, size_t errlen);
int h5out_due(const h5out *o, const struct sim *s);
/* Records that the frame of this step has been taken (h5out_due is then false). */
void h5out_mark(h5out *o, long step);
/* Appends one frame: fields[q] holds the q-th output variable (ncells floats). */
int h5out_frame(h5out *o, struct sim *s, const float *const *fields, double t, long step,
                char *err, size_t errlen);
const int *h5out_vars(const h5out *o);
int h5out_nvars(const h5out *o);
long h5out_every(const h5out *o);
/* Writes pending probe samples, flushes; the file stays valid. */
/* Writes the probes' new samples and flushes the file; the .xmf sidecar is
 * rewritten when due, or always with complete (a run stopped or failed). */
int h5out_flush(h5out *o, struct sim *s, int complete);
void h5out_close(h5out *o, struct sim *s);
const char *h5out_path(const h5out *o);
/* Reads samples q0 .. q0 + n - 1 of probe p back from the open output o
 * (NULL: an error). */
int h5out_read_probe(const h5out *o, const struct sim *s, const struct probe *p, size_t q0, size_t n, double *t,
                     float *rows, char *err, size_t errlen);
long h5out_frames(const h5out *o);

/* Reads a whole dataset as doubles. Returns the element count or -1 (err set);
 * dims (up to 8) and rank are filled. *data is malloc'd. */
long h5_read_dataset(const char *path, const char *name, double **data, long dims[8], int *rank,
                     char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
