// Device code shared by all step kernels: the typed kernel arguments, the
// neighbour flags that carry the no-flux boundary, the diffusion term, and
// the link to the single-source cell models of core/models/.
#ifndef CARDIAC_CUDA_DEVICE_COMMON_CUH
#define CARDIAC_CUDA_DEVICE_COMMON_CUH
#include <cuda_fp16.h>
#include <type_traits>
#include "launch.h"
#include "instances.h"
#include "multirate.h"
#include "quiescence.h"
#include "rng.h"   // counter-based draws for stochastic models (compiled for the device here)

// Neighbour flags (FLAG_SELF, cuda/launch.h): full boxes compute them from
// the position; masked grids store them per cell (built once).

__device__ __forceinline__ unsigned box_axis_flags(int q, int n)
{
    return (unsigned)(q > 0) | (unsigned)(q < n - 1) << 1 | (unsigned)(q > 1) << 2 |
           (unsigned)(q < n - 2) << 3;
}

__device__ __forceinline__ unsigned box_flags(int i, int j, int k, const int *n)
{
    return box_axis_flags(i, n[0]) | box_axis_flags(j, n[1]) << 4 | box_axis_flags(k, n[2]) << 8 |
           FLAG_SELF;
}

// Flags of a cell of a full box: all set for cells at least ORDER/2 cells away
// from every face (the common case, tested with 6 comparisons), else
// box_flags. Axes of size 1 have no neighbours and are skipped by the kernels.
template <int ORDER>
__device__ __forceinline__ unsigned full_box_flags(int i, int j, int k, const int *n)
{
    constexpr int R = ORDER / 2;
    const bool inner = i >= R && i < n[0] - R && (n[1] == 1 || (j >= R && j < n[1] - R)) &&
                       (n[2] == 1 || (k >= R && k < n[2] - R));
    return inner ? 0xFFFFu : box_flags(i, j, k, n);
}

// The boundary rules of core/engine/stencil_rule.h in each precision, from
// an axis's 4 flag bits: second order's pair rule, fourth order's.
__device__ __forceinline__ float pair_rule(float v0, float m1, float p1, unsigned f)
{
    return stencil_pair_rule_f32(v0, m1, p1, f & 1, f >> 1 & 1);
}
__device__ __forceinline__ double pair_rule(double v0, double m1, double p1, unsigned f)
{
    return stencil_pair_rule_f64(v0, m1, p1, f & 1, f >> 1 & 1);
}
__device__ __forceinline__ float axis_rule(float v0, float m1, float p1, float m2, float p2, unsigned f)
{
    return stencil_axis_rule_f32(v0, m1, p1, m2, p2, f & 1, f >> 1 & 1, f >> 2 & 1, f >> 3 & 1);
}
__device__ __forceinline__ double axis_rule(double v0, double m1, double p1, double m2, double p2, unsigned f)
{
    return stencil_axis_rule_f64(v0, m1, p1, m2, p2, f & 1, f >> 1 & 1, f >> 2 & 1, f >> 3 & 1);
}

// Fourth order's second difference along one axis from the values around the
// cell and the 4 flag bits of that axis; neighbours whose flag is 0 are not
// used.
template <class T>
__device__ __forceinline__ T axis_term4(T v0, T m1, T p1, T m2, T p2, unsigned f)
{
    if ((f & 0xFu) == 0xFu) return (-p2 + (T)16 * p1 - (T)30 * v0 + (T)16 * m1 - m2) * ((T)1 / (T)12);
    return axis_rule(v0, m1, p1, m2, p2, f);
}

// The same with all neighbours in tissue, from a pointer Vc to the cell and
// the axis's stride s: the common case, without the flag logic.
template <class T>
__device__ __forceinline__ T interior_axis4(const T *Vc, int s)
{
    const T v0 = Vc[0];
    return (-Vc[2 * s] + (T)16 * Vc[s] - (T)30 * v0 + (T)16 * Vc[-s] - Vc[-2 * s]) * ((T)1 / (T)12);
}

