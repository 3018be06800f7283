/* The calcium release units of a multiscale model in a checkpoint
 * (core/io/checkpoint.h, core/multiscale/multiscale.h). Group /dyads, attributes dyads
 * (per cell) and seed; one dataset per per-dyad variable (cads, cass,
 * cacyt, cansr, cajsr, nca, camkt in the state's precision; ryr, the packed
 * RyR counts) of shape [cells][dyads], row = the cell's global index (x
 * fastest). Rows of cells without tissue are never written (the datasets are
 * chunked, so they take no room). Each rank writes and reads the rows of the
 * cells it owns, so the file is the same for any decomposition. */
#ifndef CARDIAC_CHECKPOINT_DYADS_H
#define CARDIAC_CHECKPOINT_DYADS_H
#include <hdf5.h>
#include "sim.h"

/* Rank 0, in the checkpoint file f being written: the group and its empty datasets. 0 or -1. */
int checkpoint_create_dyads(hid_t f, const sim *s);
/* Every rank in turn writes its cells' dyads into the file at path (closed
 * by rank 0 after checkpoint_create_dyads). Collective. 0, or -1 with err. */
int checkpoint_write_dyads(sim *s, const char *path, char *err, size_t errlen);
/* Each rank reads its cells' dyads from the checkpoint at path into host
 * memory, after checking the dyad count and seed; the simulation is not
 * touched until checkpoint_apply_dyads. Collective. NULL with err. */
struct saved_dyads;
struct saved_dyads *checkpoint_read_dyads(sim *s, const char *path, char *err, size_t errlen);
/* Makes them the simulation's dyads (and frees them). */
void checkpoint_apply_dyads(sim *s, struct saved_dyads *d);
void checkpoint_drop_dyads(struct saved_dyads *d);

#endif
