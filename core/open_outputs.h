/* The files that live simulations hold open for writing (HDF5 output files
 * and their XDMF sidecars), so that no writer replaces one under them: a
 * checkpoint, a maps file, a picture or a table aimed at such a path is
 * refused with an error that names the simulation's output, instead of
 * silently losing every frame written so far. Paths are compared by their
 * canonical form (the folder's realpath and the file name), so relative and
 * absolute spellings of one file match. Per process: every MPI rank keeps
 * its own list of the outputs it opened. */
#ifndef CARDIAC_OPEN_OUTPUTS_H
#define CARDIAC_OPEN_OUTPUTS_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Registers path as held open by an output; -1 out of memory. */
int open_outputs_add(const char *path);
/* Unregisters path (one registration). */
void open_outputs_remove(const char *path);
/* 1 if path names a file held open by a live simulation's output, with err
 * saying so for `writer` (e.g. "checkpoint"); 0 if not. */
int open_outputs_holds(const char *path, const char *writer, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