// The diffusion term's sum over the axes, rounded alike in every layout: the
// first axis's product alone, each next one fused into the sum. Left to the
// compiler, c0 * X + c1 * Y contracts to fma(c0, X, c1 * Y) in one kernel and
// to fma(c1, Y, c0 * X) in another, and the layouts' last bits differed
// wherever two axes both carry a gradient (docs/gpu-notebook.md, item 24).
__device__ __forceinline__ float first_term(float c, float x) { return __fmul_rn(c, x); }
__device__ __forceinline__ double first_term(double c, double x) { return __dmul_rn(c, x); }
__device__ __forceinline__ float next_term(float sum, float c, float x) { return __fmaf_rn(c, x, sum); }
__device__ __forceinline__ double next_term(double sum, double c, double x) { return __fma_rn(c, x, sum); }

// The kernels' coefficients from the view's: an axis of one cell, other
// than x, has no neighbours, and its coefficient is 0, so that a kernel which
// differences it anyway (tplane's y, unconditional: a test there made ptxas
// spill) adds exactly nothing; coef[3] is centre_term's w = 2 sum_a coef_a,
// in the same operations on the host (make_args) and in a kernel
// (layer_coef).
template <class T>
__host__ __device__ __forceinline__ void kernel_coef(const double *c, const int *n, T *coef)
{
    for (int d = 0; d < 3; d++) coef[d] = d == 0 || n[d] > 1 ? (T)c[d] : (T)0;
    coef[3] = (T)2 * ((coef[0] + coef[1]) + coef[2]);
}

// The diffusion coefficients of view z layer k in an ensemble whose members'
// D differ: that member's (converted as make_args converts coef, so a member
// steps with the bits it has alone; core/engine/members.h). Only the kernels
// compiled for it read them (dispatch.cuh, run_members).
template <class A, class T>
__device__ __forceinline__ void layer_coef(const A &a, int k, T (&cf)[4])
{
    kernel_coef(a.mcoef + 3 * k, a.n, cf);
}

// Second order sums the axes' neighbours before the centre: sum_a coef_a
// (m_a + p_a) - w v0, with w = 2 sum_a coef_a (coef[3], kernel_coef), where
// sum_a coef_a (m_a + p_a - 2 v0) took two operations more per cell
// (docs/numerics.md, "Rounding of the diffusion term"). axis_part is an
// axis's share before the centre: m1 + p1 in second order (a missing
// neighbour takes v0: pair_rule), the whole second difference in fourth;
// centre_term then subtracts w v0 in second order.
template <class T, int ORDER>
__device__ __forceinline__ T axis_part(T v0, T m1, T p1, T m2, T p2, unsigned f)
{
    if (ORDER == 2) return pair_rule(v0, m1, p1, f);
    return axis_term4(v0, m1, p1, m2, p2, f);
}
template <class T, int ORDER>
__device__ __forceinline__ T interior_part(const T *Vc, int s)
{
    if (ORDER == 2) return Vc[s] + Vc[-s];
    return interior_axis4(Vc, s);
}
template <class T, int ORDER>
__device__ __forceinline__ T centre_term(T sum, const T *coef, T v0)
{
    return ORDER == 2 ? next_term(sum, -coef[3], v0) : sum;
}

template <class T, int ORDER>
__device__ __forceinline__ T interior_diffusion(const T *Vc, int sy, int sz, const T *coef, const int *n)
{
    T diff = first_term(coef[0], interior_part<T, ORDER>(Vc, 1));
    if (n[1] > 1) diff = next_term(diff, coef[1], interior_part<T, ORDER>(Vc, sy));
    if (n[2] > 1) diff = next_term(diff, coef[2], interior_part<T, ORDER>(Vc, sz));
    return centre_term<T, ORDER>(diff, coef, Vc[0]);
}

