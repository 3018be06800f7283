/* Host/device qualifier and math for code shared by the CPU (gcc) and GPU
 * (nvcc) builds. Every cell-model header marks its functions CARDIAC_HD, so one
 * copy of a model's equations serves both backends.
 *
 * Shared code is also written once for both precisions: it uses the type
 * `real` and names its functions R(name); core/engine/instances.h includes it twice,
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

/* exp, expm1, log and pow for the largest model (ORd). On the GPU their
 * double versions are long software sequences; inlined at each of ORd's ~100
 * calls they made its fp64 kernel larger than the instruction cache, and
 * instruction fetch stalled its warps 41% of the time (docs/gpu-notebook.md, item 6).
 * Out of line, one copy serves every call: 16.4 -> 10.1 ms per step on the
 * H100 heart case. Single precision (hardware exp2 and log2) and the CPU keep
 * the inline functions; so does TP06, whose smaller fp64 kernel the calls
 * made 17% slower. */
#if defined(__CUDACC__)
#include "exp_f64_cu.h"
#define CARDIAC_OUTLINED(name)                                                              \
    static __attribute__((unused)) __host__ __device__ __noinline__ double cardiac_##name(double x) { return name(x); } \
    static __host__ __device__ __forceinline__ float cardiac_##name(float x) { return name(x); }
/* exp: the library's, to the bit, but its constants loaded from constant
 * memory (core/engine/exp_f64_cu.h) */
static __attribute__((unused)) __host__ __device__ __noinline__ double cardiac_exp(double x)
{
#if defined(__CUDA_ARCH__)
    return cardiac_exp_f64_device(x);
#else
    return exp(x);
#endif
}
static __host__ __device__ __forceinline__ float cardiac_exp(float x) { return exp(x); }
CARDIAC_OUTLINED(expm1)
CARDIAC_OUTLINED(log)
#undef CARDIAC_OUTLINED
static __attribute__((unused)) __host__ __device__ __noinline__ double cardiac_pow(double x, double y)
{
    return pow(x, y);
}
static __host__ __device__ __forceinline__ float cardiac_pow(float x, float y) { return pow(x, y); }
#else
#define cardiac_exp exp
#define cardiac_expm1 expm1
#define cardiac_log log
#define cardiac_pow pow
#endif

#endif
