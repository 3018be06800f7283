// From a runtime launch description to a typed kernel instantiation: model
// (from CARDIAC_MODELS), precision, stencil order and whether the grid has a
// mask. A kernel file defines a functor F with
//   template <class M, class T, int ORDER, bool MASKED> static void run(const launch_ctx &)
// and calls dispatch<F>(ctx).
#ifndef CARDIAC_CUDA_DISPATCH_CUH
#define CARDIAC_CUDA_DISPATCH_CUH
#include "device_common.cuh"

template <class F, class M, class T>
void dispatch_variant(const launch_ctx &c)
{
    if (c.order == 2) {
        if (c.masked) F::template run<M, T, 2, true>(c);
        else F::template run<M, T, 2, false>(c);
    } else {
        if (c.masked) F::template run<M, T, 4, true>(c);
        else F::template run<M, T, 4, false>(c);
    }
}

template <class F>
void dispatch(const launch_ctx &c)
{
    switch (c.model) {
#define CARDIAC_DISPATCH_CASE(name, NS, NP, VI)                                                \
    case MODEL_ID_##name:                                                                  \
        if (c.fp64) dispatch_variant<F, name##_model, double>(c);                          \
        else dispatch_variant<F, name##_model, float>(c);                                  \
        break;
        CARDIAC_MODELS(CARDIAC_DISPATCH_CASE)
#undef CARDIAC_DISPATCH_CASE
    default: break;
    }
}

#endif