// The phase-field diffusion term (thesis eq. 4.1; core/engine/stencil_point.h, the
// CPU's form, in the same order of operations): (1/phi_c) sum_a coef_a
// sum_n (phi_c + phi_n)/2 (V_n - V_c) over the neighbours n whose flag is set.
// at(a, off) gives the stored index of the neighbour off cells along view axis a.
template <class T, class At>
__device__ __forceinline__ T phase_diffusion(const T *V, const float *phi, size_t q, T v0, unsigned fl,
                                            const T *coef, const int *n, At at)
{
    const T pc = (T)phi[q];
    T sum = 0;
#pragma unroll
    for (int a = 0; a < 3; a++) {
        if (n[a] == 1) continue;
        const unsigned f = fl >> (4 * a);
        T flux = 0;
        if (f & 1) { const size_t m = at(a, -1); flux += (pc + (T)phi[m]) * (V[m] - v0); }
        if (f & 2) { const size_t p = at(a, 1); flux += (pc + (T)phi[p]) * (V[p] - v0); }
        sum = next_term(sum, coef[a], flux);
    }
    return sum / (2 * pc);
}

// Typed kernel arguments for model M in precision T.
template <class M, class T>
struct step_args {
    T *in[M::nstate];
    T *out[M::nstate];
    const T *istim;
    const uint16_t *flags;
    const float *phi;
    const uint8_t *plabel;
    const T *ptable;
    const double *table;        // launch_ctx::table
    const uint8_t *tab_of_set;
    size_t tab_stride;
    T coef[4];             // launch_ctx::coef as kernel_coef gives them, and w
    const double *mcoef;   // launch_ctx::mcoef
    T dt;
    T p[M::nparam];
    int n[3];
    int lo[3], hi[3];
    long long step0;
    int every;      // multirate (core/engine/multirate.h): 0 or 1, every state every step
    uint8_t *stamp; // quiescent cells (core/engine/quiescence.h): due steps, or null
    T quiet_below, quiet_diffusion;
    unsigned long long *bad;
    tower_geom tower;
    block_map blocks;
    int tsteps;
};

template <class M, class T>
step_args<M, T> make_args(const launch_ctx &c)
{
    step_args<M, T> a;
    for (int v = 0; v < M::nstate; v++) { a.in[v] = (T *)c.in[v]; a.out[v] = (T *)c.out[v]; }
    a.istim = (const T *)c.istim;
    a.flags = c.flags;
    a.phi = c.phi;
    a.plabel = c.plabel;
    a.ptable = (const T *)c.ptable;
    a.table = c.table;
    a.tab_of_set = c.tab_of_set;
    a.tab_stride = c.tab_stride;
    a.blocks = c.blocks;
    for (int d = 0; d < 3; d++) {
        a.n[d] = c.n[d];
        a.lo[d] = c.lo[d];
        a.hi[d] = c.hi[d];
    }
    kernel_coef(c.coef, a.n, a.coef);
    a.mcoef = c.mcoef;
    a.dt = (T)c.dt;
    for (int q = 0; q < M::nparam; q++) a.p[q] = (T)c.p[q];
    a.step0 = c.step0;
    a.every = c.every;
    a.stamp = c.stamp;
    a.quiet_below = (T)c.quiet_below;
    a.quiet_diffusion = (T)c.quiet_diffusion;
    a.bad = c.bad;
    a.tower = c.tower;
    a.tsteps = c.tsteps;
    return a;
}

// The first state of v's pair of 16-bit states in model type M's storage
// (pair16_first, launch.h).
template <class M>
__host__ __device__ inline int pair_first(int v) { return pair16_first(M::narrow, M::frac, M::slow16, v); }

