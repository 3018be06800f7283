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

#ifdef __cplusplus
}
#endif

#endif
