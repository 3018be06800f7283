/* The process group of a run: one process, or the ranks of an MPI job started
 * by mpirun/srun. Every rank runs the same script (SPMD); the Lua objects
 * describe the global problem and each simulation owns a part of the grid on
 * each rank (core/parallel/decomp.h). These wrappers keep MPI out of the callers and
 * are no-ops (or identities) in a single process, where MPI is never
 * initialised. */
#ifndef CARDIAC_PAR_H
#define CARDIAC_PAR_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Initialises MPI when the process was started by an MPI launcher (mpirun,
 * srun: detected from the environment they set); a plain `cardiac` never
 * touches MPI. Returns 0, or -1 with a message on stderr. */
int par_init(int *argc, char ***argv);
void par_finalize(void);
int par_active(void);      /* 1 when MPI is initialised (also for mpirun -np 1) */
int par_rank(void);
int par_size(void);
int par_local_rank(void);  /* rank among the processes of this node */
/* Ends every rank of the job with the exit code (MPI_Abort), or exit(). */
void par_abort(int code);

/* Collectives over all ranks (identities in one process). */
void par_max_doubles(double *v, int n);
void par_sum_floats(float *v, size_t n);
void par_sum_doubles(double *v, int n);
/* Bitwise OR of byte arrays: combines parts that each rank filled into
 * zeroed buffers, exactly (NaN and -0 included). */
void par_or_bytes(void *v, size_t n);
void par_min_longs(long *v, int n);
void par_max_ints(int *v, int n);
void par_bcast(void *buf, size_t bytes);   /* from rank 0 */
/* Every rank's bytes, one after another in rank order, on every rank: a
 * malloc'd buffer of *total bytes, or NULL (on every rank) when out of memory. */
void *par_allgather(const void *mine, size_t bytes, size_t *total);
void par_bcast_from(int root, void *buf, size_t bytes);
/* After an error: 1 when every rank reaches this call within `seconds` (all
 * failed together, e.g. the same bad input or Ctrl-C, and may shut down
 * cleanly), 0 when some rank does not (it is waiting for this one: abort). */
int par_all_arrive(double seconds);

#ifdef __cplusplus
}
#endif

#endif