// State v of stored cell c from the arrays p, and back: the states of
// M::narrow are stored narrower than T: in float when T is double (a mixed
// model's gates, whose values are floats), in 16 bits when T is float (the
// gates of precisions "fp32h" and "fp32g": IEEE half, or, for those of
// M::frac, 16-bit fractions of [0, 1]; rounded to nearest as they are
// stored, two to a 32-bit word: pair16_first, launch.h; both are read
// through the pair's first pointer, so that the compiler loads the word
// once); the others in T. v is a compile-time constant in the unrolled loops
// of the kernels, so the tests cost nothing.
template <class M, class T>
__device__ __forceinline__ T load_state(T *const *p, int v, size_t c)
{
    if (M::narrow >> v & 1) {
        if constexpr (sizeof(T) == 8) {
            return (T)((const float *)p[v])[c];
        } else {
            const int f = pair_first<M>(v);
            if (M::frac >> v & 1) {
                const unsigned w = ((const unsigned *)p[f])[c];
                return fraction16_value(f == v ? w & 0xffffu : w >> 16);
            }
            const __half2 w = ((const __half2 *)p[f])[c];
            return f == v ? __low2float(w) : __high2float(w);
        }
    }
    return p[v][c];
}
template <class M, class T>
__device__ __forceinline__ void store_state(T *const *p, int v, size_t c, T x)
{
    if (M::narrow >> v & 1) {
        if constexpr (sizeof(T) == 8) {
            ((float *)p[v])[c] = (float)x;
        } else {
            const int f = pair_first<M>(v);
            if (M::frac >> v & 1) ((unsigned short *)p[f])[2 * c + (f != v)] = (unsigned short)fraction16_code(x);
            else ((__half *)p[f])[2 * c + (f != v)] = __float2half_rn(x);
        }
    } else {
        p[v][c] = x;
    }
}
// The whole state y of stored cell c, as store_state puts each, but a pair of
// half states as one 32-bit word: their two 16-bit stores were two memory
// requests (docs/gpu-notebook.md item 31).
// SKIP: states left out (multirate's slow states, store_step): the 16-bit
// ones among them are paired among themselves (M::slow16), so a pair goes
// out whole.
template <class M, class T, unsigned long long SKIP = 0>
__device__ __forceinline__ void store_states(T *const *p, size_t c, const T *y)
{
    static_assert(sizeof(T) == 8 || !(SKIP & M::narrow) || (SKIP & M::narrow) == (M::slow16 & M::narrow),
                  "store_states: a 16-bit state left out would split its pair");
#pragma unroll
    for (int v = 0; v < M::nstate; v++) {
        if (SKIP >> v & 1) continue;
        if constexpr (sizeof(T) == 4) {
            if (M::narrow >> v & 1) {
                if (pair_first<M>(v) != v) continue;   // went out with its pair's first
                // its partner: the next state of its group, if paired with it
                // (bit counts, which fold where v is a constant: item 31)
                const unsigned long long above = pair16_group(M::narrow, M::frac, M::slow16, v) & ~((2ull << v) - 1);
                const int s = above ? __ffsll((long long)above) - 1 : v;
                if (s == v || pair_first<M>(s) != v) store_state<M>(p, v, c, y[v]);
                else if (M::frac >> v & 1)
                    ((unsigned *)p[v])[c] = fraction16_code(y[v]) | fraction16_code(y[s]) << 16;
                else ((__half2 *)p[v])[c] = __floats2half2_rn(y[v], y[s]);
                continue;
            }
        }
        store_state<M>(p, v, c, y[v]);
    }
}

template <int NS, class T>
__device__ __forceinline__ bool all_finite(const T *y)
{
    bool ok = true;
#pragma unroll
    for (int v = 0; v < NS; v++) ok &= isfinite(y[v]);
    return ok;
}

// Records the first non-finite state: key = step << 36 | cell.
__device__ __forceinline__ void report_bad(size_t c, long long step, unsigned long long *bad)
{
    atomicMin(bad, (unsigned long long)step << 36 | (unsigned long long)c);
}

template <int NS, class T>
__device__ __forceinline__ void check_finite(const T *y, size_t c, long long step, unsigned long long *bad)
{
    if (!all_finite<NS>(y)) report_bad(c, step, bad);
}

