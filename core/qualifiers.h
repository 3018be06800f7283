/* Host/device qualifier for code shared by the CPU (gcc) and GPU (nvcc) builds.
 * Every cell-model header marks its functions CARDIAC_HD, so one copy of a
 * model's equations serves both backends. */
#ifndef CARDIAC_QUALIFIERS_H
#define CARDIAC_QUALIFIERS_H

#if defined(__CUDACC__)
#define CARDIAC_HD static inline __host__ __device__
#else
#define CARDIAC_HD static inline
#endif

#endif
