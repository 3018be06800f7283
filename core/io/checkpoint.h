/* Checkpoints: the whole state of a simulation in one HDF5 file, from which
 * the same simulation (same script, same backend and precision) continues
 * bit for bit as if it had never stopped. */
#ifndef CARDIAC_CHECKPOINT_H
#define CARDIAC_CHECKPOINT_H
#include <stddef.h>
#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the state (every variable in its own precision), the time and step
 * count, the mask and the parameter sets with each cell's set. The file is written under a
 * temporary name and renamed, so an existing checkpoint is never left half
 * overwritten. Collective under MPI (rank 0 writes). 0, or -1 with err. */
int checkpoint_save(sim *s, const char *path, int overwrite, char *err, size_t errlen);

/* Replaces the state, time and step count of s by the file's, after checking
 * that it holds the same model on the same mesh (cells and spacing). With the
 * same dt the step count continues (t0 and nsteps as saved, so stimuli switch
 * at the same steps); a file of another dt is refused, unless convert_dt:
 * then its time continues from step 0 with s's dt. With params, the
 * model's parameters, regional ones included, become the file's too
 * (otherwise they stay the script's). Trackers restart and probes sample
 * again from the restored time. Collective under MPI. */
int checkpoint_load(sim *s, const char *path, int params, int convert_dt, char *err, size_t errlen);

/* A checkpoint in memory (sim:save): the same contents as a file's (state,
 * time and step count, mesh and tissue, parameter sets, release units),
 * gathered by the same code, for a study that restores one state many times
 * without touching the disk. Every rank keeps the whole grid's state (what
 * sim_get_state gathers) and its own cells' release units. */
typedef struct checkpoint_mem checkpoint_mem;
/* Collective under MPI. NULL with err (out of memory, or a backend failure). */
checkpoint_mem *checkpoint_mem_save(sim *s, char *err, size_t errlen);
/* As checkpoint_load, into s or any simulation of the same problem (model,
 * mesh, tissue, dt, precision, ranks, dyads and seed; else refused with the
 * difference before anything changes); the snapshot is left as it was, to be
 * restored again. Collective under MPI. */
int checkpoint_mem_load(sim *s, const checkpoint_mem *m, int params, char *err, size_t errlen);
void checkpoint_mem_free(checkpoint_mem *m);
size_t checkpoint_mem_bytes(const checkpoint_mem *m);   /* host memory it holds on this rank */
double checkpoint_mem_time(const checkpoint_mem *m);    /* the simulation time it holds, ms */

#ifdef __cplusplus
}
#endif

#endif