// The slots a model derives from its parameters (core/models/model.h, nslots), for
// the defaults folded at compile time: none, but for the models of
// CARDIAC_DERIVED_MODELS (core/models/list.h), whose <name>_derive fills them.
template <class M> __device__ __forceinline__ void derive_slots(double *) {}

// One cell model as a type: its sizes, its step in both precisions and its
// default parameters (and the slots derived from them), generated from
// CARDIAC_MODELS (core/models/list.h); nparam counts what the step reads.
#define CARDIAC_MODEL_TYPE(name, NS, NP, VI, PL)                                                  \
    struct name##_model {                                                                         \
        enum { nstate = NS, nparam = NP, vindex = VI };                                        \
        static constexpr unsigned long long narrow = 0;   /* states stored in float (mixed) */  \
        static constexpr unsigned long long frac = 0, slow16 = 0;   /* fp32g's (frac_model) */      \
        static constexpr bool tables = false;   /* the gates' steps from rate tables (tab_model) */ \
        static __device__ __forceinline__ void step(float *y, float d, float s, float dt,         \
                                                    const float *p) { name##_step_f32(y, d, s, dt, p); } \
        static __device__ __forceinline__ void step(double *y, double d, double s, double dt,     \
                                                    const double *p) { name##_step_f64(y, d, s, dt, p); } \
        template <class T> static __device__ __forceinline__ void defaults(T *p)                 \
        {                                                                                         \
            double d[NP] = {PL(CARDIAC_PARAM_VALUE)};                                            \
            derive_slots<name##_model>(d);                                                        \
            for (int q = 0; q < NP; q++) p[q] = (T)d[q];                                          \
        }                                                                                         \
    };
CARDIAC_MODELS(CARDIAC_MODEL_TYPE)
#undef CARDIAC_MODEL_TYPE
#define CARDIAC_DERIVED_TYPE(name)                                                                \
    template <> __device__ __forceinline__ void derive_slots<name##_model>(double *p) { name##_derive_f64(p); }
CARDIAC_DERIVED_MODELS(CARDIAC_DERIVED_TYPE)
#undef CARDIAC_DERIVED_TYPE

// Precision "mixed" (core/engine/instances.h): the model's double kernels with its
// _mix step, for CARDIAC_MIXED_MODELS (launch.h). mixed_of names that type,
// void for the others.
template <class M> struct mixed_of { using type = void; };
#define CARDIAC_MIXED_TYPE(name, NARROW)                                                          \
    struct name##_mixed_model : name##_model {                                                    \
        static constexpr unsigned long long narrow = NARROW;                                      \
        static __device__ __forceinline__ void step(double *y, double d, double s, double dt,     \
                                                    const double *p) { name##_step_mix(y, d, s, dt, p); } \
    };                                                                                            \
    template <> struct mixed_of<name##_model> { using type = name##_mixed_model; };
CARDIAC_MIXED_MODELS(CARDIAC_MIXED_TYPE)
#undef CARDIAC_MIXED_TYPE

// Precision "fp32h": the model's float kernels with the states of
// CARDIAC_HALF_MODELS (launch.h) stored in half. half_of names that type,
// void for the others.
template <class M> struct half_of { using type = void; };
#define CARDIAC_HALF_TYPE(name, GATES)                                                            \
    struct name##_half_model : name##_model {                                                     \
        static constexpr unsigned long long narrow = GATES;                                       \
    };                                                                                            \
    template <> struct half_of<name##_model> { using type = name##_half_model; };
CARDIAC_HALF_MODELS(CARDIAC_HALF_TYPE)
#undef CARDIAC_HALF_TYPE

// The models whose quiet cells' V steps by itself (CARDIAC_QUIET_V_MODELS,
// launch.h): tplane's kernels hold resting tissue's code for them only.
template <class M>
struct quiet_v : std::false_type {};
#define CARDIAC_QUIET_V_TYPE(name) \
    template <> struct quiet_v<name##_model> : std::true_type {};
