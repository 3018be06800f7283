/* Host/device qualifier and math for code shared by the CPU (gcc) and GPU
 * (nvcc) builds. Every cell-model header marks its functions CARDIAC_HD, so one
 * copy of a model's equations serves both backends.
 *
 * Shared code is also written once for both precisions: it uses the type
 * `real` and names its functions R(name); core/instances.h includes it twice,
 * as float (names ending _f32) and as double (_f64). Math calls are the
 * type-generic ones (exp, pow): <tgmath.h> in C, the overloads of <cmath> in
 * C++/CUDA, so the float instance calls expf and the double one exp. */
#ifndef CARDIAC_QUALIFIERS_H
#define CARDIAC_QUALIFIERS_H

#if defined(__CUDACC__)
#define CARDIAC_HD static inline __host__ __device__
#else
#define CARDIAC_HD static inline
#endif

#if defined(__cplusplus)
#include <cmath>
#else
#include <math.h>
#include <tgmath.h>
#endif

#endif
