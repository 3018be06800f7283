/* Halo exchange between the ranks of a decomposed simulation: after every
 * step each rank sends the layers of owned cells next to each shared face to
 * the neighbour across it and receives that neighbour's layers into its
 * ghost cells, axis after axis (x, y, z; the faces span the stored extent
 * of the other axes, so later axes carry the earlier ones' ghosts along). */
#ifndef CARDIAC_HALO_H
#define CARDIAC_HALO_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A slab of cells in a row-major array (x fastest): nblocks runs of blocklen
 * consecutive values, the first at offset, each `pitch` values after the last
 * run's start. Every layout a backend keeps row-major copies with one strided
 * copy (cudaMemcpy2D on the GPU). */
typedef struct halo_face {
    size_t offset, blocklen, nblocks, pitch;
} halo_face;

struct sim;

/* The two faces of one exchange along axis a: d = 0 sends the owned layers at
 * the low face down and receives the ghosts above; d = 1 the other way. */
void halo_faces(const struct sim *s, int a, int d, halo_face *send, halo_face *recv);

/* Exchanges the ghost layers of the state variables vars[0..nvars-1]; a no-op
 * unless the simulation is split over several ranks. The backend copies faces
 * through its face_copy operation. Returns 0, or -1 after sim_fail. */
int halo_exchange(struct sim *s, const int *vars, int nvars);
void halo_free(struct sim *s);

#ifdef __cplusplus
}
#endif

#endif