CARDIAC_QUIET_V_MODELS(CARDIAC_QUIET_V_TYPE)
#undef CARDIAC_QUIET_V_TYPE

// Precision "fp32g": the model's float kernels with every gate in 16 bits,
// the states of CARDIAC_FRAC_MODELS (launch.h) as fractions beside its half
// gates, its slow 16-bit states paired among themselves. frac_of names that
// type, void for the others.
template <class M> struct frac_of { using type = void; };
#define CARDIAC_FRAC_TYPE(name, HALF, FRAC, SLOW)                                                 \
    struct name##_frac_model : name##_model {                                                     \
        static constexpr unsigned long long narrow = (HALF) | (FRAC), frac = FRAC, slow16 = SLOW;  \
    };                                                                                            \
    template <> struct frac_of<name##_model> { using type = name##_frac_model; };
CARDIAC_FRAC_MODELS(CARDIAC_FRAC_TYPE)
#undef CARDIAC_FRAC_TYPE

// Rate tables (cardiac.simulation{tables = true}, core/engine/rate_tables.h):
// the model's fp64 kernels with its step reading its gates' table, for
// CARDIAC_TABLE_MODELS (launch.h). tab_of names that type, void for the
// others.
template <class M> struct tab_of { using type = void; };
#define CARDIAC_TABLE_TYPE(name)                                                                  \
    struct name##_tab_model : name##_model {                                                      \
        static constexpr bool tables = true;                                                      \
        static __device__ __forceinline__ void step_tab(double *y, double d, double s, double dt, \
                                                        const double *p, const double *tab)       \
        {                                                                                         \
            name##_step_tab_f64(y, d, s, dt, p, tab);                                              \
        }                                                                                         \
    };                                                                                            \
    template <> struct tab_of<name##_model> { using type = name##_tab_model; };
CARDIAC_TABLE_MODELS(CARDIAC_TABLE_TYPE)
#undef CARDIAC_TABLE_TYPE

