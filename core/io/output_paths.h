/* Where results may be written: one rule for every writer of cardiac (HDF5
 * outputs, checkpoints, maps files, pictures, CSV tables and plots):
 *   - a file that a live simulation's output is still writing (an HDF5
 *     output or its XDMF sidecar) is refused, even with overwrite: writing it
 *     would replace every frame written so far;
 *   - an existing file is refused unless overwrite = true, and so is an
 *     existing sidecar that the file would bring along (a .xmf);
 *   - missing folders are created.
 * Paths are compared by their canonical form (the folder's realpath and the
 * file name), so relative and absolute spellings of one file match. Per
 * process: every MPI rank keeps its own list of the outputs it opened, and
 * rank 0 decides for the others (the callers broadcast its verdict). */
#ifndef CARDIAC_OUTPUT_PATHS_H
#define CARDIAC_OUTPUT_PATHS_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Registers path as held open by an output; -1 out of memory. */
int output_path_hold(const char *path);
/* Unregisters path (one registration). */
void output_path_release(const char *path);
/* 1 if path names a file held open by a live simulation's output, with err
 * saying so for `writer` (e.g. "checkpoint"); 0 if not. */
int output_path_held(const char *path, const char *writer, char *err, size_t errlen);
/* The rule above for path and, if not NULL, its sidecar: 0 when `writer`
 * (e.g. "checkpoint file") may write them (their folder now exists), or -1
 * with err naming the path and the way out. */
int output_path_ready(const char *path, const char *sidecar, int overwrite, const char *writer, char *err,
                      size_t errlen);
/* The XDMF sidecar of an HDF5 file: its extension replaced by .xmf (or .xmf
 * added), into out (len bytes). */
void output_sidecar(const char *path, char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif
