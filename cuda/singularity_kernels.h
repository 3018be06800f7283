// Phase singularities on the GPU (cuda/singularity_kernels.cu; core/measure/tips.h):
// the tissue sums that centre the phase, and the singular plaquettes of a
// rank's stored part, so that only their list crosses to the host.
#ifndef CARDIAC_SINGULARITY_KERNELS_H
#define CARDIAC_SINGULARITY_KERNELS_H
#include "launch.h"
#include "singularity.h"

// A rank's stored part: n cells per axis (row-major, x fastest; the grid's
// axes, not the kernel view's), the owned cells [own_lo, own_hi), its first
// cell's global index per axis (off), the whole grid's size (gn, gcells).
struct phase_part {
    int dim, n[3], own_lo[3], own_hi[3], off[3], gn[3];
    size_t gcells;
};
// Doubles of device memory phase_sums needs for part p (block partials and their reduction).
size_t phase_sum_room(const phase_part &p);
// part2[0], part2[1]: the sums of a and b (as floats) over owned tissue cells,
// added in a fixed order (part2: 2 x phase_sum_blocks() doubles of room).
void phase_sums(const store_map &m, int fp64, const void *a, const void *b, const uint8_t *mask, const phase_part &p,
                double *part2, cudaStream_t st);
// th[c] = the phase of cell c about (a0, b0) (core/measure/phase_winding.h), NaN outside the tissue.
void phase_field(const store_map &m, int fp64, const void *a, const void *b, const uint8_t *mask, const phase_part &p,
                 double a0, double b0, float *th, cudaStream_t st);
// Appends the singular plaquettes whose lower corner is owned to out[0 .. cap)
// in no particular order; *count (device, zeroed here) ends as their number,
// which may exceed cap (then call again with room for all).
void singular_plaquettes(const phase_part &p, const float *th, sing_face *out, size_t cap,
                         unsigned long long *count, cudaStream_t st);

#endif
