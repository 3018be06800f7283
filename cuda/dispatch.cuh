// From a runtime launch description to a typed kernel instantiation: model
// (from CARDIAC_MODELS), precision, stencil order, whether the grid has a
// mask and, for functors that declare `static constexpr bool folds = true`,
// whether the parameters are the model's defaults (folded at compile time,
// device_common.cuh). Models with more than F::max_states states are not
// instantiated (the backend refuses that layout for them before launching).
// A kernel file defines a functor F with
//   template <class M, class T, int ORDER, bool MASKED, bool FOLD> static void run(const launch_ctx &)
// and calls dispatch<F>(ctx). Precision "mixed" (ctx.fp64 and ctx.mixed)
// runs the model's mixed type (mixed_of, device_common.cuh) in double.
#ifndef CARDIAC_CUDA_DISPATCH_CUH
#define CARDIAC_CUDA_DISPATCH_CUH
#include <type_traits>
#include "device_common.cuh"

template <class F, class M, class T, int ORDER, bool MASKED>
void dispatch_fold(const launch_ctx &c)
{
    if constexpr (F::folds) {
        if (c.fold) return F::template run<M, T, ORDER, MASKED, true>(c);
    }
    F::template run<M, T, ORDER, MASKED, false>(c);
}

template <class F, class M, class T>
void dispatch_variant(const launch_ctx &c)
{
    if (c.order == 2) {
        if (c.masked) dispatch_fold<F, M, T, 2, true>(c);
        else dispatch_fold<F, M, T, 2, false>(c);
    } else {
        if (c.masked) dispatch_fold<F, M, T, 4, true>(c);
        else dispatch_fold<F, M, T, 4, false>(c);
    }
}

template <class F>
void dispatch(const launch_ctx &c)
{
    switch (c.model) {
#define CARDIAC_DISPATCH_CASE(name, NS, NP, VI, PL)                                               \
    case MODEL_ID_##name:                                                                  \
        if constexpr (NS <= F::max_states) {                                               \
            using MX = typename mixed_of<name##_model>::type;                              \
            if constexpr (!std::is_void<MX>::value) {                                      \
                static_assert(F::max_states == MODEL_MAX_STATE,                            \
                              "only the naive and block kernels store float states");      \
                if (c.fp64 && c.mixed) { dispatch_variant<F, MX, double>(c); break; }       \
            }                                                                              \
            if (c.fp64) dispatch_variant<F, name##_model, double>(c);                      \
            else dispatch_variant<F, name##_model, float>(c);                              \
        }                                                                                  \
        break;
        CARDIAC_MODELS(CARDIAC_DISPATCH_CASE)
#undef CARDIAC_DISPATCH_CASE
    default: break;
    }
}

#endif