// Multirate stepping (core/engine/multirate.h): the slow states of model M
// (its plain, mixed and half types alike), from CARDIAC_SLOW_MODELS
// (launch.h); 0 for the others.
template <class M>
__host__ __device__ constexpr unsigned long long slow_states()
{
#define CARDIAC_SLOW_CASE(name, states) \
    if constexpr (std::is_base_of<name##_model, M>::value) return states;
    CARDIAC_SLOW_MODELS(CARDIAC_SLOW_CASE)
#undef CARDIAC_SLOW_CASE
    return 0;
}
__device__ __forceinline__ float multirate_value(float old, float y, int every) { return multirate_f32(old, y, every); }
__device__ __forceinline__ double multirate_value(double old, double y, int every) { return multirate_f64(old, y, every); }
__device__ __forceinline__ float multirate_value(float old, float y, double factor) { return multirate_by_f32(old, y, factor); }
__device__ __forceinline__ double multirate_value(double old, double y, double factor) { return multirate_by_f64(old, y, factor); }
__device__ __forceinline__ bool quiescent_cell(float v, float istim, float idiff, float below, float current)
{
    return quiescent_f32(v, istim, idiff, below, current);
}
__device__ __forceinline__ bool quiescent_cell(double v, double istim, double idiff, double below, double current)
{
    return quiescent_f64(v, istim, idiff, below, current);
}
__device__ __forceinline__ float quiescent_share(float idiff, unsigned k) { return quiescent_share_f32(idiff, k); }
__device__ __forceinline__ double quiescent_share(double idiff, unsigned k) { return quiescent_share_f64(idiff, k); }

// Multirate's kind of step for the one-step kernels (naive, blockDS): 0
// every state stepped, 1 a holding step, 2 an updating one; with quiescent
// cells (blockDS; core/engine/quiescence.h) 3 a holding step and 4 an
// updating one (multirate_kind + 2, block_launch). A kernel
// variant of its own for each (the launchers instantiate 1 and 2 only for
// models with slow states): a run-time choice in one kernel raised the
// registers of ORd's float kernels for every run (fp32 141 -> 168, fp32h's
// spills 48 -> 128 bytes) and cost fp32h 31% without multirate
// (docs/gpu-notebook.md, item 37).
inline int multirate_kind(const launch_ctx &c) { return c.every > 1 ? 1 + multirate_updates(c.step0, c.every) : 0; }

// The state y of stored cell c after a step of the naive or blockDS kernel,
// which update every state but V in place. At a holding step (MR 1) the
// slow states are not written (and in the float kernels, whose state is in
// registers, the compiler drops what only they need); at an updating step
// (MR 2) each is written as old + every (y - old), old read again from its
// array. MR 3 and 4 store as 1 and 2, an updating step of a quiescent
// cell whose step covered k steps of dt taking every / k times its change
// (multirate_factor).
template <class M, int MR, class T>
__device__ __forceinline__ void store_step(const step_args<M, T> &a, size_t c, const T *y, unsigned k = 1)
{
    constexpr unsigned long long S = slow_states<M>();
    if constexpr (MR == 0 || S == 0) {
        store_states<M>(a.out, c, y);
    } else {
        store_states<M, T, S>(a.out, c, y);
        if constexpr (MR == 2) {
#pragma unroll
            for (int v = 0; v < M::nstate; v++)
                if (S >> v & 1) store_state<M>(a.out, v, c, multirate_value(load_state<M>(a.in, v, c), y[v], a.every));
        }
        if constexpr (MR == 4) {
            const double factor = multirate_factor(a.every, k);
#pragma unroll
            for (int v = 0; v < M::nstate; v++)
                if (S >> v & 1) store_state<M>(a.out, v, c, multirate_value(load_state<M>(a.in, v, c), y[v], factor));
        }
    }
}

// The parameters a kernel passes to its model: the launch's values, or, when
// FOLD (launch_ctx.fold: the values are the model's defaults), the defaults
// as compile-time constants, which the compiler folds into the equations
// (an integer exponent becomes a few multiplications, a division by a
// parameter a multiplication). Both hold the same values in precision T.
template <class M, class T, bool FOLD>
__device__ __forceinline__ void model_params(const step_args<M, T> &a, T *p)
{
    if (FOLD) {
        M::template defaults<T>(p);
    } else {
#pragma unroll
        for (int q = 0; q < M::nparam; q++) p[q] = a.p[q];
    }
}

// Tissue whose regions differ in parameters (sim:set_param with a region):
// the cell steps with its set's row of the table. c is where the layout keeps
// the cell's label (row-major, or storage order in blockDS). Only the
// general variant can have labels (the backend does not fold then).
template <class M, class T>
__device__ __forceinline__ void params_of_set(const step_args<M, T> &a, unsigned set, T *p)
{
    const T *row = a.ptable + (size_t)set * MODEL_MAX_PARAM;
#pragma unroll
    for (int q = 0; q < M::nparam; q++) p[q] = row[q];
}

template <class M, class T>
__device__ __forceinline__ void regional_params(const step_args<M, T> &a, size_t c, T *p)
{
    if (a.plabel) params_of_set(a, a.plabel[c], p);
}

// One cell's step with its parameters p: with the rate table of its
// parameter set (set, when the kernel reads labels: LABELS) for models of
// tab_of, else the model's plain step. dt: the launch's, or a quiescent
// cell's k dt (core/engine/quiescence.h; never with tables).
template <class M, bool LABELS, class T>
__device__ __forceinline__ void step_cell(const step_args<M, T> &a, unsigned set, T *y, T diff, T stim, const T *p,
                                          T dt)
{
    if constexpr (M::tables) {
        const double *tab = a.table;
        if constexpr (LABELS) tab += a.tab_of_set[set] * a.tab_stride;
        if (!tab) __builtin_unreachable();   // the backend launches these kernels with tables only
        M::step_tab(y, diff, stim, dt, p, tab);
    } else {
        M::step(y, diff, stim, dt, p);
    }
}

#endif
