// From a runtime launch description to a typed kernel instantiation: model
// (from CARDIAC_MODELS), precision, stencil order, whether the grid has a
// mask and, for functors that declare `static constexpr bool folds = true`,
// whether the parameters are the model's defaults (folded at compile time,
// device_common.cuh), and for an ensemble whose members' D differ, the
// kernels with coefficients per layer. Models with more than F::max_states states are not
// instantiated (the backend refuses that layout for them before launching).
// A layout's kernels (kernels_L.cuh) define a functor L_launch with
//   template <class M, class T, int ORDER, bool MASKED, bool FOLD>
//   static void run(const launch_ctx &)
// which dispatch_model<L_launch, M> calls for model M (see the end of this
// file). Precision "mixed" (ctx.fp64 and ctx.mixed) runs the model's mixed
// type (mixed_of, device_common.cuh) in double, "fp32h" (ctx.half) its half
// type (half_of) in float, "fp32g" (ctx.frac) its type with every gate in 16
// bits (frac_of) in float, and fp64 with rate tables (ctx.table) its type
// reading them (tab_of).
#ifndef CARDIAC_CUDA_DISPATCH_CUH
#define CARDIAC_CUDA_DISPATCH_CUH
#include <type_traits>
#include "device_common.cuh"
#include "follow_launch.cuh"

// Layouts that step ensembles whose members' D differ declare
// `static constexpr bool members = true` and run_members<M, T, ORDER, MASKED,
// FOLD>, their kernels with the coefficients per layer, folded or not as the
// plain ones (the folded and general kernels round the model's step
// differently, and a member must round as it does alone); the others, and
// every simulation without them, run the kernels as before.
template <class F, class = void>
struct steps_members : std::false_type {};
template <class F>
struct steps_members<F, std::void_t<decltype(F::members)>> : std::bool_constant<F::members> {};

template <class F, class M, class T, int ORDER, bool MASKED>
void dispatch_fold(const launch_ctx &c)
{
    if constexpr (steps_members<F>::value) {
        if (c.mcoef) {
            if (c.fold) return F::template run_members<M, T, ORDER, MASKED, true>(c);
            return F::template run_members<M, T, ORDER, MASKED, false>(c);
        }
    }
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

// One model's kernels of a layout: its precisions and variants. Models with
// more states than the layout holds compile to nothing.
template <class F, class M>
void dispatch_model(const launch_ctx &c)
{
    if constexpr (M::nstate <= F::max_states) {
        using MX = typename mixed_of<M>::type;
        if constexpr (!std::is_void<MX>::value) {
            static_assert(F::max_states == MODEL_MAX_STATE, "only the naive and block kernels store float states");
            if (c.fp64 && c.mixed) return dispatch_variant<F, MX, double>(c);
        }
        using TX = typename tab_of<M>::type;
        if constexpr (!std::is_void<TX>::value && F::max_states == MODEL_MAX_STATE) {
            if (c.fp64 && !c.mixed && c.table) return dispatch_variant<F, TX, double>(c);
        }
        using GX = typename frac_of<M>::type;
        if constexpr (!std::is_void<GX>::value) {
            static_assert(F::max_states == MODEL_MAX_STATE, "only the naive and block kernels store 16-bit states");
            if (!c.fp64 && c.frac) return dispatch_variant<F, GX, float>(c);
        }
        using HX = typename half_of<M>::type;
        if constexpr (!std::is_void<HX>::value) {
            static_assert(F::max_states == MODEL_MAX_STATE, "only the naive and block kernels store half states");
            if (!c.fp64 && c.half) return dispatch_variant<F, HX, float>(c);
        }
        if (c.fp64) dispatch_variant<F, M, double>(c);
        else dispatch_variant<F, M, float>(c);
    }
}

// A layout's kernels are compiled one model per translation unit, so that a
// parallel build spreads them over its cores (one file held them all, and a
// 2-core build waited minutes for it alone). For every layout L and model m
// the build generates a file holding L's kernels (kernels_L.cuh) and
// CARDIAC_MODEL_KERNELS(L, m), which defines launch_L_m; kernels_L.cu
// defines CARDIAC_LAYOUT as L and expands CARDIAC_LAYOUT_LAUNCH(), the
// launch_L that calls the model's.
#define CARDIAC_PASTE3_(a, b, c) a##_##b##_##c
#define CARDIAC_PASTE3(a, b, c) CARDIAC_PASTE3_(a, b, c)
#define CARDIAC_PASTE2_(a, b) a##_##b
#define CARDIAC_PASTE2(a, b) CARDIAC_PASTE2_(a, b)
#define CARDIAC_MODEL_KERNELS(layout, name)                                                       \
    void launch_##layout##_##name(const launch_ctx &c) { dispatch_model<layout##_launch, name##_model>(c); }
#define CARDIAC_LAYOUT_DECLARE(name, NS, NP, VI, PL)                                              \
    void CARDIAC_PASTE3(launch, CARDIAC_LAYOUT, name)(const launch_ctx &c);
#define CARDIAC_LAYOUT_CASE(name, NS, NP, VI, PL)                                                 \
    case MODEL_ID_##name: CARDIAC_PASTE3(launch, CARDIAC_LAYOUT, name)(c); break;
#define CARDIAC_LAYOUT_LAUNCH()                                                                   \
    CARDIAC_MODELS(CARDIAC_LAYOUT_DECLARE)                                                        \
    void CARDIAC_PASTE2(launch, CARDIAC_LAYOUT)(const launch_ctx &c)                              \
    {                                                                                             \
        switch (c.model) {                                                                        \
            CARDIAC_MODELS(CARDIAC_LAYOUT_CASE)                                                   \
        default: break;                                                                           \
        }                                                                                         \
    }

#endif
